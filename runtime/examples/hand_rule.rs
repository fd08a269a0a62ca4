//! Hand-written rules: the `FRule` pattern for primitives, checked with `check_rule`.
//!
//! Three primitives, each an ordinary function plus a rule marker implementing
//! `lifted::FRule`:
//!
//! * `scaled_hypot(x, y) = 2·hypot(x, y)` in `f64`, its rule written with the methods
//!   of the reading (the same operations as the primal, so the primal reading is
//!   bit-identical);
//! * `softplus(x) = ln(1 + eˣ)` in `f32`, its derivative (the logistic function) given by
//!   formula through `Reading::compose`, the way a primitive whose body the rule cannot
//!   see (a call into C, say) gets a rule; it knows its first derivative only and says
//!   so at compile time;
//! * `axpy(a, x, y)`: `y ← a·x + y` in place over slices, its rule reading and writing
//!   the lifted arrays element by element.
//!
//! Each rule is checked at random points with `lifted::testing::check_rule`, at widths
//! 1, 2, 3, 8 and 64. Run with `cargo run -p lifted --example hand_rule`; the program
//! exits with a non-zero status when a check fails.

use std::process::ExitCode;

use lifted::array::{ArrayRead, ArrayWrite};
use lifted::testing::{CheckOptions, SplitMix64, check_rule};
use lifted::{FRule, Reading};

/// 2·√(x² + y²), without undue overflow.
pub fn scaled_hypot(x: f64, y: f64) -> f64 {
    x.hypot(y) * 2.0
}

/// The rule marker of [`scaled_hypot`].
#[derive(Clone, Copy, Debug, Default)]
pub struct ScaledHypot;

impl FRule for ScaledHypot {
    type Float = f64;
    type Args = (f64, f64);
    type Output = f64;
    const CHUNK: usize = 2;
    const NAME: &'static str = "scaled_hypot";

    fn primal(self, args: &mut (f64, f64)) -> f64 {
        scaled_hypot(args.0, args.1)
    }

    fn frule<D: Reading<f64>>(self, args: &mut (D, D)) -> D {
        let (x, y) = *args;
        x.hypot(y) * 2.0
    }
}

/// ln(1 + eˣ), the smooth ReLU.
pub fn softplus(x: f32) -> f32 {
    if x > 15.0 { x } else { x.exp().ln_1p() }
}

/// The rule marker of [`softplus`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Softplus;

impl FRule for Softplus {
    type Float = f32;
    type Args = (f32,);
    type Output = f32;
    const CHUNK: usize = 1;
    const NAME: &'static str = "softplus";

    fn primal(self, args: &mut (f32,)) -> f32 {
        softplus(args.0)
    }

    fn frule<D: Reading<f32>>(self, args: &mut (D,)) -> D {
        // Only the first derivative is known: refuse higher-order readings at compile
        // time rather than return a wrong second derivative.
        const { assert!(D::ORDER <= 1, "softplus has a first-derivative rule only") };
        let x = args.0.primal_scalar();
        // The primal once, then its derivative σ(x) = 1 / (1 + e⁻ˣ); `compose` returns
        // the value at the primal reading and chains the derivative into every lane.
        let value = softplus(x);
        let slope = 1.0 / (1.0 + (-x).exp());
        args.0.compose(&[value, slope])
    }
}

/// `y ← a·x + y`.
pub fn axpy(a: f64, x: &[f64], y: &mut [f64]) {
    for (yi, xi) in y.iter_mut().zip(x) {
        *yi += a * xi;
    }
}

/// The rule marker of [`axpy`]: `a` by value, `x` shared, `y` in/out (its tangents are
/// outputs too).
#[derive(Clone, Copy, Debug, Default)]
pub struct Axpy;

impl FRule for Axpy {
    type Float = f64;
    type Args = (f64, Vec<f64>, Vec<f64>);
    type Output = ();
    const CHUNK: usize = 4;
    const NAME: &'static str = "axpy";

    fn primal(self, args: &mut (f64, Vec<f64>, Vec<f64>)) {
        axpy(args.0, &args.1, &mut args.2);
    }

    fn frule<D: Reading<f64>>(self, args: &mut (D, D::Vec, D::Vec)) {
        let (a, x, y) = args;
        for i in 0..ArrayRead::len(y).min(ArrayRead::len(x)) {
            let yi = ArrayRead::get(y, i) + *a * ArrayRead::get(x, i);
            ArrayWrite::set(y, i, yi);
        }
    }
}

fn main() -> ExitCode {
    let options = CheckOptions::new().widths(&[1, 2, 3, 8, 64]);
    let mut rng = SplitMix64::new(2024);
    let mut failed = false;
    let mut show = |name: &str, result: Result<lifted::testing::CheckReport, _>| match result {
        Ok(report) => println!("{name}: {report}"),
        Err(failure) => {
            eprintln!("{name}: {failure}");
            failed = true;
        }
    };

    for _ in 0..3 {
        let point = (rng.uniform(-3.0, 3.0), rng.uniform(-3.0, 3.0));
        show("scaled_hypot", check_rule(ScaledHypot, point, &options));
        let x = rng.uniform(-4.0, 4.0) as f32;
        show("softplus", check_rule(Softplus, (x,), &options));
    }
    let x: Vec<f64> = (0..5).map(|_| rng.uniform(-1.0, 1.0)).collect();
    let y: Vec<f64> = (0..5).map(|_| rng.uniform(-1.0, 1.0)).collect();
    show("axpy", check_rule(Axpy, (0.75, x, y), &options));

    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
