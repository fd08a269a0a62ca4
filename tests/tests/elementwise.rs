//! The array-level element-wise functions of `lifted::elementwise`, called from
//! annotated functions: values bit for bit against the plain `f64` loop, Jacobians
//! against closed-form derivatives written here (diagonal blocks for the unary
//! functions, the two partials of each binary function, broadcast rows and scalars,
//! constant operands), and against central differences; every chunk width alike; a
//! batched dense layer against the same layer written as an element loop; the
//! broadcasting panics; second derivatives at the nested and Taylor readings.

use lifted::elementwise as ew;
use lifted::{Constant, FRule, autodiff};

#[path = "support/check.rs"]
mod check_support;
#[path = "support/elementwise.rs"]
#[allow(dead_code)]
mod support;
use check_support::check;
use support::*;

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
// Three-operand functions
// ---------------------------------------------------------------------------------

/// `a b + c` with a row `b` and a scalar `c`, then `x.clamp(lo, hi)` with a constant
/// row of bounds.
#[autodiff(forward, chunk = 3)]
fn fused(
    a: &[f64],
    b: &[f64],
    c: &[f64],
    #[constant] lo: &[f64],
    #[constant] hi: &[f64],
) -> Vec<f64> {
    let y: Vec<f64> = ew::mul_add(a, b, c);
    ew::clamp(&y, lo, hi)
}

#[test]
fn mul_add_and_clamp_have_their_closed_form_partials() {
    // A 3 × 2 matrix `a`, a row `b` of 2, a scalar `c`; bounds per column.
    let a = vec![0.5, -1.5, 2.0, 0.25, -0.5, 1.0]; // no result on a bound
    let (b, c) = (vec![1.5, -2.0], vec![0.125]);
    let (lo, hi) = (vec![-1.0, -0.5], vec![2.0, 1.0]);
    let y = fused(&a, &b, &c, &lo, &hi);
    let want: Vec<f64> = (0..6)
        .map(|i| a[i].mul_add(b[i % 2], c[0]).clamp(lo[i % 2], hi[i % 2]))
        .collect();
    assert_bits("primal", &y, &want);
    let args = (
        a.clone(),
        b.clone(),
        c.clone(),
        Constant(lo.clone()),
        Constant(hi.clone()),
    );
    let (v, jac) = lifted::jacobian(fused::Rule, args).unwrap();
    assert_bits("value", &v, &want);
    // Columns: a (6), b (2), c (1). Inside the bounds: ∂/∂a = b, ∂/∂b = a, ∂/∂c = 1;
    // clamped: every partial is zero (the bounds are constants).
    assert_eq!(jac.shape(), (6, 9));
    for i in 0..6 {
        let inside = lo[i % 2] < a[i] * b[i % 2] + c[0] && a[i] * b[i % 2] + c[0] < hi[i % 2];
        let mut row = [0.0; 9];
        if inside {
            row[i] = b[i % 2];
            row[6 + i % 2] = a[i];
            row[8] = 1.0;
        }
        assert_eq!(jac.row(i).unwrap(), &row[..], "row {i} (inside: {inside})");
    }
    assert!((0..6).any(|i| jac[(i, 8)] == 0.0) && (0..6).any(|i| jac[(i, 8)] == 1.0));
}

#[test]
#[should_panic(expected = "do not broadcast")]
fn mul_add_panics_on_lengths_that_do_not_broadcast() {
    let _ = ew::mul_add(&[1.0, 2.0, 3.0][..], &[1.0, 2.0][..], &[0.0][..]);
}
