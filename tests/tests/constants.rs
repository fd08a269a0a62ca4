//! Constants the way people write them, on the left of an operator: an imported
//! `std::f64::consts` name, a product of constants, a local bound to constants, module
//! `const` and `static` items, associated constants. Each rule is checked by
//! `check_rule` (finite differences, the primal, lane independence at widths 1, 2, 3,
//! 8 and 16) and its derivative against the closed form.

use std::f64::consts::PI;

use lifted::autodiff;

#[path = "support/check.rs"]
mod check;

const A: f64 = 20.0;
static B: f64 = 0.5;

/// `2π x`: the constant product on the left.
#[autodiff(forward, chunk = 2)]
fn two_pi_x(x: f64) -> f64 {
    2.0 * PI * x
}

/// `(2π) x`, parenthesised.
#[autodiff(forward, chunk = 2)]
fn paren_two_pi_x(x: f64) -> f64 {
    (2.0 * PI) * x
}

/// A local bound to an imported constant, on the left.
#[autodiff(forward, chunk = 2)]
fn local_pi_x(x: f64) -> f64 {
    let pi = PI;
    pi * x
}

/// A local computed from constants only stays a plain float.
#[autodiff(forward, chunk = 2)]
fn local_product(x: f64) -> f64 {
    let k = 2.0 * A;
    k * x - B / x
}

/// A local annotated as a float, bound to a module item.
#[autodiff(forward, chunk = 2)]
fn typed_local(x: f64) -> f64 {
    let a: f64 = A;
    a * x
}

/// Module items and associated constants on the left.
#[autodiff(forward, chunk = 2)]
fn items(x: f64) -> f64 {
    A * x + B * x * x - f64::EPSILON * x + PI / x
}

/// A local bound to a module `const` without a type, on the left.
#[autodiff(forward, chunk = 2)]
fn untyped_local_const(x: f64) -> f64 {
    let a = A;
    let b = B;
    a * x + b * x * x - a / x
}

/// `g(x, c) = c x²`, both arguments active.
#[autodiff(forward)]
fn scaled_square(x: f64, c: f64) -> f64 {
    c * x * x
}

const N: usize = 3;

/// `x^N`, the integer a `const` too.
#[autodiff(forward)]
fn nth_power(x: f64, n: usize) -> f64 {
    x.powi(n as i32)
}

/// Constants passed to another annotated function's active float parameters
/// (zero-lifted at the call), an integer `const` passed as it is.
#[autodiff(forward, chunk = 2)]
fn calls_with_constants(x: f64) -> f64 {
    let a = A;
    scaled_square(x, A) + scaled_square(B, x) + scaled_square(x, a) + nth_power(x, N)
}

/// Nodes and weights of the 3-point Gauss–Legendre rule on [-1, 1].
const GL3_NODES: [f64; 3] = [-0.774_596_669_241_483_4, 0.0, 0.774_596_669_241_483_4];
static GL3_WEIGHTS: [f64; 3] = [5.0 / 9.0, 8.0 / 9.0, 5.0 / 9.0];

/// ∫ₐᵇ exp(k t) dt by 3-point Gauss–Legendre: table elements on the left of lifted
/// values, by index.
#[autodiff(forward, chunk = 3)]
fn gauss_legendre_indexed(a: f64, b: f64, k: f64) -> f64 {
    let half = 0.5 * (b - a);
    let mid = 0.5 * (a + b);
    let mut s = 0.0;
    for i in 0..3 {
        let t = mid + half * GL3_NODES[i];
        s += GL3_WEIGHTS[i] * (k * t).exp();
    }
    half * s
}

/// The same rule with the tables zipped: the items, bound by `&` patterns, are plain
/// floats of unseen type on the left of lifted values.
#[autodiff(forward, chunk = 3)]
fn gauss_legendre_zipped(a: f64, b: f64, k: f64) -> f64 {
    let half = 0.5 * (b - a);
    let mut s = 0.0;
    for (&t, &w) in GL3_NODES.iter().zip(GL3_WEIGHTS.iter()) {
        let x = 0.5 * (a + b) + t * half;
        s += w * (k * x).exp();
    }
    half * s
}

/// Table elements passed to an annotated function.
#[autodiff(forward, chunk = 3)]
fn table_arguments(x: f64) -> f64 {
    scaled_square(x, GL3_WEIGHTS[1]) + scaled_square(GL3_NODES[2], x)
}

#[test]
fn constant_tables() {
    // ∫ₐᵇ e^{kt} dt = (e^{kb} − e^{ka}) / k; the rule is exact to ~1e-4 here, so the
    // derivative of the quadrature is compared with finite differences (check) and
    // the two spellings with each other.
    for (a, b, k) in [(0.0, 1.0, 0.5), (-0.5, 0.7, 1.3)] {
        check::check(gauss_legendre_indexed::Rule, (a, b, k));
        check::check(gauss_legendre_zipped::Rule, (a, b, k));
        let (_, g1) = lifted::gradient(gauss_legendre_indexed::Rule, (a, b, k)).unwrap();
        let (_, g2) = lifted::gradient(gauss_legendre_zipped::Rule, (a, b, k)).unwrap();
        for (p, q) in g1.iter().zip(&g2) {
            assert!((p - q).abs() <= 1e-14 * p.abs().max(1.0));
        }
        // ∂/∂b of the exact integral is e^{kb}; the 3-point rule agrees to 1e-3.
        assert!((g1[1] - (k * b).exp()).abs() < 1e-3);
    }
    for x in [0.3, -1.2] {
        check::check(table_arguments::Rule, (x,));
        let d = lifted::derivative(table_arguments::Rule, x).unwrap().1;
        let want = 2.0 * GL3_WEIGHTS[1] * x + GL3_NODES[2] * GL3_NODES[2];
        assert!((d - want).abs() <= 1e-12);
    }
}

#[test]
fn constants_as_arguments_and_untyped_locals() {
    for x in [0.3, 1.7, -2.4] {
        let d = |r: f64, want: f64| assert!((r - want).abs() <= 1e-12 * want.abs().max(1.0));
        check::check(untyped_local_const::Rule, (x,));
        check::check(calls_with_constants::Rule, (x,));
        d(
            lifted::derivative(untyped_local_const::Rule, x).unwrap().1,
            A + 2.0 * B * x + A / (x * x),
        );
        d(
            lifted::derivative(calls_with_constants::Rule, x).unwrap().1,
            2.0 * A * x + B * B + 2.0 * A * x + 3.0 * x * x,
        );
    }
}

#[test]
fn constants_on_the_left() {
    for x in [0.3, 1.7, -2.4] {
        let d = |r: f64, want: f64| assert!((r - want).abs() <= 1e-12 * want.abs().max(1.0));
        check::check(two_pi_x::Rule, (x,));
        check::check(paren_two_pi_x::Rule, (x,));
        check::check(local_pi_x::Rule, (x,));
        check::check(local_product::Rule, (x,));
        check::check(items::Rule, (x,));
        check::check(typed_local::Rule, (x,));
        d(lifted::derivative(typed_local::Rule, x).unwrap().1, A);
        d(lifted::derivative(two_pi_x::Rule, x).unwrap().1, 2.0 * PI);
        d(
            lifted::derivative(paren_two_pi_x::Rule, x).unwrap().1,
            2.0 * PI,
        );
        d(lifted::derivative(local_pi_x::Rule, x).unwrap().1, PI);
        d(
            lifted::derivative(local_product::Rule, x).unwrap().1,
            2.0 * A + B / (x * x),
        );
        d(
            lifted::derivative(items::Rule, x).unwrap().1,
            A + 2.0 * B * x - f64::EPSILON - PI / (x * x),
        );
        // The primal reading is the plain function.
        assert_eq!(two_pi_x::frule::<f64>(x), 2.0 * PI * x);
    }
}
