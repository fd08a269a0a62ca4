//! The array-level element-wise functions of `lifted::elementwise`, called from
//! annotated functions: values bit for bit against the plain `f64` loop, Jacobians
//! against closed-form derivatives written here (diagonal blocks for the unary
//! functions, the two partials of each binary function, broadcast rows and scalars,
//! constant operands), and against central differences; every chunk width alike; a
//! batched dense layer against the same layer written as an element loop; the
//! broadcasting panics; second derivatives at the nested and Taylor readings.

use lifted::elementwise as ew;
use lifted::linalg::{Mat, matmul, sum};
use lifted::testing::{CheckOptions, CheckScalar, LaneCheck, SplitMix64, check_rule};
use lifted::{Constant, FRule, autodiff};

// ---------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------

/// Deterministic data, uniform in `[lo, hi)`.
fn data(n: usize, seed: u64, lo: f64, hi: f64) -> Vec<f64> {
    let mut rng = SplitMix64::new(seed);
    (0..n).map(|_| rng.uniform(lo, hi)).collect()
}

#[track_caller]
fn assert_bits(what: &str, got: &[f64], want: &[f64]) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert_eq!(g.to_bits(), w.to_bits(), "{what}[{i}]: {g} vs {w}");
    }
}

/// Entry-wise `|got − want| ≤ rtol · max(1, |want|)`.
#[track_caller]
fn assert_close(what: &str, got: &[f64], want: &[f64], rtol: f64) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= rtol * w.abs().max(1.0),
            "{what}[{i}]: {g} vs {w} (rtol {rtol})"
        );
    }
}

/// The row-major Jacobian of `f` at `x` by central differences.
fn fd_jacobian(f: impl Fn(&[f64]) -> Vec<f64>, x: &[f64], h: f64) -> Vec<f64> {
    let m = f(x).len();
    let n = x.len();
    let mut jac = vec![0.0; m * n];
    for j in 0..n {
        let (mut xp, mut xm) = (x.to_vec(), x.to_vec());
        xp[j] += h;
        xm[j] -= h;
        let (yp, ym) = (f(&xp), f(&xm));
        for i in 0..m {
            jac[i * n + j] = (yp[i] - ym[i]) / (2.0 * h);
        }
    }
    jac
}

/// The `(m·len) × len` Jacobian of `m` element-wise functions of `x` stacked: block `k`
/// is diagonal with `derivs[k](xᵢ)`.
fn stacked_diagonals(derivs: &[fn(f64) -> f64], x: &[f64]) -> Vec<f64> {
    let n = x.len();
    let mut jac = vec![0.0; derivs.len() * n * n];
    for (k, d) in derivs.iter().enumerate() {
        for i in 0..n {
            jac[(k * n + i) * n + i] = d(x[i]);
        }
    }
    jac
}

fn check<R: FRule>(rule: R, args: R::Args)
where
    R::Float: CheckScalar,
{
    let options = CheckOptions::new()
        .widths(&[1, 2, 3, 8, 16])
        .lanes(LaneCheck::reduction(64));
    let report = check_rule(rule, args, &options).expect("check_rule runs");
    assert!(report.passed(), "{report}");
}

// ---------------------------------------------------------------------------------
// Unary functions, one at a time
// ---------------------------------------------------------------------------------

#[autodiff(forward, chunk = 4)]
fn tanh_of(x: &[f64]) -> Vec<f64> {
    ew::tanh(x)
}

#[autodiff(forward, chunk = 4)]
fn sin_of(x: &[f64]) -> Vec<f64> {
    ew::sin(x)
}

#[autodiff(forward, chunk = 4)]
fn exp_of(x: &[f64]) -> Vec<f64> {
    ew::exp(x)
}

#[autodiff(forward, chunk = 4)]
fn ln_of(x: &[f64]) -> Vec<f64> {
    ew::ln(x)
}

#[autodiff(forward, chunk = 4)]
fn sqrt_of(x: &[f64]) -> Vec<f64> {
    ew::sqrt(x)
}

#[autodiff(forward, chunk = 4)]
fn recip_of(x: &[f64]) -> Vec<f64> {
    ew::recip(x)
}

#[autodiff(forward, chunk = 4)]
fn abs_of(x: &[f64]) -> Vec<f64> {
    ew::abs(x)
}

#[autodiff(forward, chunk = 4)]
fn atan_of(x: &[f64]) -> Vec<f64> {
    ew::atan(x)
}

#[autodiff(forward, chunk = 4)]
fn cube_of(x: &[f64]) -> Vec<f64> {
    ew::powi(x, 3)
}

#[autodiff(forward, chunk = 4)]
fn inverse_square_of(x: &[f64]) -> Vec<f64> {
    ew::powi(x, -2)
}

/// Checks one element-wise function of one slice: the primal and the value from the
/// Jacobian pass are `value` per element bit for bit, the Jacobian is diagonal with
/// `deriv` (off-diagonal entries exactly zero).
#[track_caller]
fn check_unary<R>(
    name: &str,
    rule: R,
    primal: fn(&[f64]) -> Vec<f64>,
    x: &[f64],
    value: fn(f64) -> f64,
    deriv: fn(f64) -> f64,
) where
    R: FRule<Float = f64, Args = (Vec<f64>,), Output = Vec<f64>>,
{
    let want: Vec<f64> = x.iter().map(|&v| value(v)).collect();
    assert_bits(&format!("{name} primal"), &primal(x), &want);
    let (y, jac) = lifted::jacobian(rule, (x.to_vec(),)).expect("jacobian runs");
    assert_bits(&format!("{name} value"), &y, &want);
    assert_eq!(jac.shape(), (x.len(), x.len()), "{name}: shape");
    for i in 0..x.len() {
        for j in 0..x.len() {
            if i != j {
                assert_eq!(jac[(i, j)], 0.0, "{name}: off-diagonal ({i}, {j})");
            }
        }
    }
    let diag: Vec<f64> = (0..x.len()).map(|i| jac[(i, i)]).collect();
    let exact: Vec<f64> = x.iter().map(|&v| deriv(v)).collect();
    assert_close(&format!("{name} derivative"), &diag, &exact, 1e-14);
}

#[test]
fn unary_functions_match_the_element_loop_and_closed_form_derivatives() {
    let signed = vec![-1.7, -0.4, 0.05, 0.6, 1.3, 2.2, -2.9];
    let positive = vec![0.2, 0.45, 0.9, 1.6, 3.1, 7.5, 0.07];
    check_unary("tanh", tanh_of::Rule, tanh_of, &signed, f64::tanh, |v| {
        1.0 / v.cosh().powi(2)
    });
    check_unary("sin", sin_of::Rule, sin_of, &signed, f64::sin, f64::cos);
    check_unary("exp", exp_of::Rule, exp_of, &signed, f64::exp, f64::exp);
    check_unary("ln", ln_of::Rule, ln_of, &positive, f64::ln, |v| 1.0 / v);
    check_unary("sqrt", sqrt_of::Rule, sqrt_of, &positive, f64::sqrt, |v| {
        0.5 / v.sqrt()
    });
    check_unary(
        "recip",
        recip_of::Rule,
        recip_of,
        &signed,
        f64::recip,
        |v| -1.0 / (v * v),
    );
    check_unary("abs", abs_of::Rule, abs_of, &signed, f64::abs, f64::signum);
    check_unary("atan", atan_of::Rule, atan_of, &signed, f64::atan, |v| {
        1.0 / (1.0 + v * v)
    });
    check_unary(
        "powi 3",
        cube_of::Rule,
        cube_of,
        &signed,
        |v| v.powi(3),
        |v| 3.0 * v * v,
    );
    check_unary(
        "powi -2",
        inverse_square_of::Rule,
        inverse_square_of,
        &signed,
        |v| v.powi(-2),
        |v| -2.0 / (v * v * v),
    );
}

// ---------------------------------------------------------------------------------
// Every unary function, stacked
// ---------------------------------------------------------------------------------

/// Every unary function defined on (0, 1), results one after the other.
#[autodiff(forward, chunk = 4)]
fn unary_stack(x: &[f64]) -> Vec<f64> {
    let mut out: Vec<f64> = ew::neg(x);
    let v: Vec<f64> = ew::sin(x);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::cos(x);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::tan(x);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::asin(x);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::acos(x);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::atan(x);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::sinh(x);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::cosh(x);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::tanh(x);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::asinh(x);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::atanh(x);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::exp(x);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::exp2(x);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::exp_m1(x);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::ln(x);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::log2(x);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::log10(x);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::ln_1p(x);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::sqrt(x);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::cbrt(x);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::recip(x);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::to_degrees(x);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::to_radians(x);
    out.extend_from_slice(&v);
    out
}

/// A unary function's name, value and derivative.
type UnaryEntry = (&'static str, fn(f64) -> f64, fn(f64) -> f64);

/// The value and the derivative of each function of [`unary_stack`], in its order.
const UNARY_STACK: &[UnaryEntry] = &[
    ("neg", |v| -v, |_| -1.0),
    ("sin", f64::sin, f64::cos),
    ("cos", f64::cos, |v| -v.sin()),
    ("tan", f64::tan, |v| 1.0 / v.cos().powi(2)),
    ("asin", f64::asin, |v| 1.0 / (1.0 - v * v).sqrt()),
    ("acos", f64::acos, |v| -1.0 / (1.0 - v * v).sqrt()),
    ("atan", f64::atan, |v| 1.0 / (1.0 + v * v)),
    ("sinh", f64::sinh, f64::cosh),
    ("cosh", f64::cosh, f64::sinh),
    ("tanh", f64::tanh, |v| 1.0 / v.cosh().powi(2)),
    ("asinh", f64::asinh, |v| 1.0 / (v * v + 1.0).sqrt()),
    ("atanh", f64::atanh, |v| 1.0 / (1.0 - v * v)),
    ("exp", f64::exp, f64::exp),
    ("exp2", f64::exp2, |v| v.exp2() * std::f64::consts::LN_2),
    ("exp_m1", f64::exp_m1, f64::exp),
    ("ln", f64::ln, |v| 1.0 / v),
    ("log2", f64::log2, |v| 1.0 / (v * std::f64::consts::LN_2)),
    ("log10", f64::log10, |v| 1.0 / (v * std::f64::consts::LN_10)),
    ("ln_1p", f64::ln_1p, |v| 1.0 / (1.0 + v)),
    ("sqrt", f64::sqrt, |v| 0.5 / v.sqrt()),
    ("cbrt", f64::cbrt, |v| 1.0 / (3.0 * v.cbrt() * v.cbrt())),
    ("recip", f64::recip, |v| -1.0 / (v * v)),
    ("to_degrees", f64::to_degrees, |_| {
        180.0 / std::f64::consts::PI
    }),
    ("to_radians", f64::to_radians, |_| {
        std::f64::consts::PI / 180.0
    }),
];

/// The functions whose derivative is zero or one almost everywhere, on signed input.
#[autodiff(forward, chunk = 4)]
fn piecewise_stack(x: &[f64]) -> Vec<f64> {
    let mut out: Vec<f64> = ew::abs(x);
    let v: Vec<f64> = ew::signum(x);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::floor(x);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::ceil(x);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::round(x);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::trunc(x);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::fract(x);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::cbrt(x);
    out.extend_from_slice(&v);
    out
}

const PIECEWISE_STACK: &[UnaryEntry] = &[
    ("abs", f64::abs, f64::signum),
    ("signum", f64::signum, |_| 0.0),
    ("floor", f64::floor, |_| 0.0),
    ("ceil", f64::ceil, |_| 0.0),
    ("round", f64::round, |_| 0.0),
    ("trunc", f64::trunc, |_| 0.0),
    ("fract", f64::fract, |_| 1.0),
    ("cbrt", f64::cbrt, |v| 1.0 / (3.0 * v.cbrt() * v.cbrt())),
];

#[autodiff(forward, chunk = 4)]
fn acosh_of(x: &[f64]) -> Vec<f64> {
    ew::acosh(x)
}

#[track_caller]
fn check_stack<R>(rule: R, primal: fn(&[f64]) -> Vec<f64>, table: &[UnaryEntry], x: &[f64])
where
    R: FRule<Float = f64, Args = (Vec<f64>,), Output = Vec<f64>>,
{
    let n = x.len();
    let want: Vec<f64> = table
        .iter()
        .flat_map(|(_, f, _)| x.iter().map(move |&v| f(v)))
        .collect();
    let (y, jac) = lifted::jacobian(rule, (x.to_vec(),)).expect("jacobian runs");
    assert_bits("primal", &primal(x), &want);
    assert_bits("value", &y, &want);
    let derivs: Vec<fn(f64) -> f64> = table.iter().map(|t| t.2).collect();
    let exact = stacked_diagonals(&derivs, x);
    assert_eq!(jac.shape(), (table.len() * n, n));
    for (k, (name, _, _)) in table.iter().enumerate() {
        let block = &jac.data()[k * n * n..(k + 1) * n * n];
        assert_close(name, block, &exact[k * n * n..(k + 1) * n * n], 1e-14);
    }
}

#[test]
fn every_unary_function_has_its_closed_form_derivative() {
    check_stack(
        unary_stack::Rule,
        unary_stack,
        UNARY_STACK,
        &data(6, 1, 0.05, 0.95),
    );
    check_stack(
        piecewise_stack::Rule,
        piecewise_stack,
        PIECEWISE_STACK,
        &[-2.7, -1.2, -0.3, 0.4, 1.6, 3.2],
    );
    check_stack(
        acosh_of::Rule,
        acosh_of,
        &[("acosh", f64::acosh, |v| 1.0 / (v * v - 1.0).sqrt())],
        &data(5, 2, 1.1, 4.0),
    );
}

/// `exp(sin(x)·x) / hypot(x, 1 + x²)` and friends, composed from array calls.
#[autodiff(forward, chunk = 4)]
fn composite(x: &[f64]) -> Vec<f64> {
    let s: Vec<f64> = ew::sin(x);
    let p: Vec<f64> = ew::mul(&s, x);
    let e: Vec<f64> = ew::exp(&p);
    let sq: Vec<f64> = ew::powi(x, 2);
    let q: Vec<f64> = ew::hypot(x, &sq);
    let r: Vec<f64> = ew::div(&e, &q);
    let t: Vec<f64> = ew::tanh(&r);
    ew::atan2(&t, &e)
}

fn composite_by_hand(x: &[f64]) -> Vec<f64> {
    x.iter()
        .map(|&v| {
            let e = (v.sin() * v).exp();
            (e / v.hypot(v.powi(2))).tanh().atan2(e)
        })
        .collect()
}

#[test]
fn a_composite_matches_the_loop_and_central_differences() {
    let x = data(7, 3, -1.5, 1.5);
    let (y, jac) = lifted::jacobian(composite::Rule, (x.clone(),)).unwrap();
    assert_bits("primal", &composite(&x), &composite_by_hand(&x));
    assert_bits("value", &y, &composite_by_hand(&x));
    let fd = fd_jacobian(composite, &x, 1e-6);
    assert_close("jacobian vs differences", jac.data(), &fd, 1e-8);
    check(composite::Rule, (x,));
}

// ---------------------------------------------------------------------------------
// Binary functions
// ---------------------------------------------------------------------------------

/// Every binary function on two active operands of one length, stacked.
#[autodiff(forward, chunk = 4)]
fn binary_stack(a: &[f64], b: &[f64]) -> Vec<f64> {
    let mut out: Vec<f64> = ew::add(a, b);
    let v: Vec<f64> = ew::sub(a, b);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::mul(a, b);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::div(a, b);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::rem(a, b);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::atan2(a, b);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::log(a, b);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::powf(a, b);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::hypot(a, b);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::copysign(a, b);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::min(a, b);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::max(a, b);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::rem_euclid(a, b);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::div_euclid(a, b);
    out.extend_from_slice(&v);
    out
}

type Partials = fn(f64, f64) -> (f64, f64);

/// A binary function's name, value and partials.
type BinaryEntry = (&'static str, fn(f64, f64) -> f64, Partials);

/// Each binary function of [`binary_stack`]: its value and its two partials.
const BINARY_STACK: &[BinaryEntry] = &[
    ("add", |a, b| a + b, |_, _| (1.0, 1.0)),
    ("sub", |a, b| a - b, |_, _| (1.0, -1.0)),
    ("mul", |a, b| a * b, |a, b| (b, a)),
    ("div", |a, b| a / b, |a, b| (1.0 / b, -a / (b * b))),
    ("rem", |a, b| a % b, |a, b| (1.0, -(a / b).trunc())),
    ("atan2", f64::atan2, |a, b| {
        let r = a * a + b * b;
        (b / r, -a / r)
    }),
    ("log", f64::log, |a, b| {
        (1.0 / (a * b.ln()), -a.ln() / (b * b.ln() * b.ln()))
    }),
    ("powf", f64::powf, |a, b| {
        (b * a.powf(b - 1.0), a.powf(b) * a.ln())
    }),
    ("hypot", f64::hypot, |a, b| {
        let h = a.hypot(b);
        (a / h, b / h)
    }),
    ("copysign", f64::copysign, |a, b| {
        (a.signum() * b.signum(), 0.0)
    }),
    (
        "min",
        f64::min,
        |a, b| if a < b { (1.0, 0.0) } else { (0.0, 1.0) },
    ),
    (
        "max",
        f64::max,
        |a, b| if a > b { (1.0, 0.0) } else { (0.0, 1.0) },
    ),
    ("rem_euclid", f64::rem_euclid, |a, b| {
        (1.0, -(a / b).div_euclid(1.0))
    }),
    ("div_euclid", f64::div_euclid, |_, _| (0.0, 0.0)),
];

/// The Jacobian of `op(a[i % la], b[i % lb])` for `i < max(la, lb)` with respect to
/// `(a, b)` flattened, from the partials.
fn broadcast_jacobian(partials: Partials, a: &[f64], b: &[f64]) -> Vec<f64> {
    let (la, lb) = (a.len(), b.len());
    let n = la.max(lb);
    let cols = la + lb;
    let mut jac = vec![0.0; n * cols];
    for i in 0..n {
        let (da, db) = partials(a[i % la], b[i % lb]);
        jac[i * cols + i % la] += da;
        jac[i * cols + la + i % lb] += db;
    }
    jac
}

#[test]
fn every_binary_function_has_its_closed_form_partials() {
    // Positive `a` (log, powf), `b` away from 1 (log's base), no ties (min, max), and
    // quotients away from integers (rem).
    let a = vec![0.7, 1.3, 2.1, 0.4, 3.2, 5.9];
    let b = vec![1.9, 0.6, 1.45, 2.5, 0.3, 2.2];
    let n = a.len();
    let want: Vec<f64> = BINARY_STACK
        .iter()
        .flat_map(|(_, f, _)| a.iter().zip(&b).map(move |(&x, &y)| f(x, y)))
        .collect();
    assert_bits("primal", &binary_stack(&a, &b), &want);
    let (y, jac) = lifted::jacobian(binary_stack::Rule, (a.clone(), b.clone())).unwrap();
    assert_bits("value", &y, &want);
    assert_eq!(jac.shape(), (BINARY_STACK.len() * n, 2 * n));
    let block = n * 2 * n;
    for (k, (name, _, partials)) in BINARY_STACK.iter().enumerate() {
        let exact = broadcast_jacobian(*partials, &a, &b);
        assert_close(name, &jac.data()[k * block..(k + 1) * block], &exact, 1e-14);
    }
    // The table itself against central differences, so a wrong closed form above
    // cannot agree with a wrong rule.
    let flat = |v: &[f64]| binary_stack(&v[..n], &v[n..]);
    let ab: Vec<f64> = a.iter().chain(&b).copied().collect();
    assert_close(
        "differences",
        jac.data(),
        &fd_jacobian(flat, &ab, 1e-6),
        1e-7,
    );
}

/// Copysign takes the sign of `b`: its partial in `a` is ±1.
#[autodiff(forward, chunk = 2)]
fn copysign_of(a: &[f64], b: &[f64]) -> Vec<f64> {
    ew::copysign(a, b)
}

#[test]
fn copysign_flips_the_tangent_with_the_sign() {
    let a = vec![1.5, -2.0, 0.5, -0.25];
    let b = vec![-1.0, -3.0, 2.0, 4.0];
    let (y, jac) = lifted::jacobian(copysign_of::Rule, (a.clone(), b.clone())).unwrap();
    assert_eq!(y, [-1.5, -2.0, 0.5, 0.25]);
    let exact = broadcast_jacobian(BINARY_STACK[9].2, &a, &b);
    assert_eq!(jac.data(), &exact[..]);
    assert_eq!(jac[(0, 0)], -1.0);
    assert_eq!(jac[(3, 3)], -1.0);
}

// ---------------------------------------------------------------------------------
// Broadcasting
// ---------------------------------------------------------------------------------

/// `z` is `n × k` row-major, `b` a row of `k`: every op broadcasts `b` over the rows,
/// with the row first or second.
#[autodiff(forward, chunk = 4)]
fn row_broadcast(z: &[f64], b: &[f64]) -> Vec<f64> {
    let mut out: Vec<f64> = ew::add(z, b);
    let v: Vec<f64> = ew::mul(z, b);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::div(z, b);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::powf(z, b);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::hypot(z, b);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::atan2(z, b);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::min(z, b);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::max(z, b);
    out.extend_from_slice(&v);
    // The row first: b ⊙ z.
    let v: Vec<f64> = ew::sub(b, z);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::div(b, z);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::powf(b, z);
    out.extend_from_slice(&v);
    out
}

/// A broadcast op: its name, whether the row comes first, its value and partials.
type RowOp = (&'static str, bool, fn(f64, f64) -> f64, Partials);

/// The ops of [`row_broadcast`].
fn row_broadcast_table() -> Vec<RowOp> {
    let get = |name: &str| {
        let (_, f, p) = BINARY_STACK.iter().find(|e| e.0 == name).unwrap();
        (*f, *p)
    };
    let mut table = Vec::new();
    for name in ["add", "mul", "div", "powf", "hypot", "atan2", "min", "max"] {
        let (f, p) = get(name);
        table.push((name, false, f, p));
    }
    for name in ["sub", "div", "powf"] {
        let (f, p) = get(name);
        table.push((name, true, f, p));
    }
    table
}

/// The Jacobian of a stacked broadcast function with respect to `(z, b)` from the
/// partials, and its values.
fn row_broadcast_exact(z: &[f64], b: &[f64]) -> (Vec<f64>, Vec<Vec<f64>>) {
    let mut values = Vec::new();
    let mut blocks = Vec::new();
    for (_, row_first, f, p) in row_broadcast_table() {
        if row_first {
            values.extend((0..z.len()).map(|i| f(b[i % b.len()], z[i])));
            // Columns (b, z) → reorder to (z, b).
            let j = broadcast_jacobian(p, b, z);
            let (lb, lz) = (b.len(), z.len());
            let cols = lb + lz;
            let mut block = vec![0.0; z.len() * cols];
            for i in 0..z.len() {
                for c in 0..lz {
                    block[i * cols + c] = j[i * cols + lb + c];
                }
                for c in 0..lb {
                    block[i * cols + lz + c] = j[i * cols + c];
                }
            }
            blocks.push(block);
        } else {
            values.extend((0..z.len()).map(|i| f(z[i], b[i % b.len()])));
            blocks.push(broadcast_jacobian(p, z, b));
        }
    }
    (values, blocks)
}

#[test]
fn a_row_broadcasts_over_the_rows_of_a_matrix() {
    let (n, k) = (3, 4);
    // Positive z and b for powf both ways, no ties for min and max.
    let z = data(n * k, 4, 0.2, 2.0);
    let b = vec![0.55, 1.7, 0.9, 1.25];
    let (values, blocks) = row_broadcast_exact(&z, &b);
    assert_bits("primal", &row_broadcast(&z, &b), &values);
    let (y, jac) = lifted::jacobian(row_broadcast::Rule, (z.clone(), b.clone())).unwrap();
    assert_bits("value", &y, &values);
    let block = n * k * (n * k + k);
    assert_eq!(jac.shape(), (blocks.len() * n * k, n * k + k));
    for (m, (exact, (name, row_first, _, _))) in
        blocks.iter().zip(row_broadcast_table()).enumerate()
    {
        let got = &jac.data()[m * block..(m + 1) * block];
        assert_close(
            &format!("{name} (row first: {row_first})"),
            got,
            exact,
            1e-14,
        );
    }
    let flat = |v: &[f64]| row_broadcast(&v[..n * k], &v[n * k..]);
    let zb: Vec<f64> = z.iter().chain(&b).copied().collect();
    assert_close(
        "differences",
        jac.data(),
        &fd_jacobian(flat, &zb, 1e-6),
        1e-7,
    );
    check(row_broadcast::Rule, (z, b));
}

/// A one-element operand is a scalar.
#[autodiff(forward, chunk = 2)]
fn scalar_broadcast(x: &[f64], s: &[f64]) -> Vec<f64> {
    let scaled: Vec<f64> = ew::mul(s, x);
    ew::powf(&scaled, s)
}

#[test]
fn a_one_element_operand_is_a_scalar() {
    let x: Vec<f64> = vec![0.5, 1.5, 2.5, 0.25, 1.0];
    let s: Vec<f64> = vec![1.3];
    let c = s[0];
    let want: Vec<f64> = x.iter().map(|&v| (c * v).powf(c)).collect();
    assert_bits("primal", &scalar_broadcast(&x, &s), &want);
    let (y, jac) = lifted::jacobian(scalar_broadcast::Rule, (x.clone(), s.clone())).unwrap();
    assert_bits("value", &y, &want);
    assert_eq!(jac.shape(), (5, 6));
    for (i, &v) in x.iter().enumerate() {
        // y = (c v)^c: ∂v = c² (c v)^(c−1), ∂c = (c v)^c (ln(c v) + 1).
        let mut row = vec![0.0; 6];
        row[i] = c * c * (c * v).powf(c - 1.0);
        row[5] = (c * v).powf(c) * ((c * v).ln() + 1.0);
        assert_close(&format!("row {i}"), jac.row(i).unwrap(), &row, 1e-14);
    }
}

/// Active `z` with a constant row `b`, the constant first or second.
#[autodiff(forward, chunk = 4)]
fn with_constant_row(z: &[f64], #[constant] b: &[f64]) -> Vec<f64> {
    let mut out: Vec<f64> = ew::add(z, b);
    let v: Vec<f64> = ew::mul(z, b);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::div(b, z);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::powf(z, b);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::hypot(b, z);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::atan2(z, b);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::min(z, b);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::max(b, z);
    out.extend_from_slice(&v);
    // Constant with constant: a constant array of the reading, then used actively.
    let bb: Vec<f64> = ew::mul(b, b);
    let v: Vec<f64> = ew::sub(z, &bb);
    out.extend_from_slice(&v);
    out
}

/// Element `i` of an op's result and its partial in `zᵢ`.
type ValueAndPartial<'a> = Box<dyn Fn(usize) -> (f64, f64) + 'a>;

#[test]
fn constant_operands_contribute_values_and_no_columns() {
    let (n, k) = (4, 3);
    let z = data(n * k, 5, 0.1, 2.0);
    let b = vec![0.8, 1.35, 0.45];
    let m = n * k;
    let bi = |i: usize| b[i % k];
    // (value, ∂/∂zᵢ) per op, in the order of the function.
    let ops: Vec<(&str, ValueAndPartial<'_>)> = vec![
        ("add", Box::new(|i| (z[i] + bi(i), 1.0))),
        ("mul", Box::new(|i| (z[i] * bi(i), bi(i)))),
        ("div", Box::new(|i| (bi(i) / z[i], -bi(i) / (z[i] * z[i])))),
        (
            "powf",
            Box::new(|i| (z[i].powf(bi(i)), bi(i) * z[i].powf(bi(i) - 1.0))),
        ),
        (
            "hypot",
            Box::new(|i| (bi(i).hypot(z[i]), z[i] / bi(i).hypot(z[i]))),
        ),
        (
            "atan2",
            Box::new(|i| (z[i].atan2(bi(i)), bi(i) / (z[i] * z[i] + bi(i) * bi(i)))),
        ),
        (
            "min",
            Box::new(|i| (z[i].min(bi(i)), if z[i] < bi(i) { 1.0 } else { 0.0 })),
        ),
        (
            "max",
            Box::new(|i| (bi(i).max(z[i]), if z[i] > bi(i) { 1.0 } else { 0.0 })),
        ),
        ("sub", Box::new(|i| (z[i] - bi(i) * bi(i), 1.0))),
    ];
    let want: Vec<f64> = ops
        .iter()
        .flat_map(|(_, f)| (0..m).map(|i| f(i).0))
        .collect();
    assert_bits("primal", &with_constant_row(&z, &b), &want);
    let (y, jac) =
        lifted::jacobian(with_constant_row::Rule, (z.clone(), Constant(b.clone()))).unwrap();
    assert_bits("value", &y, &want);
    assert_eq!(
        jac.shape(),
        (ops.len() * m, m),
        "the constant has no columns"
    );
    for (o, (name, f)) in ops.iter().enumerate() {
        let mut exact = vec![0.0; m * m];
        for i in 0..m {
            exact[i * m + i] = f(i).1;
        }
        assert_close(name, &jac.data()[o * m * m..(o + 1) * m * m], &exact, 1e-14);
    }
    // Some of each min/max branch was taken.
    assert!(z.iter().enumerate().any(|(i, &v)| v < bi(i)));
    assert!(z.iter().enumerate().any(|(i, &v)| v > bi(i)));
}

// ---------------------------------------------------------------------------------
// Chunk widths
// ---------------------------------------------------------------------------------

macro_rules! at_chunk {
    ($($name:ident = $chunk:literal),* $(,)?) => {$(
        /// `tanh(x ⊙ b + b)·exp(−x)` with a broadcast row `b`.
        #[autodiff(forward, chunk = $chunk)]
        fn $name(x: &[f64], b: &[f64]) -> Vec<f64> {
            let xb: Vec<f64> = ew::mul(x, b);
            let h: Vec<f64> = ew::add(&xb, b);
            let t: Vec<f64> = ew::tanh(&h);
            let nx: Vec<f64> = ew::neg(x);
            let e: Vec<f64> = ew::exp(&nx);
            ew::mul(&t, &e)
        }
    )*};
}

at_chunk!(chunk_1 = 1, chunk_2 = 2, chunk_3 = 3, chunk_16 = 16);

#[test]
fn every_chunk_width_gives_the_same_jacobian() {
    let x = data(8, 6, -1.0, 1.0);
    let b = vec![0.3, -0.7];
    let args = (x.clone(), b.clone());
    let (y1, reference) = lifted::jacobian(chunk_1::Rule, args.clone()).unwrap();
    for (width, (y, jac)) in [
        (2, lifted::jacobian(chunk_2::Rule, args.clone()).unwrap()),
        (3, lifted::jacobian(chunk_3::Rule, args.clone()).unwrap()),
        (16, lifted::jacobian(chunk_16::Rule, args.clone()).unwrap()),
    ] {
        assert_bits(&format!("value at chunk {width}"), &y, &y1);
        assert_bits(
            &format!("jacobian at chunk {width}"),
            jac.data(),
            reference.data(),
        );
    }
    for width in [1, 2, 3, 4, 8, 16, 64] {
        let (y, jac) = lifted::jacobian_with_chunk(chunk_3::Rule, args.clone(), width).unwrap();
        assert_bits(&format!("value, driver chunk {width}"), &y, &y1);
        assert_bits(
            &format!("jacobian, driver chunk {width}"),
            jac.data(),
            reference.data(),
        );
    }
    // And the closed form: yᵢ = tanh(xᵢ bⱼ + bⱼ) e^{−xᵢ}, j = i mod 2.
    let cols = x.len() + b.len();
    for i in 0..x.len() {
        let bj = b[i % 2];
        let t = (x[i] * bj + bj).tanh();
        let e = (-x[i]).exp();
        let dt = 1.0 - t * t;
        let mut row = vec![0.0; cols];
        row[i] = dt * bj * e - t * e;
        row[x.len() + i % 2] = dt * (x[i] + 1.0) * e;
        assert_close(&format!("row {i}"), reference.row(i).unwrap(), &row, 1e-14);
    }
    check(chunk_3::Rule, args);
}

// ---------------------------------------------------------------------------------
// A dense layer over a batch
// ---------------------------------------------------------------------------------

/// `tanh(X W + b)` for `n` rows of `X`, in array calls.
#[autodiff(forward, chunk = 4)]
fn layer(w: &[f64], b: &[f64], x: &[f64], n: usize) -> Vec<f64> {
    let k = b.len();
    let z: Vec<f64> = matmul(Mat::new(x, n, x.len() / n), Mat::new(w, w.len() / k, k));
    let h: Vec<f64> = ew::add(&z, b);
    ew::tanh(&h)
}

/// The same layer with the element-wise part written as a loop.
#[autodiff(forward, chunk = 4)]
fn layer_loop(w: &[f64], b: &[f64], x: &[f64], n: usize) -> Vec<f64> {
    let k = b.len();
    let z: Vec<f64> = matmul(Mat::new(x, n, x.len() / n), Mat::new(w, w.len() / k, k));
    let mut out: Vec<f64> = Vec::with_capacity(z.len());
    for i in 0..z.len() {
        out.push((z[i] + b[i % k]).tanh());
    }
    out
}

/// Two layers and a squared-error loss, the weights constant: a scalar of the batch.
#[autodiff(forward, chunk = 8)]
fn two_layer_loss(
    #[constant] w1: &[f64],
    #[constant] b1: &[f64],
    #[constant] w2: &[f64],
    #[constant] b2: &[f64],
    x: &[f64],
    n: usize,
) -> f64 {
    let (h1, k1, k2) = (w1.len() / b1.len(), b1.len(), b2.len());
    let z1: Vec<f64> = matmul(Mat::new(x, n, x.len() / n), Mat::new(w1, h1, k1));
    let a1: Vec<f64> = ew::tanh(&ew::add(&z1, b1));
    let z2: Vec<f64> = matmul(Mat::new(&a1, n, k1), Mat::new(w2, k1, k2));
    let y: Vec<f64> = ew::add(&z2, b2);
    let sq: Vec<f64> = ew::powi(&y, 2);
    sum(&sq)
}

#[test]
fn a_batched_layer_equals_its_loop_and_central_differences() {
    let (n, m, k) = (3, 4, 2);
    let w = data(m * k, 7, -1.0, 1.0);
    let b = data(k, 8, -0.5, 0.5);
    let x = data(n * m, 9, -1.0, 1.0);
    let args = (w.clone(), b.clone(), x.clone(), n);
    assert_bits("primal", &layer(&w, &b, &x, n), &layer_loop(&w, &b, &x, n));
    // 22 columns: the driver's wide pass, and dense passes of 4.
    let (y, jac) = lifted::jacobian(layer::Rule, args.clone()).unwrap();
    let (y_loop, jac_loop) = lifted::jacobian(layer_loop::Rule, args.clone()).unwrap();
    assert_bits("value vs loop", &y, &y_loop);
    assert_bits("jacobian vs loop", jac.data(), jac_loop.data());
    let (y4, jac4) = lifted::jacobian_with_chunk(layer::Rule, args.clone(), 4).unwrap();
    let (_, jac4_loop) = lifted::jacobian_with_chunk(layer_loop::Rule, args.clone(), 4).unwrap();
    assert_bits("value at 4", &y4, &y);
    assert_bits("jacobian at 4 vs loop", jac4.data(), jac4_loop.data());
    assert_close("jacobian at 4 vs wide", jac4.data(), jac.data(), 1e-14);

    let (lw, lb) = (w.len(), b.len());
    let flat = |v: &[f64]| layer(&v[..lw], &v[lw..lw + lb], &v[lw + lb..], n);
    let all: Vec<f64> = w.iter().chain(&b).chain(&x).copied().collect();
    assert_eq!(jac.shape(), (n * k, all.len()));
    assert_close(
        "differences",
        jac.data(),
        &fd_jacobian(flat, &all, 1e-6),
        1e-8,
    );
    check(layer::Rule, args);

    // Two layers, the batch's gradient.
    let w2 = data(k * 3, 10, -1.0, 1.0);
    let b2 = data(3, 11, -0.5, 0.5);
    let (value, grad) = lifted::gradient(
        two_layer_loss::Rule,
        (
            Constant(w.clone()),
            Constant(b.clone()),
            Constant(w2.clone()),
            Constant(b2.clone()),
            x.clone(),
            n,
        ),
    )
    .unwrap();
    let loss = |v: &[f64]| vec![two_layer_loss(&w, &b, &w2, &b2, v, n)];
    assert_eq!(value.to_bits(), loss(&x)[0].to_bits());
    assert_close("loss gradient", &grad, &fd_jacobian(loss, &x, 1e-6), 1e-8);
}

// ---------------------------------------------------------------------------------
// Shapes
// ---------------------------------------------------------------------------------

#[autodiff(forward, chunk = 2)]
fn sum_of(a: &[f64], b: &[f64]) -> Vec<f64> {
    ew::add(a, b)
}

#[test]
#[should_panic(expected = "elementwise::add: operands of lengths 5 and 3 do not broadcast")]
fn the_primal_panics_on_lengths_that_do_not_broadcast() {
    let _ = sum_of(&[1.0; 5], &[1.0; 3]);
}

#[test]
#[should_panic(expected = "operands of lengths 3 and 5 do not broadcast")]
fn the_rule_panics_on_lengths_that_do_not_broadcast() {
    let _ = lifted::jacobian(sum_of::Rule, (vec![1.0; 3], vec![1.0; 5]));
}

#[test]
#[should_panic(expected = "elementwise::add: operands of lengths 4 and 3 do not broadcast")]
fn the_rule_panics_at_a_dense_reading_called_directly() {
    let a = lifted::NDualArray::<f64, 2>::from_primal_fn(vec![1.0; 4], |_, _| 1.0);
    let b = lifted::NDualArray::<f64, 2>::from_primal_fn(vec![1.0; 3], |_, _| 1.0);
    let _ = sum_of::frule::<lifted::NDual<f64, 2>>(a.view(), b.view());
}

#[test]
#[should_panic(expected = "elementwise::mul: operands of lengths 0 and 3 do not broadcast")]
fn an_empty_operand_does_not_broadcast() {
    let _ = ew::mul(&[][..] as &[f64], &[1.0, 2.0, 3.0][..]);
}

#[test]
#[should_panic(expected = "do not broadcast")]
fn the_rule_panics_on_an_empty_operand_against_a_full_one() {
    let _ = lifted::jacobian(sum_of::Rule, (vec![1.0, 2.0], Vec::new()));
}

#[test]
fn empty_operands_of_equal_length_give_empty_results() {
    let empty: &[f64] = &[];
    assert!(ew::add(empty, empty).is_empty());
    assert!(ew::tanh(empty).is_empty());
    assert!(ew::powi(empty, 3).is_empty());
    assert!(sum_of(empty, empty).is_empty());
    let d = sum_of::frule::<lifted::NDual<f64, 2>>(
        lifted::NDualArray::<f64, 2>::new().view(),
        lifted::NDualArray::<f64, 2>::new().view(),
    );
    assert!(d.is_empty());
}

// ---------------------------------------------------------------------------------
// Second derivatives
// ---------------------------------------------------------------------------------

#[autodiff(forward, chunk = 4)]
fn sum_tanh(x: &[f64]) -> f64 {
    let t: Vec<f64> = ew::tanh(x);
    sum(&t)
}

/// With a constant row broadcast over `x`: a constant operand at the nested and Taylor
/// readings.
#[autodiff(forward, chunk = 4)]
fn sum_tanh_biased(x: &[f64], #[constant] b: &[f64]) -> f64 {
    let h: Vec<f64> = ew::add(x, b);
    let t: Vec<f64> = ew::tanh(&h);
    sum(&t)
}

/// `d²/dx² tanh x = −2 tanh x (1 − tanh² x)`.
fn tanh_second(v: f64) -> f64 {
    let t = v.tanh();
    -2.0 * t * (1.0 - t * t)
}

#[test]
fn second_derivatives_of_an_array_call_at_nested_and_taylor_readings() {
    let x = data(5, 12, -2.0, 2.0);
    let n = x.len();
    let (value, grad, h) = lifted::hessian(sum_tanh::Rule, (x.clone(),)).unwrap();
    assert_eq!(value.to_bits(), sum_tanh(&x).to_bits());
    let dt: Vec<f64> = x.iter().map(|v| 1.0 / v.cosh().powi(2)).collect();
    assert_close("gradient", &grad, &dt, 1e-14);
    for i in 0..n {
        for j in 0..n {
            if i == j {
                assert_close(
                    &format!("h[{i}]"),
                    &[h[(i, i)]],
                    &[tanh_second(x[i])],
                    1e-14,
                );
            } else {
                assert_eq!(h[(i, j)], 0.0, "h[({i}, {j})]");
            }
        }
    }
    // The vector result, pure second derivatives only.
    let (y, d2) = lifted::hessian_diag(tanh_of::Rule, (x.clone(),)).unwrap();
    assert_bits("value", &y, &tanh_of(&x));
    for i in 0..n {
        let mut row = vec![0.0; n];
        row[i] = tanh_second(x[i]);
        assert_close(&format!("row {i}"), d2.row(i).unwrap(), &row, 1e-14);
    }
    // Along a direction v, at the Taylor reading: (d/dt)^k Σ tanh(xᵢ + t vᵢ).
    let v = data(n, 13, -1.0, 1.0);
    let d = lifted::derivatives_1d(sum_tanh::Rule, (x.clone(),), (v.clone(),), 2).unwrap();
    assert_eq!(d[0].to_bits(), sum_tanh(&x).to_bits());
    let first: f64 = x.iter().zip(&v).map(|(a, b)| b / a.cosh().powi(2)).sum();
    let second: f64 = x.iter().zip(&v).map(|(a, b)| b * b * tanh_second(*a)).sum();
    assert_close("taylor", &d[1..], &[first, second], 1e-13);

    // A constant row broadcast over x: the same, shifted.
    let (x, v, n) = (data(6, 14, -2.0, 2.0), data(6, 15, -1.0, 1.0), 6);
    let row = vec![0.4, -0.9];
    let shifted: Vec<f64> = (0..n).map(|i| x[i] + row[i % 2]).collect();
    let args = (x.clone(), Constant(row.clone()));
    let (value, _, h) = lifted::hessian(sum_tanh_biased::Rule, args.clone()).unwrap();
    assert_eq!(value.to_bits(), sum_tanh_biased(&x, &row).to_bits());
    for i in 0..n {
        for j in 0..n {
            let want = if i == j { tanh_second(shifted[i]) } else { 0.0 };
            assert_close(
                &format!("biased h[({i}, {j})]"),
                &[h[(i, j)]],
                &[want],
                1e-14,
            );
        }
    }
    let d =
        lifted::derivatives_1d(sum_tanh_biased::Rule, args, (v.clone(), Constant(row)), 2).unwrap();
    let second: f64 = shifted
        .iter()
        .zip(&v)
        .map(|(a, b)| b * b * tanh_second(*a))
        .sum();
    assert_close("biased taylor", &d[2..], &[second], 1e-13);
}

// ---------------------------------------------------------------------------------
// f32
// ---------------------------------------------------------------------------------

#[autodiff(forward, chunk = 2)]
fn layer_f32(x: &[f32], #[constant] b: &[f32]) -> Vec<f32> {
    let h: Vec<f32> = ew::add(x, b);
    ew::tanh(&h)
}

#[test]
fn single_precision_works_the_same() {
    let x = vec![0.25f32, -0.5, 1.0, 0.75];
    let b = vec![0.1f32, -0.2];
    let (y, jac) = lifted::jacobian(layer_f32::Rule, (x.clone(), Constant(b.clone()))).unwrap();
    for i in 0..4 {
        let t = (x[i] + b[i % 2]).tanh();
        assert_eq!(y[i].to_bits(), t.to_bits());
        assert!((jac[(i, i)] - (1.0 - t * t)).abs() < 1e-6);
    }
}
