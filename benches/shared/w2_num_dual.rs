//! W2's num-dual baseline, shared by the gradient bench and its profiling example
//! (num-dual is a dev-dependency, so this is included by path, not in the library).

use num_dual::{Derivative, DualNum, DualSVec64};

/// Rosenbrock over num-dual, with num-dual's idioms (a constant on the left becomes a
/// right operand).
pub fn nd_rosenbrock<D: DualNum<Primitive = f64> + Copy>(x: &[D]) -> D {
    let mut s = D::from(0.0);
    for i in 0..x.len() - 1 {
        s += (-x[i] + 1.0).powi(2) + (x[i + 1] - x[i] * x[i]).powi(2) * 100.0;
    }
    s
}

/// num-dual's chunked gradient: passes of C seeded inputs, written to `grad`.
pub fn num_dual_gradient<const C: usize>(
    x: &[f64],
    duals: &mut Vec<DualSVec64<C>>,
    grad: &mut [f64],
) -> f64 {
    duals.clear();
    duals.extend(x.iter().map(|&v| DualSVec64::<C>::from_re(v)));
    let mut value = 0.0;
    for first in (0..x.len()).step_by(C) {
        let end = (first + C).min(x.len());
        for (k, d) in duals[first..end].iter_mut().enumerate() {
            let mut unit = [0.0; C];
            unit[k] = 1.0;
            d.eps = Derivative::some(unit.into());
        }
        let y = nd_rosenbrock(duals);
        value = y.re;
        let partials: [f64; C] = y.eps.0.map_or([0.0; C], Into::into);
        grad[first..end].copy_from_slice(&partials[..end - first]);
        for d in &mut duals[first..end] {
            d.eps = Derivative::none();
        }
    }
    value
}
