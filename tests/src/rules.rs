//! Hand-written rules shared by the test binaries that exercise `check_rule`.

use lifted::array::{ArrayRead, ArrayWrite};
use lifted::{FRule, Reading};

/// `x ← 2·x` in place: an in/out `Vec<f64>` argument.
#[derive(Clone, Copy, Debug, Default)]
pub struct DoubleInPlace;

impl FRule for DoubleInPlace {
    type Float = f64;
    type Args = (Vec<f64>,);
    type Output = ();
    const CHUNK: usize = 4;
    const NAME: &'static str = "double_in_place";
    fn primal(self, args: &mut (Vec<f64>,)) {
        for v in &mut args.0 {
            *v *= 2.0;
        }
    }
    fn frule<D: Reading<f64>>(self, args: &mut (D::Vec,)) {
        let x = &mut args.0;
        let len = ArrayRead::len(x);
        scale_leading::<D>(x, len, 2.0);
    }
}

/// `x[i] ← factor·x[i]` for the first `count` elements of a lifted vector, element by
/// element (the body of [`DoubleInPlace`]'s rule and of its wrong variants).
pub fn scale_leading<D: Reading<f64>>(x: &mut D::Vec, count: usize, factor: f64) {
    for i in 0..count {
        let v = ArrayRead::get(x, i);
        ArrayWrite::set(x, i, v * factor);
    }
}
