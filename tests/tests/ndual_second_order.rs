//! Forward over forward: `NDual<NDual<f64, 1>, 1>`, inner and outer seeded with the same
//! direction, carries the second directional derivative in its inner-of-outer partial.
//! Every scalar function of the `Real` surface is checked against closed-form first and
//! second derivatives written here (not taken from the rules), at random points inside
//! its domain along random directions; then `Reading::compose` at orders 1, 2 and 3 and
//! a full Hessian at width 2.

use lifted::{NDual, Reading, Real};
use proptest::prelude::*;

/// The second-order reading.
type D2 = NDual<NDual<f64, 1>, 1>;

/// Up to three arguments: the gradient and the Hessian of a case at a point.
type Grad = [f64; 3];
type Hess = [[f64; 3]; 3];

use lifted_tests::points::{away, lin, pm};

/// `x` seeded in direction `d` in both the inner and the outer dual.
fn seed(x: f64, d: f64) -> D2 {
    D2::new(NDual::new(x, [d]), [NDual::new(d, [0.0])])
}

struct Case {
    name: &'static str,
    domain: fn([f64; 3]) -> [f64; 3],
    primal: fn([f64; 3]) -> f64,
    ad: fn([D2; 3]) -> D2,
    /// Gradient and Hessian at the point, in closed form.
    exact: fn([f64; 3]) -> (Grad, Hess),
}

/// A one-argument case from its first and second derivative.
fn d12(d1: f64, d2: f64) -> (Grad, Hess) {
    let z = [0.0; 3];
    ([d1, 0.0, 0.0], [[d2, 0.0, 0.0], z, z])
}

/// A two-argument case from its gradient and its Hessian.
fn g2(g: [f64; 2], h: [[f64; 2]; 2]) -> (Grad, Hess) {
    (
        [g[0], g[1], 0.0],
        [[h[0][0], h[0][1], 0.0], [h[1][0], h[1][1], 0.0], [0.0; 3]],
    )
}

/// Declares cases: the expression is expanded at `f64` (the primal) and at `D2`; the
/// closed form sees the arguments as `f64`.
macro_rules! cases {
    ($($name:literal [$($arg:ident),+] in $dom:expr => $f:expr ; $exact:expr),* $(,)?) => {
        vec![$(
            Case {
                name: $name,
                domain: $dom,
                primal: |a: [f64; 3]| {
                    let [$($arg,)+ ..] = a;
                    $f
                },
                ad: |a: [D2; 3]| {
                    let [$($arg,)+ ..] = a;
                    $f
                },
                exact: |a: [f64; 3]| {
                    // Constant derivatives do not read their arguments.
                    #[allow(unused_variables)]
                    let [$($arg,)+ ..] = a;
                    $exact
                },
            },
        )*]
    };
}

fn one(u: [f64; 3], lo: f64, hi: f64) -> [f64; 3] {
    [lin(u[0], lo, hi), 0.0, 0.0]
}

fn cases() -> Vec<Case> {
    use core::f64::consts::{LN_2, LN_10, PI};
    cases![
        "sin" [x] in |u| one(u, -4.0, 4.0) => x.sin(); d12(x.cos(), -x.sin()),
        "cos" [x] in |u| one(u, -4.0, 4.0) => x.cos(); d12(-x.sin(), -x.cos()),
        "tan" [x] in |u| one(u, -1.3, 1.3) => x.tan(); {
            let c = x.cos();
            // sec² x and 2 sec² x tan x.
            d12(1.0 / (c * c), 2.0 * x.sin() / (c * c * c))
        },
        "asin" [x] in |u| one(u, -0.9, 0.9) => x.asin(); {
            let s = 1.0 - x * x;
            d12(1.0 / s.sqrt(), x / (s * s.sqrt()))
        },
        "acos" [x] in |u| one(u, -0.9, 0.9) => x.acos(); {
            let s = 1.0 - x * x;
            d12(-1.0 / s.sqrt(), -x / (s * s.sqrt()))
        },
        "atan" [x] in |u| one(u, -4.0, 4.0) => x.atan(); {
            let s = 1.0 + x * x;
            d12(1.0 / s, -2.0 * x / (s * s))
        },
        "sinh" [x] in |u| one(u, -3.0, 3.0) => x.sinh(); d12(x.cosh(), x.sinh()),
        "cosh" [x] in |u| one(u, -3.0, 3.0) => x.cosh(); d12(x.sinh(), x.cosh()),
        "tanh" [x] in |u| one(u, -3.0, 3.0) => x.tanh(); {
            let c = x.cosh();
            // sech² x and -2 sech² x tanh x.
            d12(1.0 / (c * c), -2.0 * x.sinh() / (c * c * c))
        },
        "asinh" [x] in |u| one(u, -4.0, 4.0) => x.asinh(); {
            let s = x * x + 1.0;
            d12(1.0 / s.sqrt(), -x / (s * s.sqrt()))
        },
        "acosh" [x] in |u| one(u, 1.2, 5.0) => x.acosh(); {
            let s = x * x - 1.0;
            d12(1.0 / s.sqrt(), -x / (s * s.sqrt()))
        },
        "atanh" [x] in |u| one(u, -0.9, 0.9) => x.atanh(); {
            let s = 1.0 - x * x;
            d12(1.0 / s, 2.0 * x / (s * s))
        },
        "exp" [x] in |u| one(u, -3.0, 3.0) => x.exp(); d12(x.exp(), x.exp()),
        "exp2" [x] in |u| one(u, -3.0, 3.0) => x.exp2();
            d12(LN_2 * 2f64.powf(x), LN_2 * LN_2 * 2f64.powf(x)),
        "exp_m1" [x] in |u| one(u, -3.0, 3.0) => x.exp_m1(); d12(x.exp(), x.exp()),
        "ln" [x] in |u| one(u, 0.2, 5.0) => x.ln(); d12(1.0 / x, -1.0 / (x * x)),
        "log2" [x] in |u| one(u, 0.2, 5.0) => x.log2();
            d12(1.0 / (x * LN_2), -1.0 / (x * x * LN_2)),
        "log10" [x] in |u| one(u, 0.2, 5.0) => x.log10();
            d12(1.0 / (x * LN_10), -1.0 / (x * x * LN_10)),
        "ln_1p" [x] in |u| one(u, -0.7, 5.0) => x.ln_1p();
            d12(1.0 / (1.0 + x), -1.0 / ((1.0 + x) * (1.0 + x))),
        "sqrt" [x] in |u| one(u, 0.2, 5.0) => x.sqrt();
            d12(0.5 / x.sqrt(), -0.25 / (x * x.sqrt())),
        "cbrt" [x] in |u| [pm(u[0], 0.2, 5.0), 0.0, 0.0] => x.cbrt(); {
            // x^(-2/3) / 3 and -2 x^(-5/3) / 9, with x^(1/3) real for negative x.
            let c = x.cbrt();
            d12(1.0 / (3.0 * c * c), -2.0 / (9.0 * c.powi(5)))
        },
        "abs" [x] in |u| [pm(u[0], 0.1, 3.0), 0.0, 0.0] => x.abs();
            d12(if x < 0.0 { -1.0 } else { 1.0 }, 0.0),
        "signum" [x] in |u| [pm(u[0], 0.1, 3.0), 0.0, 0.0] => x.signum(); d12(0.0, 0.0),
        "recip" [x] in |u| [pm(u[0], 0.2, 5.0), 0.0, 0.0] => x.recip();
            d12(-1.0 / (x * x), 2.0 / (x * x * x)),
        "to_degrees" [x] in |u| one(u, -4.0, 4.0) => x.to_degrees(); d12(180.0 / PI, 0.0),
        "to_radians" [x] in |u| one(u, -200.0, 200.0) => x.to_radians(); d12(PI / 180.0, 0.0),
        "floor" [x] in |u| [away(u[0], -3.0, 3.0), 0.0, 0.0] => x.floor(); d12(0.0, 0.0),
        "ceil" [x] in |u| [away(u[0], -3.0, 3.0), 0.0, 0.0] => x.ceil(); d12(0.0, 0.0),
        "round" [x] in |u| [away(u[0], -3.0, 3.0), 0.0, 0.0] => x.round(); d12(0.0, 0.0),
        "trunc" [x] in |u| [away(u[0], -3.0, 3.0), 0.0, 0.0] => x.trunc(); d12(0.0, 0.0),
        "fract" [x] in |u| [away(u[0], -3.0, 3.0), 0.0, 0.0] => x.fract(); d12(1.0, 0.0),
        "sin_cos.0" [x] in |u| one(u, -4.0, 4.0) => x.sin_cos().0; d12(x.cos(), -x.sin()),
        "sin_cos.1" [x] in |u| one(u, -4.0, 4.0) => x.sin_cos().1; d12(-x.sin(), -x.cos()),
        "powi(-3)" [x] in |u| [pm(u[0], 0.3, 2.5), 0.0, 0.0] => x.powi(-3);
            d12(-3.0 / x.powi(4), 12.0 / x.powi(5)),
        "powi(-1)" [x] in |u| [pm(u[0], 0.3, 2.5), 0.0, 0.0] => x.powi(-1);
            d12(-1.0 / (x * x), 2.0 / (x * x * x)),
        "powi(0)" [x] in |u| [pm(u[0], 0.3, 2.5), 0.0, 0.0] => x.powi(0); d12(0.0, 0.0),
        "powi(1)" [x] in |u| [pm(u[0], 0.3, 2.5), 0.0, 0.0] => x.powi(1); d12(1.0, 0.0),
        "powi(2)" [x] in |u| [pm(u[0], 0.3, 2.5), 0.0, 0.0] => x.powi(2); d12(2.0 * x, 2.0),
        "powi(5)" [x] in |u| [pm(u[0], 0.3, 2.5), 0.0, 0.0] => x.powi(5);
            d12(5.0 * x * x * x * x, 20.0 * x * x * x),
        "atan2" [y, x] in |u| [pm(u[0], 0.2, 3.0), lin(u[1], -3.0, 3.0), 0.0] => y.atan2(x); {
            let r2 = x * x + y * y;
            let r4 = r2 * r2;
            let m = (y * y - x * x) / r4;
            g2([x / r2, -y / r2], [[-2.0 * x * y / r4, m], [m, 2.0 * x * y / r4]])
        },
        "log" [x, b] in |u| [
            lin(u[0], 0.2, 5.0),
            if u[1] < 0.5 { lin(2.0 * u[1], 0.2, 0.7) } else { lin(2.0 * u[1] - 1.0, 1.5, 5.0) },
            0.0,
        ] => x.log(b); {
            // ln x / ln b.
            let (l, lb) = (x.ln(), b.ln());
            let m = -1.0 / (x * b * lb * lb);
            g2(
                [1.0 / (x * lb), -l / (b * lb * lb)],
                [[-1.0 / (x * x * lb), m], [m, l * (lb + 2.0) / (b * b * lb * lb * lb)]],
            )
        },
        "powf" [x, y] in |u| [lin(u[0], 0.2, 3.0), lin(u[1], -3.0, 3.0), 0.0] => x.powf(y); {
            let (v, l) = (x.powf(y), x.ln());
            let m = x.powf(y - 1.0) * (1.0 + y * l);
            g2(
                [y * x.powf(y - 1.0), v * l],
                [[y * (y - 1.0) * x.powf(y - 2.0), m], [m, v * l * l]],
            )
        },
        "hypot" [x, y] in |u| [pm(u[0], 0.2, 3.0), lin(u[1], -3.0, 3.0), 0.0] => x.hypot(y); {
            let r = (x * x + y * y).sqrt();
            let r3 = r * r * r;
            let m = -x * y / r3;
            g2([x / r, y / r], [[y * y / r3, m], [m, x * x / r3]])
        },
        "copysign" [x, s] in |u| [pm(u[0], 0.1, 3.0), pm(u[1], 0.1, 3.0), 0.0] => x.copysign(s);
            g2([if (x < 0.0) == (s < 0.0) { 1.0 } else { -1.0 }, 0.0], [[0.0; 2]; 2]),
        "min" [x, y] in |u| { let a = lin(u[0], -3.0, 3.0); [a, a + pm(u[1], 0.1, 2.0), 0.0] }
            => x.min(y); g2(if x < y { [1.0, 0.0] } else { [0.0, 1.0] }, [[0.0; 2]; 2]),
        "max" [x, y] in |u| { let a = lin(u[0], -3.0, 3.0); [a, a + pm(u[1], 0.1, 2.0), 0.0] }
            => x.max(y); g2(if x > y { [1.0, 0.0] } else { [0.0, 1.0] }, [[0.0; 2]; 2]),
        "clamp" [x, lo, hi] in |u| {
            let lo = lin(u[0], -3.0, 0.0);
            let hi = lo + lin(u[1], 0.5, 3.0);
            let v = (3.0 * u[2]).fract();
            let x = if u[2] < 1.0 / 3.0 {
                lo - lin(v, 0.1, 2.0)
            } else if u[2] < 2.0 / 3.0 {
                lin(v, lo + 0.1, hi - 0.1)
            } else {
                hi + lin(v, 0.1, 2.0)
            };
            [x, lo, hi]
        } => x.clamp(lo, hi); {
            let g = if x < lo { [0.0, 1.0, 0.0] } else if x > hi { [0.0, 0.0, 1.0] } else { [1.0, 0.0, 0.0] };
            (g, [[0.0; 3]; 3])
        },
        "mul_add" [x, a, b] in |u| [lin(u[0], -3.0, 3.0), lin(u[1], -3.0, 3.0), lin(u[2], -3.0, 3.0)]
            => x.mul_add(a, b);
            ([a, x, 1.0], [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0; 3]]),
        "rem_euclid" [x, y] in |u| { let b = pm(u[1], 1.0, 3.0); [b * away(u[0], -3.0, 3.0), b, 0.0] }
            => x.rem_euclid(y); g2([1.0, -x.div_euclid(y)], [[0.0; 2]; 2]),
        "div_euclid" [x, y] in |u| { let b = pm(u[1], 1.0, 3.0); [b * away(u[0], -3.0, 3.0), b, 0.0] }
            => x.div_euclid(y); g2([0.0; 2], [[0.0; 2]; 2]),
        "x * y" [x, y] in |u| [lin(u[0], -3.0, 3.0), lin(u[1], -3.0, 3.0), 0.0] => x * y;
            g2([y, x], [[0.0, 1.0], [1.0, 0.0]]),
        "x / y" [x, y] in |u| [lin(u[0], -3.0, 3.0), pm(u[1], 0.3, 3.0), 0.0] => x / y; {
            let m = -1.0 / (y * y);
            g2([1.0 / y, -x / (y * y)], [[0.0, m], [m, 2.0 * x / (y * y * y)]])
        },
        "x % y" [x, y] in |u| { let b = pm(u[1], 1.0, 3.0); [b * away(u[0], -3.0, 3.0), b, 0.0] }
            => x % y; g2([1.0, -(x / y).trunc()], [[0.0; 2]; 2]),
        "x + y - x y" [x, y] in |u| [lin(u[0], -3.0, 3.0), lin(u[1], -3.0, 3.0), 0.0]
            => x + y - x * y; g2([1.0 - y, 1.0 - x], [[0.0, -1.0], [-1.0, 0.0]]),
        "-x" [x] in |u| one(u, -3.0, 3.0) => -x; d12(-1.0, 0.0),
        "x * c" [x] in |u| one(u, -3.0, 3.0) => x * 2.5; d12(2.5, 0.0),
        "c - x" [x] in |u| one(u, -3.0, 3.0) => 2.5 - x; d12(-1.0, 0.0),
        "c / x" [x] in |u| [pm(u[0], 0.3, 3.0), 0.0, 0.0] => 2.5 / x;
            d12(-2.5 / (x * x), 5.0 / (x * x * x)),
        "c % x" [x] in |u| { let q = away(u[0], 1.1, 4.0); [if u[1] < 0.5 { -4.3 / q } else { 4.3 / q }, 0.0, 0.0] }
            => 4.3 % x; d12(-(4.3 / x).trunc(), 0.0),
        "x sin x eˣ" [x] in |u| one(u, -2.0, 2.0) => x * x.sin() * x.exp(); {
            let (s, c, e) = (x.sin(), x.cos(), x.exp());
            // (x s e)' = e (s + x c + x s); (x s e)'' = e (2 s + 2 c + 2 x c).
            d12(e * (s + x * c + x * s), e * (2.0 * s + 2.0 * c + 2.0 * x * c))
        },
    ]
}

fn close(actual: f64, expected: f64, tol: f64) -> bool {
    (actual - expected).abs() <= tol * (1.0 + expected.abs())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 512,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Every case: value bitwise the primal; both first-derivative slots equal the
    /// directional derivative; the inner-of-outer partial the second.
    #[test]
    fn second_derivatives(
        u in prop::array::uniform3(0.0f64..1.0),
        d in prop::array::uniform3(-1.5f64..1.5),
    ) {
        for case in &cases() {
            let name = case.name;
            let x = (case.domain)(u);
            let y = (case.ad)(core::array::from_fn(|i| seed(x[i], d[i])));
            let (g, h) = (case.exact)(x);
            let d1: f64 = (0..3).map(|i| g[i] * d[i]).sum();
            let d2: f64 = (0..3)
                .flat_map(|i| (0..3).map(move |j| (i, j)))
                .map(|(i, j)| h[i][j] * d[i] * d[j])
                .sum();
            // The scale of the terms summed, so cancellation does not make the check
            // stricter than the arithmetic.
            let s1: f64 = (0..3).map(|i| (g[i] * d[i]).abs()).sum();
            let s2: f64 = (0..3)
                .flat_map(|i| (0..3).map(move |j| (i, j)))
                .map(|(i, j)| (h[i][j] * d[i] * d[j]).abs())
                .sum();
            let p = (case.primal)(x);
            prop_assert!(
                y.value().value().to_bits() == p.to_bits(),
                "{name} at {x:?}: value {} differs from the primal {p}",
                y.value().value()
            );
            let (inner, outer, second) = (y.value().partial(0), y.partial(0).value(), y.partial(0).partial(0));
            prop_assert!(
                (inner - d1).abs() <= 1e-12 * (1.0 + s1),
                "{name} at {x:?} along {d:?}: first derivative {inner}, exact {d1}"
            );
            prop_assert!(
                (outer - d1).abs() <= 1e-12 * (1.0 + s1),
                "{name} at {x:?} along {d:?}: outer first derivative {outer}, exact {d1}"
            );
            prop_assert!(
                (second - d2).abs() <= 1e-11 * (1.0 + s2),
                "{name} at {x:?} along {d:?}: second derivative {second}, exact {d2}"
            );
        }
    }

    /// `compose` with a derivative list at order 1 and 2 is the chain rule, and equals
    /// the built-in rule given the same list.
    #[test]
    fn compose_orders_one_and_two(
        a in -3.0f64..3.0,
        d in -1.5f64..1.5,
        t in prop::array::uniform3(-1.0f64..1.0),
    ) {
        let (s, c) = a.sin_cos();
        let derivs = [s, c, -s, -c];

        // Order 1, width 3.
        let x = NDual::<f64, 3>::new(a, t);
        let y = x.compose(&derivs[..2]);
        prop_assert_eq!(y.value(), s);
        for (k, tk) in t.iter().enumerate() {
            prop_assert_eq!(y.partial(k), tk * c);
        }
        // Longer lists are fine: the extra entries are not read.
        let y4 = x.compose(&derivs);
        prop_assert_eq!(y4.partials(), y.partials());
        let rule = x.sin();
        for k in 0..3 {
            prop_assert!(close(rule.partial(k), y.partial(k), 1e-15));
        }

        // Order 2.
        let x2 = seed(a, d);
        let y2 = x2.compose(&derivs[..3]);
        prop_assert_eq!(y2.value().value(), s);
        prop_assert!(close(y2.value().partial(0), c * d, 1e-15));
        prop_assert!(close(y2.partial(0).value(), c * d, 1e-15));
        prop_assert!(close(y2.partial(0).partial(0), -s * d * d, 1e-15));
        let rule2 = x2.sin();
        prop_assert!(close(rule2.partial(0).partial(0), y2.partial(0).partial(0), 1e-14));

        // A list one short: the derivative it lacks reads as NaN, the others are kept.
        let short = x2.compose(&derivs[..2]);
        prop_assert!(short.partial(0).partial(0).is_nan());
        prop_assert!(close(short.partial(0).value(), c * d, 1e-15));
    }

    /// Order 3: a triple nesting reads the third derivative from `compose`, and from
    /// the rules.
    #[test]
    fn compose_order_three(a in 0.2f64..3.0) {
        type D3 = NDual<D2, 1>;
        let x = D3::new(seed(a, 1.0), [NDual::new(NDual::new(1.0, [0.0]), [NDual::new(0.0, [0.0])])]);
        prop_assert_eq!(D3::ORDER, 3);
        // ln: 1/x, -1/x², 2/x³.
        let derivs = [a.ln(), 1.0 / a, -1.0 / (a * a), 2.0 / (a * a * a)];
        let y = x.compose(&derivs);
        let z = x.ln();
        let third = |v: D3| v.partial(0).partial(0).partial(0);
        prop_assert!(close(third(y), derivs[3], 1e-14));
        prop_assert!(close(third(z), derivs[3], 1e-13));
        prop_assert!(close(y.partial(0).partial(0).value(), derivs[2], 1e-14));
    }

    /// A full Hessian at width 2: `NDual<NDual<f64, 2>, 2>` with input i seeded in lane i
    /// of both levels.
    #[test]
    fn hessian_at_width_two(a in -2.0f64..2.0, b in -2.0f64..2.0) {
        type H = NDual<NDual<f64, 2>, 2>;
        let x = H::new(NDual::variable(a, 0), [NDual::constant(1.0), NDual::constant(0.0)]);
        let y = H::new(NDual::variable(b, 1), [NDual::constant(0.0), NDual::constant(1.0)]);
        // f = x² y + sin(x y).
        let f = x * x * y + (x * y).sin();
        let (s, c) = (a * b).sin_cos();
        let grad = [2.0 * a * b + b * c, a * a + a * c];
        let hess = [
            [2.0 * b - b * b * s, 2.0 * a + c - a * b * s],
            [2.0 * a + c - a * b * s, -a * a * s],
        ];
        for i in 0..2 {
            prop_assert!(close(f.value().partial(i), grad[i], 1e-13));
            prop_assert!(close(f.partial(i).value(), grad[i], 1e-13));
            for (j, &h) in hess[i].iter().enumerate() {
                prop_assert!(
                    close(f.partial(i).partial(j), h, 1e-12),
                    "H[{i}][{j}] = {}, exact {h}",
                    f.partial(i).partial(j),
                );
            }
        }
    }
}

#[test]
fn orders_and_missing_derivatives() {
    assert_eq!(<f64 as Real>::ORDER, 0);
    assert_eq!(<NDual<f64, 4> as Real>::ORDER, 1);
    assert_eq!(<D2 as Real>::ORDER, 2);
    assert!(<f64 as Reading<f64>>::compose(1.0, &[]).is_nan());
    assert_eq!(<f64 as Reading<f64>>::compose(1.0, &[2.5, 9.0]), 2.5);
    let y = NDual::<f64, 2>::new(1.0, [1.0, 0.0]).compose(&[4.0]);
    assert_eq!(y.value(), 4.0);
    assert!(y.partial(0).is_nan());
}
