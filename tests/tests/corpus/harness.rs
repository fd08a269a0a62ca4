//! One check for every function of the corpus, against its primal function.
//!
//! At the point given, with the primal function as the only reference:
//!
//! * a scalar result: `gradient_with_chunk` at chunks 1, 3 and 8 against five-point
//!   central differences, its value bit for bit equal to the primal's;
//! * a vector result: `jacobian_with_chunk` at chunks 1, 3 and 8 and
//!   `value_and_jacfwd` over every argument, the same way;
//! * one `jvp` along a fixed direction against the directional difference (for a
//!   function that updates its arguments in place, `jvp_mut`, whose updated arguments
//!   and their tangents are checked as well);
//! * `check_rule` with the default options.
//!
//! A difference agrees with a derivative `d` when, for one of the steps,
//! `|d - fd| <= atol + rtol * max(|d|, |fd|) + noise`, `noise` being the rounding
//! error of the difference itself (a few ulps of the largest value it evaluated,
//! over the step).

use lifted::drivers::{Arguments, ChunkScalar};
use lifted::testing::{CheckOptions, check_rule};
use lifted::{FRule, Param, Scalar};

/// How strictly a case is checked.
#[derive(Clone, Debug)]
pub struct Tolerance {
    /// Relative tolerance.
    pub rtol: f64,
    /// Absolute tolerance.
    pub atol: f64,
    /// Relative steps of the finite differences (each scaled by the magnitude of the
    /// component it moves, at least 10⁻³).
    pub steps: Vec<f64>,
}

impl Tolerance {
    /// The defaults for the float type `F`: for `f64` rtol 1e-6, atol 1e-8, steps
    /// 1e-3 and 1e-4; for `f32` rtol 1e-3, atol 1e-4, steps 3e-2 and 1e-2.
    pub fn for_float<F: Scalar>() -> Self {
        if F::EPS < 1e-10 {
            Self {
                rtol: 1e-6,
                atol: 1e-8,
                steps: vec![1e-3, 1e-4],
            }
        } else {
            Self {
                rtol: 1e-3,
                atol: 1e-4,
                steps: vec![3e-2, 1e-2],
            }
        }
    }

    /// These steps instead of the defaults (for a function whose branches lie close
    /// together, as a bisection's do).
    pub fn steps(mut self, steps: &[f64]) -> Self {
        self.steps = steps.to_vec();
        self
    }
}

/// The scalar degrees of freedom of `p`, as `f64`.
fn flat<F: Scalar, P: Param<F>>(p: &P) -> Vec<f64> {
    let mut out = Vec::new();
    p.flatten(&mut out);
    out.into_iter().map(Scalar::to_f64).collect()
}

/// The bits of the scalar degrees of freedom of `p`.
fn bits<F: Scalar, P: Param<F>>(p: &P) -> Vec<u64> {
    let mut out = Vec::new();
    p.flatten(&mut out);
    out.into_iter().map(Scalar::to_bits_u64).collect()
}

/// `args` with its degrees of freedom replaced by `x`.
fn with_dofs<F: Scalar, P: Param<F>>(args: &P, x: &[f64]) -> P {
    let mut moved = args.clone();
    moved.unflatten(&mut x.iter().map(|&v| <F as Scalar>::from_f64(v)));
    moved
}

/// The primal function at `x`: the result's degrees of freedom, then those of the
/// arguments as the function leaves them.
fn evaluate<R: FRule>(rule: R, args: &R::Args, x: &[f64]) -> (Vec<f64>, Vec<f64>) {
    let mut moved = with_dofs(args, x);
    let out = rule.primal(&mut moved);
    (flat(&out), flat(&moved))
}

/// A five-point central difference of `g` at 0 with step `h`: the estimate and its
/// rounding error, entry by entry.
fn five_point(h: f64, eps: f64, g: &mut impl FnMut(f64) -> Vec<f64>) -> (Vec<f64>, Vec<f64>) {
    let (m2, m1, p1, p2) = (g(-2.0 * h), g(-h), g(h), g(2.0 * h));
    let estimate = (0..m2.len())
        .map(|i| (m2[i] - 8.0 * m1[i] + 8.0 * p1[i] - p2[i]) / (12.0 * h))
        .collect();
    let noise = (0..m2.len())
        .map(|i| {
            let size = m2[i].abs() + 8.0 * m1[i].abs() + 8.0 * p1[i].abs() + p2[i].abs();
            16.0 * eps * size / (12.0 * h)
        })
        .collect();
    (estimate, noise)
}

/// The differences of `g` along `dir` at `x` for each step of `tol`, as
/// `(estimate, noise)` pairs: `dir` already carries each component's scale.
fn directional(
    x: &[f64],
    dir: &[f64],
    tol: &Tolerance,
    eps: f64,
    g: &mut impl FnMut(&[f64]) -> Vec<f64>,
) -> Vec<(Vec<f64>, Vec<f64>)> {
    tol.steps
        .iter()
        .map(|&h| {
            five_point(h, eps, &mut |t| {
                let moved: Vec<f64> = x.iter().zip(dir).map(|(a, d)| a + t * d).collect();
                g(&moved)
            })
        })
        .collect()
}

/// The scale of each input: its magnitude, at least 10⁻³, so that every step is
/// relative to the component it moves.
fn scales(x: &[f64]) -> Vec<f64> {
    x.iter().map(|v| v.abs().max(1e-3)).collect()
}

/// Whether `ad` agrees with one of the differences `fds` at entry `i`.
fn agrees(ad: f64, fds: &[(Vec<f64>, Vec<f64>)], i: usize, tol: &Tolerance) -> bool {
    ad.is_finite()
        && fds.iter().any(|(fd, noise)| {
            let bound = tol.atol + tol.rtol * ad.abs().max(fd[i].abs()) + noise[i];
            (ad - fd[i]).abs() <= bound
        })
}

/// Panics unless every entry of `ad` agrees with `fds`.
fn assert_agrees(
    name: &str,
    what: &str,
    ad: &[f64],
    fds: &[(Vec<f64>, Vec<f64>)],
    tol: &Tolerance,
) {
    assert_eq!(
        ad.len(),
        fds[0].0.len(),
        "{name}: {what} has the wrong length"
    );
    for i in 0..ad.len() {
        assert!(
            agrees(ad[i], fds, i, tol),
            "{name}: {what}[{i}] = {:e}, finite differences {:?}",
            ad[i],
            fds.iter().map(|(fd, _)| fd[i]).collect::<Vec<_>>()
        );
    }
}

/// A fixed direction with no zero component.
fn direction(n: usize) -> Vec<f64> {
    (0..n)
        .map(|j| {
            let size = 0.3 + 0.07 * ((j * 7 + 3) % 10) as f64;
            if j % 2 == 0 { size } else { -size }
        })
        .collect()
}

/// The finite-difference Jacobian of the result (rows) by input (columns), one
/// matrix per step, each entry with its noise; row-major.
fn fd_jacobian<R: FRule>(
    rule: R,
    args: &R::Args,
    x: &[f64],
    rows: usize,
    tol: &Tolerance,
) -> Vec<(Vec<f64>, Vec<f64>)> {
    let eps = <R::Float as Scalar>::EPS;
    let n = x.len();
    let scale = scales(x);
    let mut per_step = vec![(vec![0.0; rows * n], vec![0.0; rows * n]); tol.steps.len()];
    for j in 0..n {
        let mut unit = vec![0.0; n];
        unit[j] = scale[j];
        let columns = directional(x, &unit, tol, eps, &mut |p| evaluate(rule, args, p).0);
        for (s, (fd, noise)) in columns.into_iter().enumerate() {
            for i in 0..rows {
                per_step[s].0[i * n + j] = fd[i] / scale[j];
                per_step[s].1[i * n + j] = noise[i] / scale[j];
            }
        }
    }
    per_step
}

/// Runs every check on `rule` at `args` with the default tolerances.
#[track_caller]
pub fn check<R>(rule: R, args: R::Args)
where
    R: FRule,
    R::Float: ChunkScalar,
    R::Args: Arguments<R::Float>,
{
    check_with(rule, args, &Tolerance::for_float::<R::Float>());
}

/// Runs every check on `rule` at `args`.
#[track_caller]
pub fn check_with<R>(rule: R, args: R::Args, tol: &Tolerance)
where
    R: FRule,
    R::Float: ChunkScalar,
    R::Args: Arguments<R::Float>,
{
    let name = R::NAME;
    let eps = <R::Float as Scalar>::EPS;
    let x = flat(&args);
    let n = x.len();
    assert!(n > 0, "{name}: no input to differentiate");

    let mut after = args.clone();
    let output = rule.primal(&mut after);
    let y = flat(&output);
    let mutates = bits(&after) != bits(&args);
    let m = y.len();
    assert!(
        y.iter().chain(&flat(&after)).all(|v| v.is_finite()),
        "{name}: the primal is not finite at the point: {y:?}"
    );
    assert!(m > 0 || mutates, "{name}: no result to differentiate");

    if m > 0 {
        let fd = fd_jacobian(rule, &args, &x, m, tol);
        if m == 1 {
            for chunk in [1, 3, 8] {
                let (value, grad) = lifted::gradient_with_chunk(rule, &args, chunk)
                    .unwrap_or_else(|e| panic!("{name}: gradient at chunk {chunk}: {e}"));
                assert_eq!(
                    value.to_bits_u64(),
                    bits(&output)[0],
                    "{name}: gradient value at chunk {chunk} {value:?} is not the primal's {:?}",
                    y[0]
                );
                let grad: Vec<f64> = grad.into_iter().map(Scalar::to_f64).collect();
                assert_agrees(name, &format!("gradient at chunk {chunk}"), &grad, &fd, tol);
            }
        } else {
            let mut jacobians = Vec::new();
            for chunk in [1, 3, 8] {
                let (value, jac) = lifted::jacobian_with_chunk(rule, &args, chunk)
                    .unwrap_or_else(|e| panic!("{name}: jacobian at chunk {chunk}: {e}"));
                jacobians.push((format!("jacobian at chunk {chunk}"), value, jac));
            }
            let count = <R::Args as Arguments<R::Float>>::COUNT;
            let wrt: Vec<usize> = (0..count).collect();
            let (value, jac) = lifted::value_and_jacfwd(rule, &args, &wrt)
                .unwrap_or_else(|e| panic!("{name}: value_and_jacfwd: {e}"));
            jacobians.push(("value_and_jacfwd".to_string(), value, jac));
            for (what, value, jac) in jacobians {
                assert_eq!(
                    bits(&value),
                    bits(&output),
                    "{name}: {what}: value differs from the primal's"
                );
                assert_eq!(jac.shape(), (m, n), "{name}: {what}: shape");
                let data: Vec<f64> = jac.data().iter().map(|v| v.to_f64()).collect();
                assert_agrees(name, &what, &data, &fd, tol);
            }
        }
    }

    let dir: Vec<f64> = direction(n)
        .iter()
        .zip(scales(&x))
        .map(|(d, s)| d * s)
        .collect();
    let fds = directional(&x, &dir, tol, eps, &mut |p| {
        let (out, moved) = evaluate(rule, &args, p);
        out.into_iter().chain(moved).collect()
    });
    if mutates {
        let mut state = args.clone();
        let mut tangents = with_dofs(&args, &dir);
        let (value, slope) = lifted::jvp_mut(rule, &mut state, &mut tangents)
            .unwrap_or_else(|e| panic!("{name}: jvp_mut: {e}"));
        assert_eq!(
            bits(&value),
            bits(&output),
            "{name}: jvp_mut value differs from the primal's"
        );
        assert_eq!(
            bits(&state),
            bits(&after),
            "{name}: jvp_mut leaves other arguments than the primal"
        );
        let ad: Vec<f64> = flat(&slope).into_iter().chain(flat(&tangents)).collect();
        assert_agrees(name, "jvp_mut", &ad, &fds, tol);
    } else {
        let tangents = with_dofs(&args, &dir);
        let (value, slope) =
            lifted::jvp(rule, &args, &tangents).unwrap_or_else(|e| panic!("{name}: jvp: {e}"));
        assert_eq!(
            bits(&value),
            bits(&output),
            "{name}: jvp value differs from the primal's"
        );
        // The arguments do not move: compare the result's part of the difference.
        let fds: Vec<(Vec<f64>, Vec<f64>)> = fds
            .into_iter()
            .map(|(fd, noise)| (fd[..m].to_vec(), noise[..m].to_vec()))
            .collect();
        assert_agrees(name, "jvp", &flat(&slope), &fds, tol);
    }

    if let Err(failure) = check_rule(rule, args, &CheckOptions::new()) {
        panic!("{name}: check_rule: {failure}");
    }
}

/// One `#[test]` per function: `f(args…)` checks `f::Rule` at those arguments (given
/// as the primal function takes them: `&x` for a slice, a plain value for a
/// `#[constant]`); `name: f(args…)` names the test; `; tolerance` overrides the
/// tolerances.
#[macro_export]
macro_rules! cases {
    ($($name:ident $(: $f:ident)? ( $($a:expr),* $(,)? ) $(; $tol:expr)?),* $(,)?) => {
        mod cases {
            #[allow(unused_imports)]
            use super::*;
            $(
                #[test]
                fn $name() {
                    $crate::cases!(@run [$name $(, $f)?] ($($a),*) $(; $tol)?);
                }
            )*
        }
    };
    (@run [$name:ident, $f:ident] ($($a:expr),*) $(; $tol:expr)?) => {
        $crate::cases!(@run [$f] ($($a),*) $(; $tol)?)
    };
    (@run [$f:ident] ($($a:expr),*)) => {{
        let args = lifted::drivers::IntoArgs::with_args(($($a,)*), |a| a.clone());
        $crate::harness::check(super::$f::Rule, args)
    }};
    (@run [$f:ident] ($($a:expr),*); $tol:expr) => {{
        let args = lifted::drivers::IntoArgs::with_args(($($a,)*), |a| a.clone());
        $crate::harness::check_with(super::$f::Rule, args, &$tol)
    }};
}

/// The harness fails on a rule whose derivative or value is wrong.
mod checks_itself {
    use lifted::{FRule, Reading};

    /// x·y + sin x, with the derivative of sin off by a factor `1 + SKEW` and the
    /// value off by `OFFSET`.
    #[derive(Clone, Copy)]
    struct Skewed<const SKEW_PPM: u32, const OFFSET_ULPS: u64>;

    impl<const SKEW_PPM: u32, const OFFSET_ULPS: u64> FRule for Skewed<SKEW_PPM, OFFSET_ULPS> {
        type Float = f64;
        type Args = (f64, f64);
        type Output = f64;
        const CHUNK: usize = 2;
        const NAME: &'static str = "skewed";

        fn primal(self, args: &mut (f64, f64)) -> f64 {
            args.0 * args.1 + args.0.sin()
        }

        fn frule<D: Reading<f64>>(self, args: &mut (D, D)) -> D {
            let (x, y) = *args;
            let x0 = x.primal_scalar();
            let skew = 1.0 + f64::from(SKEW_PPM) * 1e-6;
            let value = f64::from_bits(x0.sin().to_bits() + OFFSET_ULPS);
            x * y + x.compose(&[value, x0.cos() * skew, -x0.sin()])
        }
    }

    #[test]
    fn a_correct_rule_passes() {
        super::check(Skewed::<0, 0>, (0.7, 1.3));
    }

    #[test]
    #[should_panic(expected = "finite differences")]
    fn a_derivative_off_by_ten_ppm_fails() {
        super::check(Skewed::<10, 0>, (0.7, 1.3));
    }

    #[test]
    #[should_panic(expected = "is not the primal's")]
    fn a_value_off_by_one_ulp_fails() {
        super::check(Skewed::<0, 1>, (0.7, 1.3));
    }
}
