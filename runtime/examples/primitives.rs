//! User primitives: functions the macro must not look into, given hand-written rules
//! that `#[autodiff]` functions dispatch to.
//!
//! A primitive is an ordinary function `g` plus a module `g` next to it holding
//! `pub fn frule<D: Reading<f64>>(…)` — the same shape the macro generates — so a call
//! `g(x)` inside an annotated function becomes `g::frule::<D>(x)`. The rule says which
//! readings it supports with a compile-time assertion on `D::ORDER`.
//!
//! * (a) `bessel_j0`: a C function (libm's `j0`) through FFI, its derivative `−J₁`
//!   from the same library; first order only.
//! * (b) `cubic_root`: the root `x(θ)` of `x³ + θx − 1 = 0` found by Newton iterations;
//!   its rule does *not* differentiate the iterations: the implicit function theorem
//!   gives `x′` and `x″` from the converged root. Second order.
//! * (c) `logistic`: a local function declared a primitive because its hand-written
//!   rule (one `exp`, the derivative `s(1 − s)` from the value) beats the derived one
//!   (an `exp` and a dual division); `benches/benches/primitives.rs` measures it.
//!
//! Each is called from an annotated function, checked with `check_rule` (finite
//! differences, widths 1, 2, 3, 8 and 64, the primal reading bit for bit). Run with
//! `cargo run -p lifted --example primitives`; exits non-zero when a check fails.

use std::process::ExitCode;

use lifted::testing::{CheckOptions, check_rule};
use lifted::{FRule, autodiff};

// ---------------------------------------------------------------------------------
// (a) A C function through FFI
// ---------------------------------------------------------------------------------

mod libm {
    unsafe extern "C" {
        /// Bessel function of the first kind, order 0 (POSIX libm).
        pub safe fn j0(x: f64) -> f64;
        /// Bessel function of the first kind, order 1 (POSIX libm).
        pub safe fn j1(x: f64) -> f64;
    }
}

/// J₀(x), computed by the C library.
pub fn bessel_j0(x: f64) -> f64 {
    libm::j0(x)
}

/// The rule of [`bessel_j0`]: J₀′ = −J₁, first derivative only.
#[allow(non_snake_case)]
pub mod bessel_j0 {
    use lifted::Reading;

    /// Runs at first-order readings (`f64`, `NDual<f64, N>`); a nested reading is a
    /// compile error naming this function.
    pub fn frule<D: Reading<f64>>(x: D) -> D {
        const {
            assert!(
                D::ORDER <= 1,
                "bessel_j0's rule knows only the first derivative"
            )
        };
        let v = x.primal_scalar();
        x.compose(&[super::libm::j0(v), -super::libm::j1(v)])
    }
}

/// A damped Bessel profile, written as ordinary Rust around the C function.
#[autodiff(forward, chunk = 2)]
pub fn damped_bessel(x: f64, k: f64) -> f64 {
    bessel_j0(k * x) * (-0.1 * x).exp()
}

// ---------------------------------------------------------------------------------
// (b) An implicit function: Newton's method with an implicit-function-theorem rule
// ---------------------------------------------------------------------------------

/// The real root of `x³ + θx − 1 = 0` for `θ ≥ 0`, by Newton's method from `x = 1`.
pub fn cubic_root(theta: f64) -> f64 {
    let mut x: f64 = 1.0;
    for _ in 0..50 {
        let step = (x * x * x + theta * x - 1.0) / (3.0 * x * x + theta);
        x -= step;
        if step.abs() <= 1e-15 * x.abs() {
            break;
        }
    }
    x
}

/// The rule of [`cubic_root`]: with `g(x, θ) = x³ + θx − 1`, `g(x(θ), θ) = 0` gives
/// `x′ = −g_θ / g_x = −x / (3x² + θ)` and, differentiating once more,
/// `x″ = −(6x x′² + 2x′) / (3x² + θ)`. The iterations are not differentiated.
#[allow(non_snake_case)]
pub mod cubic_root {
    use lifted::Reading;

    /// Runs at readings up to second order (nested `NDual`s included).
    pub fn frule<D: Reading<f64>>(theta: D) -> D {
        const { assert!(D::ORDER <= 2, "cubic_root's rule knows two derivatives") };
        let t = theta.primal_scalar();
        let x = super::cubic_root(t);
        let gx = 3.0 * x * x + t;
        let d1 = -x / gx;
        let d2 = -(6.0 * x * d1 * d1 + 2.0 * d1) / gx;
        theta.compose(&[x, d1, d2])
    }
}

/// An energy depending on the root: `k · x(θ)²`.
#[autodiff(forward)]
pub fn root_energy(theta: f64, k: f64) -> f64 {
    let x = cubic_root(theta);
    k * x * x
}

// ---------------------------------------------------------------------------------
// (c) A local function whose hand-written rule beats the derived one
// ---------------------------------------------------------------------------------

/// The logistic function `1 / (1 + e⁻ˣ)`.
pub fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The rule of [`logistic`]: the value once, its derivative `s(1 − s)` and second
/// derivative `s(1 − s)(1 − 2s)` from the value.
#[allow(non_snake_case)]
pub mod logistic {
    use lifted::Reading;

    /// Runs at readings up to second order.
    pub fn frule<D: Reading<f64>>(x: D) -> D {
        const { assert!(D::ORDER <= 2, "logistic's rule knows two derivatives") };
        let s = super::logistic(x.primal_scalar());
        let d1 = s * (1.0 - s);
        x.compose(&[s, d1, d1 * (1.0 - 2.0 * s)])
    }
}

/// A two-unit logistic layer.
#[autodiff(forward, chunk = 4)]
pub fn logistic_layer(x: f64, y: f64, w: [f64; 2]) -> f64 {
    logistic(w[0] * x + w[1] * y) + logistic(w[1] * x - w[0] * y)
}

// ---------------------------------------------------------------------------------

fn check<R: FRule<Float = f64>>(rule: R, points: &[R::Args]) -> bool {
    let options = CheckOptions::new().widths(&[1, 2, 3, 8, 64]);
    points
        .iter()
        .all(|args| match check_rule(rule, args.clone(), &options) {
            Ok(report) if report.passed() => true,
            Ok(report) => {
                eprintln!("{report}");
                false
            }
            Err(e) => {
                eprintln!("{e}");
                false
            }
        })
}

/// Checks every primitive through the annotated function that calls it; `true` when
/// all pass. (The test suite runs this too: `tests/tests/examples.rs`.)
pub fn run() -> bool {
    let mut ok = true;
    ok &= check(damped_bessel::Rule, &[(0.7, 2.0), (3.5, 0.5), (-1.25, 1.5)]);
    println!("(a) FFI bessel_j0 inside damped_bessel: checked");

    ok &= check(root_energy::Rule, &[(0.5, 2.0), (3.0, 0.25), (0.0, 1.0)]);
    // Second order through the implicit rule, against central differences of the
    // converged root.
    let (theta, h) = (0.5, 1e-4);
    let (_, d2) = lifted::hessian_diag(root_energy::Rule, (theta, 2.0)).expect("hessian_diag");
    let e = |t: f64| root_energy(t, 2.0);
    let fd = (e(theta + h) - 2.0 * e(theta) + e(theta - h)) / (h * h);
    ok &= (d2[(0, 0)] - fd).abs() <= 1e-6;
    println!(
        "(b) implicit cubic_root inside root_energy: checked; ∂²E/∂θ² = {:.9} (FD {fd:.9})",
        d2[(0, 0)]
    );

    ok &= check(
        logistic_layer::Rule,
        &[(0.3, -0.7, [1.5, -0.5]), (2.0, 1.0, [0.25, 2.0])],
    );
    println!("(c) logistic as a primitive inside logistic_layer: checked");
    ok
}

fn main() -> ExitCode {
    if run() {
        println!("all primitives pass check_rule");
        ExitCode::SUCCESS
    } else {
        eprintln!("a primitive failed its check");
        ExitCode::FAILURE
    }
}
