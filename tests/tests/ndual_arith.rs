//! `NDual` arithmetic and its float method surface, for `f64` and `f32`.
//!
//! Every operator and every method of `Real` is checked, lane by lane at width 3 with
//! random tangents, three ways: the value against the primal function (bitwise), the
//! partials against `num-dual` (an independent implementation) and against central
//! finite differences of the primal function (five-point stencil, steps and tolerances
//! scaled to the float type). The operators are also checked against their closed
//! forms, compound assignment and borrowed operands against the owned binary operators
//! (bitwise), comparisons against the values alone, and the `num-traits` impls.

use lifted::NDual;

/// Width of the duals under test.
const L: usize = 3;

use lifted_tests::points::{away, lin, pm};

/// Three uniforms mapped to the arguments of a case.
type Domain = fn([f64; 3]) -> [f64; 3];

/// Declares the cases once; each suite expands them at its own float type `F`, dual
/// type `D` and `num-dual` oracle type `O`. `primal` and `ad` share the expression.
macro_rules! cases {
    ($($name:literal [$($arg:ident),+] in $dom:expr => $ad:expr ; $nd:expr),* $(,)?) => {
        vec![$(
            Case {
                name: $name,
                domain: $dom,
                primal: |a: [F; 3]| {
                    let [$($arg,)+ ..] = a;
                    $ad
                },
                ad: |a: [D; 3]| {
                    let [$($arg,)+ ..] = a;
                    $ad
                },
                oracle: |a: [O; 3]| {
                    let [$($arg,)+ ..] = a;
                    $nd
                },
            },
        )*]
    };
}

/// The operators, with constants on either side.
macro_rules! arithmetic_cases {
    () => {
        cases![
            "x + y" [x, y] in |u| [lin(u[0], -5.0, 5.0), lin(u[1], -5.0, 5.0), 0.0]
                => x + y; x + y,
            "x - y" [x, y] in |u| [lin(u[0], -5.0, 5.0), lin(u[1], -5.0, 5.0), 0.0]
                => x - y; x - y,
            "x * y" [x, y] in |u| [lin(u[0], -5.0, 5.0), lin(u[1], -5.0, 5.0), 0.0]
                => x * y; x * y,
            "x / y" [x, y] in |u| [lin(u[0], -5.0, 5.0), pm(u[1], 0.3, 5.0), 0.0]
                => x / y; x / y,
            "x % y" [x, y] in |u| { let b = pm(u[1], 1.0, 3.0); [b * away(u[0], -3.0, 3.0), b, 0.0] }
                => x % y; x - y * (x.re / y.re).trunc(),
            "-x" [x] in |u| [lin(u[0], -5.0, 5.0), 0.0, 0.0]
                => -x; -x,
            "x + c" [x] in |u| [lin(u[0], -5.0, 5.0), 0.0, 0.0]
                => x + 1.75; x + O::from_re(1.75),
            "x - c" [x] in |u| [lin(u[0], -5.0, 5.0), 0.0, 0.0]
                => x - 1.75; x - O::from_re(1.75),
            "x * c" [x] in |u| [lin(u[0], -5.0, 5.0), 0.0, 0.0]
                => x * -2.5; x * O::from_re(-2.5),
            "x / c" [x] in |u| [lin(u[0], -5.0, 5.0), 0.0, 0.0]
                => x / -2.5; x / O::from_re(-2.5),
            "x % c" [x] in |u| [1.25 * away(u[0], -4.0, 4.0), 0.0, 0.0]
                => x % 1.25; x - O::from_re(1.25 * (x.re / 1.25).trunc()),
            "c + x" [x] in |u| [lin(u[0], -5.0, 5.0), 0.0, 0.0]
                => (1.75 as F) + x; O::from_re(1.75) + x,
            "c - x" [x] in |u| [lin(u[0], -5.0, 5.0), 0.0, 0.0]
                => (1.75 as F) - x; O::from_re(1.75) - x,
            "c * x" [x] in |u| [lin(u[0], -5.0, 5.0), 0.0, 0.0]
                => (-2.5 as F) * x; O::from_re(-2.5) * x,
            "c / x" [x] in |u| [pm(u[0], 0.3, 5.0), 0.0, 0.0]
                => (-2.5 as F) / x; O::from_re(-2.5) / x,
            "c % x" [x] in |u| {
                let q = away(u[0], 1.1, 4.0);
                [if u[1] < 0.5 { -4.3 / q } else { 4.3 / q }, 0.0, 0.0]
            }
                => (4.3 as F) % x; O::from_re(4.3) - x * (4.3 / x.re).trunc(),
            "compound" [x, y, z] in |u| [lin(u[0], -3.0, 3.0), pm(u[1], 0.5, 3.0), lin(u[2], -3.0, 3.0)]
                => {
                    let mut s = x;
                    s *= y;
                    s += z;
                    s -= x;
                    s /= y;
                    s *= 0.5;
                    s += 1.0;
                    s -= 2.0;
                    s /= 1.5;
                    s
                };
                (((x * y + z - x) / y) * O::from_re(0.5) + O::from_re(1.0) - O::from_re(2.0))
                    / O::from_re(1.5),
        ]
    };
}

/// Every method of `Real`, each at random points inside its domain (away from kinks
/// and branch cuts by more than the finite-difference stencil reaches).
macro_rules! method_cases {
    () => {
        cases![
            "sin" [x] in |u| [lin(u[0], -4.0, 4.0), 0.0, 0.0] => x.sin(); x.sin(),
            "cos" [x] in |u| [lin(u[0], -4.0, 4.0), 0.0, 0.0] => x.cos(); x.cos(),
            "tan" [x] in |u| [lin(u[0], -1.3, 1.3), 0.0, 0.0] => x.tan(); x.tan(),
            "asin" [x] in |u| [lin(u[0], -0.85, 0.85), 0.0, 0.0] => x.asin(); x.asin(),
            "acos" [x] in |u| [lin(u[0], -0.85, 0.85), 0.0, 0.0] => x.acos(); x.acos(),
            "atan" [x] in |u| [lin(u[0], -4.0, 4.0), 0.0, 0.0] => x.atan(); x.atan(),
            "sinh" [x] in |u| [lin(u[0], -3.0, 3.0), 0.0, 0.0] => x.sinh(); x.sinh(),
            "cosh" [x] in |u| [lin(u[0], -3.0, 3.0), 0.0, 0.0] => x.cosh(); x.cosh(),
            "tanh" [x] in |u| [lin(u[0], -3.0, 3.0), 0.0, 0.0] => x.tanh(); x.tanh(),
            "asinh" [x] in |u| [lin(u[0], -4.0, 4.0), 0.0, 0.0] => x.asinh(); x.asinh(),
            "acosh" [x] in |u| [lin(u[0], 1.2, 5.0), 0.0, 0.0] => x.acosh(); x.acosh(),
            "atanh" [x] in |u| [lin(u[0], -0.85, 0.85), 0.0, 0.0] => x.atanh(); x.atanh(),
            "exp" [x] in |u| [lin(u[0], -3.0, 3.0), 0.0, 0.0] => x.exp(); x.exp(),
            "exp2" [x] in |u| [lin(u[0], -3.0, 3.0), 0.0, 0.0] => x.exp2(); x.exp2(),
            "exp_m1" [x] in |u| [lin(u[0], -3.0, 3.0), 0.0, 0.0] => x.exp_m1(); x.exp_m1(),
            "ln" [x] in |u| [lin(u[0], 0.2, 5.0), 0.0, 0.0] => x.ln(); x.ln(),
            "log2" [x] in |u| [lin(u[0], 0.2, 5.0), 0.0, 0.0] => x.log2(); x.log2(),
            "log10" [x] in |u| [lin(u[0], 0.2, 5.0), 0.0, 0.0] => x.log10(); x.log10(),
            "ln_1p" [x] in |u| [lin(u[0], -0.7, 5.0), 0.0, 0.0] => x.ln_1p(); x.ln_1p(),
            "sqrt" [x] in |u| [lin(u[0], 0.2, 5.0), 0.0, 0.0] => x.sqrt(); x.sqrt(),
            "cbrt" [x] in |u| [pm(u[0], 0.2, 5.0), 0.0, 0.0] => x.cbrt(); x.cbrt(),
            "abs" [x] in |u| [pm(u[0], 0.1, 3.0), 0.0, 0.0]
                => x.abs(); num_traits::Signed::abs(&x),
            "signum" [x] in |u| [pm(u[0], 0.1, 3.0), 0.0, 0.0]
                => x.signum(); O::from_re(x.re.signum()),
            "recip" [x] in |u| [pm(u[0], 0.2, 5.0), 0.0, 0.0] => x.recip(); x.recip(),
            "to_degrees" [x] in |u| [lin(u[0], -4.0, 4.0), 0.0, 0.0]
                => x.to_degrees(); x * ((180.0 / core::f64::consts::PI) as F),
            "to_radians" [x] in |u| [lin(u[0], -200.0, 200.0), 0.0, 0.0]
                => x.to_radians(); x * ((core::f64::consts::PI / 180.0) as F),
            "floor" [x] in |u| [away(u[0], -3.0, 3.0), 0.0, 0.0]
                => x.floor(); O::from_re(x.re.floor()),
            "ceil" [x] in |u| [away(u[0], -3.0, 3.0), 0.0, 0.0]
                => x.ceil(); O::from_re(x.re.ceil()),
            "round" [x] in |u| [away(u[0], -3.0, 3.0), 0.0, 0.0]
                => x.round(); O::from_re(x.re.round()),
            "trunc" [x] in |u| [away(u[0], -3.0, 3.0), 0.0, 0.0]
                => x.trunc(); O::from_re(x.re.trunc()),
            "fract" [x] in |u| [away(u[0], -3.0, 3.0), 0.0, 0.0]
                => x.fract(); x - O::from_re(x.re.trunc()),
            "sin_cos.0" [x] in |u| [lin(u[0], -4.0, 4.0), 0.0, 0.0]
                => x.sin_cos().0; x.sin_cos().0,
            "sin_cos.1" [x] in |u| [lin(u[0], -4.0, 4.0), 0.0, 0.0]
                => x.sin_cos().1; x.sin_cos().1,
            "atan2" [y, x] in |u| [pm(u[0], 0.2, 3.0), lin(u[1], -3.0, 3.0), 0.0]
                => y.atan2(x); y.atan2(x),
            "log" [x, b] in |u| [
                lin(u[0], 0.2, 5.0),
                if u[1] < 0.5 { lin(2.0 * u[1], 0.2, 0.7) } else { lin(2.0 * u[1] - 1.0, 1.5, 5.0) },
                0.0,
            ] => x.log(b); x.ln() / b.ln(),
            "powi(-3)" [x] in |u| [pm(u[0], 0.3, 2.5), 0.0, 0.0] => x.powi(-3); x.powi(-3),
            "powi(-1)" [x] in |u| [pm(u[0], 0.3, 2.5), 0.0, 0.0] => x.powi(-1); x.powi(-1),
            "powi(0)" [x] in |u| [pm(u[0], 0.3, 2.5), 0.0, 0.0] => x.powi(0); x.powi(0),
            "powi(1)" [x] in |u| [pm(u[0], 0.3, 2.5), 0.0, 0.0] => x.powi(1); x.powi(1),
            "powi(2)" [x] in |u| [pm(u[0], 0.3, 2.5), 0.0, 0.0] => x.powi(2); x.powi(2),
            "powi(5)" [x] in |u| [pm(u[0], 0.3, 2.5), 0.0, 0.0] => x.powi(5); x.powi(5),
            "powf" [x, y] in |u| [lin(u[0], 0.2, 3.0), lin(u[1], -3.0, 3.0), 0.0]
                => x.powf(y); x.powd(y),
            "hypot" [x, y] in |u| [pm(u[0], 0.2, 3.0), lin(u[1], -3.0, 3.0), 0.0]
                => x.hypot(y); (x * x + y * y).sqrt(),
            "copysign" [x, y] in |u| [pm(u[0], 0.1, 3.0), pm(u[1], 0.1, 3.0), 0.0]
                => x.copysign(y); if (x.re < 0.0) != (y.re < 0.0) { -x } else { x },
            "min" [x, y] in |u| {
                let a = lin(u[0], -3.0, 3.0);
                [a, a + pm(u[1], 0.1, 2.0), 0.0]
            } => x.min(y); if y.re < x.re { y } else { x },
            "max" [x, y] in |u| {
                let a = lin(u[0], -3.0, 3.0);
                [a, a + pm(u[1], 0.1, 2.0), 0.0]
            } => x.max(y); if y.re > x.re { y } else { x },
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
            } => x.clamp(lo, hi);
                if x.re < lo.re { lo } else if x.re > hi.re { hi } else { x },
            "mul_add" [x, a, b] in |u| [lin(u[0], -3.0, 3.0), lin(u[1], -3.0, 3.0), lin(u[2], -3.0, 3.0)]
                => x.mul_add(a, b); x * a + b,
            "rem_euclid" [x, y] in |u| { let b = pm(u[1], 1.0, 3.0); [b * away(u[0], -3.0, 3.0), b, 0.0] }
                => x.rem_euclid(y); x - y * x.re.div_euclid(y.re),
            "div_euclid" [x, y] in |u| { let b = pm(u[1], 1.0, 3.0); [b * away(u[0], -3.0, 3.0), b, 0.0] }
                => x.div_euclid(y); O::from_re(x.re.div_euclid(y.re)),
        ]
    };
}

/// One suite per float type: `$F` the field, `$O` the `num-dual` oracle, `$V` the
/// `num-dual` vector dual of width 2, then the finite-difference steps, the
/// finite-difference tolerance, the closed-form tolerance and the oracle tolerance
/// (all relative).
macro_rules! suite {
    ($m:ident, $F:ty, $O:ty, $V:ty, steps = $steps:expr, fd_tol = $fd_tol:expr,
     tol = $tol:expr, oracle_tol = $oracle_tol:expr) => {
        mod $m {
            use lifted::{NDual, Real};
            use num_dual::DualNum;
            use proptest::prelude::*;

            use super::{L, away, lin, pm};

            type F = $F;
            type D = NDual<F, L>;
            type O = $O;
            type V = $V;

            const FD_STEPS: &[F] = &$steps;
            const FD_TOL: f64 = $fd_tol;
            const TOL: f64 = $tol;
            const ORACLE_TOL: f64 = $oracle_tol;

            struct Case {
                name: &'static str,
                domain: super::Domain,
                primal: fn([F; 3]) -> F,
                ad: fn([D; 3]) -> D,
                oracle: fn([O; 3]) -> O,
            }

            fn arithmetic_cases() -> Vec<Case> {
                arithmetic_cases!()
            }

            fn method_cases() -> Vec<Case> {
                method_cases!()
            }

            fn w(x: F) -> f64 {
                f64::from(x)
            }

            /// Five-point central difference of lane `t` at step `h`, in `f64`.
            fn fd(case: &Case, x: [F; 3], t: [F; 3], h: F) -> f64 {
                let at = |j: F| w((case.primal)(core::array::from_fn(|i| x[i] + j * h * t[i])));
                (at(-2.0) - 8.0 * at(-1.0) + 8.0 * at(1.0) - at(2.0)) / (12.0 * w(h))
            }

            /// Runs one case at the point `u` maps to, with tangents `t[arg][lane]`.
            fn check(case: &Case, u: [f64; 3], t: [[f64; L]; 3]) -> Result<(), TestCaseError> {
                let x: [F; 3] = (case.domain)(u).map(|v| v as F);
                let t: [[F; L]; 3] = t.map(|lanes| lanes.map(|v| v as F));
                let name = case.name;
                let duals: [D; 3] = core::array::from_fn(|i| D::new(x[i], t[i]));
                let y = (case.ad)(duals);
                let p = (case.primal)(x);
                prop_assert!(
                    y.value().to_bits() == p.to_bits(),
                    "{name} at {x:?}: value {} differs from the primal {p}",
                    y.value()
                );
                for k in 0..L {
                    let tk: [F; 3] = core::array::from_fn(|i| t[i][k]);
                    let ad = w(y.partial(k));
                    prop_assert!(ad.is_finite(), "{name} at {x:?}: partial {k} is {ad}");

                    let o = (case.oracle)(core::array::from_fn(|i| O::new(x[i], tk[i])));
                    let err = (ad - w(o.eps)).abs();
                    prop_assert!(
                        err <= ORACLE_TOL * (1.0 + w(o.eps).abs()),
                        "{name} at {x:?}, lane {k}, tangents {tk:?}: partial {ad}, num-dual {}",
                        o.eps
                    );
                    prop_assert!(
                        (w(o.re) - w(p)).abs() <= ORACLE_TOL * (1.0 + w(p).abs()),
                        "{name} at {x:?}: num-dual's value {} differs from {p}",
                        o.re
                    );

                    let fds: Vec<f64> = FD_STEPS.iter().map(|&h| fd(case, x, tk, h)).collect();
                    let best = fds.iter().map(|f| (ad - f).abs()).fold(f64::INFINITY, f64::min);
                    prop_assert!(
                        best <= FD_TOL * (1.0 + ad.abs()),
                        "{name} at {x:?}, lane {k}, tangents {tk:?}: partial {ad}, differences {fds:?}"
                    );
                }
                Ok(())
            }

            fn close(actual: F, expected: F, scale: F) -> bool {
                (w(actual) - w(expected)).abs() <= TOL * (1.0 + w(scale).abs())
            }

            fn bitwise(a: D, b: D) -> bool {
                a.value().to_bits() == b.value().to_bits()
                    && a.partials().iter().zip(b.partials()).all(|(p, q)| p.to_bits() == q.to_bits())
            }

            fn nonzero() -> impl Strategy<Value = f64> {
                (0.3f64..5.0, any::<bool>()).prop_map(|(m, s)| if s { m } else { -m })
            }

            fn lanes() -> impl Strategy<Value = [f64; L]> {
                prop::array::uniform3(-1.0f64..1.0)
            }

            proptest! {
                #![proptest_config(ProptestConfig {
                    cases: 512,
                    failure_persistence: None,
                    ..ProptestConfig::default()
                })]

                #[test]
                fn arithmetic(
                    u in prop::array::uniform3(0.0f64..1.0),
                    t in prop::array::uniform3(lanes()),
                ) {
                    for case in &arithmetic_cases() {
                        check(case, u, t)?;
                    }
                }

                #[test]
                fn methods(
                    u in prop::array::uniform3(0.0f64..1.0),
                    t in prop::array::uniform3(lanes()),
                ) {
                    for case in &method_cases() {
                        check(case, u, t)?;
                    }
                }

                /// Each operator against its closed form, lane by lane.
                #[test]
                fn closed_forms(
                    a in -5.0f64..5.0,
                    b in nonzero(),
                    c in nonzero(),
                    q in 0.0f64..1.0,
                    ta in lanes(),
                    tb in lanes(),
                ) {
                    let (a, b, c) = (a as F, b as F, c as F);
                    let (ta, tb) = (ta.map(|v| v as F), tb.map(|v| v as F));
                    let x = D::new(a, ta);
                    let y = D::new(b, tb);
                    // A dividend whose quotient by b is away from the integers.
                    let r = b * (away(q, -4.0, 4.0) as F);
                    let xr = D::new(r, ta);
                    let n = (r / b).trunc();
                    let nc = (r / c).trunc();
                    prop_assume!(((r / c) - (r / c).round()).abs() > 1e-3);
                    let cr = D::new(c, tb);
                    for k in 0..L {
                        let (da, db) = (ta[k], tb[k]);
                        let checks: [(&str, F, F, F); 17] = [
                            ("x + y", (x + y).partial(k), da + db, da.abs() + db.abs()),
                            ("x - y", (x - y).partial(k), da - db, da.abs() + db.abs()),
                            ("x * y", (x * y).partial(k), da * b + a * db, (da * b).abs() + (a * db).abs()),
                            (
                                "x / y",
                                (x / y).partial(k),
                                (da * b - a * db) / (b * b),
                                ((da * b).abs() + (a * db).abs()) / (b * b),
                            ),
                            ("x % y", (xr % y).partial(k), da - n * db, da.abs() + (n * db).abs()),
                            ("-x", (-x).partial(k), -da, da),
                            ("x + c", (x + c).partial(k), da, da),
                            ("x - c", (x - c).partial(k), da, da),
                            ("x * c", (x * c).partial(k), da * c, da * c),
                            ("x / c", (x / c).partial(k), da / c, da / c),
                            ("x % c", (xr % c).partial(k), da, da),
                            ("c + x", (c + x).partial(k), da, da),
                            ("c - x", (c - x).partial(k), -da, da),
                            ("c * x", (c * x).partial(k), c * da, c * da),
                            ("c / x", (c / y).partial(k), -c * db / (b * b), c * db / (b * b)),
                            ("c % x", (r % cr).partial(k), -nc * db, nc * db),
                            ("x.recip()", y.recip().partial(k), -db / (b * b), db / (b * b)),
                        ];
                        for (name, actual, expected, scale) in checks {
                            prop_assert!(
                                close(actual, expected, scale),
                                "{name}, lane {k}: {actual} against the closed form {expected}"
                            );
                        }
                    }
                    // Values are the primal operations, bitwise.
                    prop_assert_eq!((x + y).value(), a + b);
                    prop_assert_eq!((x / y).value(), a / b);
                    prop_assert_eq!((xr % y).value(), r % b);
                    prop_assert_eq!((c - x).value(), c - a);
                    prop_assert_eq!((c / y).value(), c / b);
                    prop_assert_eq!((r % cr).value(), r % c);
                }

                /// Compound assignment and borrowed operands are the owned binary
                /// operators, bitwise.
                #[test]
                fn assignment_and_borrows(
                    a in -5.0f64..5.0,
                    b in nonzero(),
                    c in nonzero(),
                    ta in lanes(),
                    tb in lanes(),
                ) {
                    let x = D::new(a as F, ta.map(|v| v as F));
                    let y = D::new(b as F, tb.map(|v| v as F));
                    let c = c as F;
                    macro_rules! same {
                        ($op:tt, $op_assign:tt) => {{
                            let owned = x $op y;
                            prop_assert!(bitwise(&x $op &y, owned), "&x {} &y", stringify!($op));
                            prop_assert!(bitwise(x $op &y, owned), "x {} &y", stringify!($op));
                            prop_assert!(bitwise(&x $op y, owned), "&x {} y", stringify!($op));
                            let mut z = x;
                            z $op_assign y;
                            prop_assert!(bitwise(z, owned), "x {} y", stringify!($op_assign));
                            let mut z = x;
                            z $op_assign &y;
                            prop_assert!(bitwise(z, owned), "x {} &y", stringify!($op_assign));

                            let owned = x $op c;
                            prop_assert!(bitwise(&x $op c, owned), "&x {} c", stringify!($op));
                            let mut z = x;
                            z $op_assign c;
                            prop_assert!(bitwise(z, owned), "x {} c", stringify!($op_assign));

                            let owned = c $op y;
                            prop_assert!(bitwise(c $op &y, owned), "c {} &y", stringify!($op));
                        }};
                    }
                    same!(+, +=);
                    same!(-, -=);
                    same!(*, *=);
                    same!(/, /=);
                    same!(%, %=);
                    prop_assert!(bitwise(-&x, -x));
                    // Constants on the left are the `Reading` methods.
                    use lifted::Reading;
                    prop_assert!(bitwise(c + y, y.radd(c)));
                    prop_assert!(bitwise(c - y, y.rsub(c)));
                    prop_assert!(bitwise(c * y, y.rmul(c)));
                    prop_assert!(bitwise(c / y, y.rdiv(c)));
                    prop_assert!(bitwise(c % y, y.rrem(c)));
                }

                /// Comparisons look at the value only, whatever the tangents.
                #[test]
                fn comparisons_read_the_value(
                    a in -5.0f64..5.0,
                    b in -5.0f64..5.0,
                    ta in lanes(),
                    tb in lanes(),
                ) {
                    let (a, b) = (a as F, b as F);
                    let x = D::new(a, ta.map(|v| v as F));
                    let y = D::new(b, tb.map(|v| v as F));
                    prop_assert_eq!(x == y, a == b);
                    prop_assert_eq!(x < y, a < b);
                    prop_assert_eq!(x <= y, a <= b);
                    prop_assert_eq!(x > y, a > b);
                    prop_assert_eq!(x.partial_cmp(&y), a.partial_cmp(&b));
                    prop_assert!(x == D::new(a, tb.map(|v| v as F)));
                    prop_assert!(x == a && a == x);
                    prop_assert_eq!(x < b, a < b);
                    prop_assert_eq!(b < x, b < a);
                    prop_assert_eq!(x.partial_cmp(&b), a.partial_cmp(&b));
                    prop_assert_eq!(b.partial_cmp(&x), b.partial_cmp(&a));
                }

                /// Binary rules against `num-dual`'s vector dual, one input per lane.
                #[test]
                fn against_vector_dual(
                    a in 0.3f64..3.0,
                    b in nonzero(),
                ) {
                    let (a, b) = (a as F, b as F);
                    let x = NDual::<F, 2>::variable(a, 0);
                    let y = NDual::<F, 2>::variable(b, 1);
                    let vx = V::from_re(a).derivative(0);
                    let vy = V::from_re(b).derivative(1);
                    let pairs: [(&str, NDual<F, 2>, V); 9] = [
                        ("x * y", x * y, &vx * &vy),
                        ("x / y", x / y, &vx / &vy),
                        ("x - y", x - y, &vx - &vy),
                        ("atan2", x.atan2(y), vx.atan2(vy.clone())),
                        ("hypot", x.hypot(y), (&vx * &vx + &vy * &vy).sqrt()),
                        ("powf", x.powf(y), vx.powd(vy.clone())),
                        (
                            "log",
                            x.log(y.abs() + 1.5),
                            vx.ln() / (num_traits::Signed::abs(&vy) + V::from_re(1.5)).ln(),
                        ),
                        ("mul_add", x.mul_add(y, x), &vx * &vy + &vx),
                        ("sqrt(x y²)", (x * y * y).sqrt(), (&vx * &vy * &vy).sqrt()),
                    ];
                    for (name, ours, theirs) in pairs {
                        let eps = theirs.eps.0.map_or([0.0; 2], |m| [m[0], m[1]]);
                        prop_assert!(close(ours.value(), theirs.re, theirs.re), "{name}: value");
                        for k in 0..2 {
                            prop_assert!(
                                close(ours.partial(k), eps[k], eps[k]),
                                "{name}, lane {k}: {} against num-dual {}",
                                ours.partial(k),
                                eps[k]
                            );
                        }
                    }
                }
            }

            /// `min`, `max` and `clamp` follow the operand `f64::min` … selects, ties and
            /// NaN included.
            #[test]
            fn selections_follow_the_primal() {
                let x = D::new(1.0, [1.0, 0.0, 0.0]);
                let y = D::new(2.0, [0.0, 1.0, 0.0]);
                let nan = D::new(F::NAN, [0.0, 0.0, 1.0]);
                assert_eq!(x.min(y).partials(), x.partials());
                assert_eq!(x.max(y).partials(), y.partials());
                assert_eq!(nan.min(x).partials(), x.partials());
                assert_eq!(x.min(nan).partials(), x.partials());
                assert_eq!(nan.max(y).partials(), y.partials());
                assert_eq!(y.max(nan).partials(), y.partials());
                // On a tie the first operand is kept, as the primal keeps its value.
                let x2 = D::new(1.0, [0.0, 0.0, 1.0]);
                assert_eq!(x.min(x2).partials(), x.partials());
                assert_eq!(x.max(x2).partials(), x.partials());
                let lo = D::new(0.0, [0.0, 2.0, 0.0]);
                let hi = D::new(3.0, [0.0, 0.0, 3.0]);
                assert_eq!(D::new(-1.0, [1.0; L]).clamp(lo, hi).partials(), lo.partials());
                assert_eq!(D::new(5.0, [1.0; L]).clamp(lo, hi).partials(), hi.partials());
                assert_eq!(x.clamp(lo, hi).partials(), x.partials());
            }
        }
    };
}

suite!(
    f64_suite,
    f64,
    num_dual::Dual64,
    num_dual::DualSVec64<2>,
    steps = [1e-3, 3e-4, 1e-4],
    fd_tol = 1e-7,
    tol = 1e-13,
    oracle_tol = 1e-12
);

suite!(
    f32_suite,
    f32,
    num_dual::Dual32,
    num_dual::DualSVec32<2>,
    steps = [2e-2, 1e-2, 3e-3, 1e-3],
    fd_tol = 3e-3,
    tol = 2e-6,
    oracle_tol = 1e-5
);

#[test]
fn display_and_debug() {
    let x = NDual::<f64, 2>::new(0.5, [1.0, -2.25]);
    assert_eq!(format!("{x}"), "0.5 + [1, -2.25]ε");
    assert_eq!(format!("{x:.2}"), "0.50 + [1.00, -2.25]ε");
    assert_eq!(format!("{x:?}"), "NDual(0.5; [1.0, -2.25])");
    let y = NDual::<f32, 1>::new(1.5, [0.0]);
    assert_eq!(format!("{y}"), "1.5 + [0]ε");
    assert_eq!(format!("{y:?}"), "NDual(1.5; [0.0])");
    let z = NDual::<f64, 0>::new(3.0, []);
    assert_eq!(format!("{z}"), "3 + []ε");
    let nested = NDual::<NDual<f64, 1>, 1>::new(NDual::new(2.0, [1.0]), [NDual::new(1.0, [0.0])]);
    assert_eq!(format!("{nested}"), "2 + [1]ε + [1 + [0]ε]ε");
    assert_eq!(
        format!("{nested:?}"),
        "NDual(NDual(2.0; [1.0]); [NDual(1.0; [0.0])])"
    );
}

#[test]
fn comparisons_with_nan_read_the_value() {
    let nan = NDual::<f64, 2>::new(f64::NAN, [0.0, 0.0]);
    let one = NDual::<f64, 2>::new(1.0, [0.0, 0.0]);
    assert!(nan != nan);
    assert!(nan.partial_cmp(&one).is_none());
    assert!(nan != 1.0 && !(nan == 0.0));
    assert!(nan.partial_cmp(&1.0).is_none() && 1.0.partial_cmp(&nan).is_none());
    // Equal values with different tangents are equal; -0 == +0 as for f64.
    assert!(NDual::<f64, 1>::new(-0.0, [1.0]) == NDual::new(0.0, [-1.0]));
}

/// The `num-traits` impls: generic code written against `Float` runs on duals and gets
/// the same derivatives as the `Real` rules.
mod num_traits_impls {
    use lifted::{NDual, Real};
    use num_traits::{Float, FloatConst, FromPrimitive, Num, NumCast, Signed, ToPrimitive};

    type D = NDual<f64, 2>;

    fn generic<T: Float + FloatConst>(x: T, y: T) -> T {
        let two = T::from(2.0).unwrap();
        x.sin() * y.exp() + two * x.powi(3) - x.hypot(y).ln() + T::PI() * x.atan2(y) - y.abs_sub(x)
            + x.mul_add(y, two).sqrt()
            + x.max(y).powf(y)
    }

    fn with_real<T: Real + lifted::Reading<f64>>(x: T, y: T) -> T {
        let two = T::constant(2.0);
        x.sin() * y.exp() + two * x.powi(3) - x.hypot(y).ln()
            + T::constant(core::f64::consts::PI) * x.atan2(y)
            - if y <= x { T::constant(0.0) } else { y - x }
            + x.mul_add(y, two).sqrt()
            + x.max(y).powf(y)
    }

    #[test]
    fn float_methods_are_the_real_rules() {
        let x = D::variable(0.7, 0);
        let y = D::variable(1.3, 1);
        let a = generic(x, y);
        let b = with_real(x, y);
        assert_eq!(a.value(), b.value());
        assert_eq!(a.partials(), b.partials());
        assert_eq!(a.value(), generic(0.7, 1.3));
    }

    #[test]
    fn every_float_method_forwards() {
        let x = D::new(0.6, [1.0, 0.5]);
        let y = D::new(1.7, [-0.5, 2.0]);
        macro_rules! unary {
            ($($m:ident)*) => {$(
                let (a, b) = (Float::$m(x), Real::$m(x));
                assert_eq!((a.value(), a.partials()), (b.value(), b.partials()), stringify!($m));
            )*};
        }
        unary!(floor ceil round trunc fract abs signum recip sqrt cbrt exp exp2 exp_m1 ln log2
            log10 ln_1p to_degrees to_radians sin cos tan asin acos atan sinh cosh tanh asinh
            atanh);
        let z = D::new(1.6, [1.0, 0.5]);
        assert_eq!(Float::acosh(z).partials(), Real::acosh(z).partials());
        macro_rules! binary {
            ($($m:ident)*) => {$(
                let (a, b) = (Float::$m(x, y), Real::$m(x, y));
                assert_eq!((a.value(), a.partials()), (b.value(), b.partials()), stringify!($m));
            )*};
        }
        binary!(powf log max min hypot atan2 copysign);
        assert_eq!(Float::powi(x, 3).partials(), Real::powi(x, 3).partials());
        assert_eq!(
            Float::mul_add(x, y, z).partials(),
            Real::mul_add(x, y, z).partials()
        );
        assert_eq!(
            Float::clamp(y, x, z).partials(),
            Real::clamp(y, x, z).partials()
        );
        let (s, c) = Float::sin_cos(x);
        assert_eq!(
            (s.partials(), c.partials()),
            (Real::sin(x).partials(), Real::cos(x).partials())
        );
        assert_eq!(Float::abs_sub(y, x).partials(), (y - x).partials());
        assert_eq!(Float::abs_sub(x, y).partials(), &[0.0, 0.0]);
    }

    #[test]
    fn constants_and_queries() {
        let c = |d: D| (d.value(), *d.partials());
        assert!(D::nan().value().is_nan() && D::nan().partials() == &[0.0; 2]);
        assert_eq!(c(D::infinity()), (f64::INFINITY, [0.0; 2]));
        assert_eq!(c(D::neg_infinity()), (f64::NEG_INFINITY, [0.0; 2]));
        assert!(D::neg_zero().value().is_sign_negative());
        assert_eq!(c(D::epsilon()), (f64::EPSILON, [0.0; 2]));
        assert_eq!(c(D::max_value()), (f64::MAX, [0.0; 2]));
        assert_eq!(c(D::min_value()), (f64::MIN, [0.0; 2]));
        assert_eq!(c(D::min_positive_value()), (f64::MIN_POSITIVE, [0.0; 2]));
        assert_eq!(c(D::PI()), (core::f64::consts::PI, [0.0; 2]));
        assert_eq!(c(D::TAU()), (core::f64::consts::TAU, [0.0; 2]));
        assert_eq!(c(D::LN_2()), (core::f64::consts::LN_2, [0.0; 2]));
        assert_eq!(c(D::from_str_radix("ff", 16).unwrap()), (255.0, [0.0; 2]));
        assert!(D::from_str_radix("zz", 10).is_err());
        assert_eq!(c(<D as NumCast>::from(7u8).unwrap()), (7.0, [0.0; 2]));
        assert_eq!(c(D::from_i32(-3).unwrap()), (-3.0, [0.0; 2]));
        assert_eq!(c(D::from_f32(0.5).unwrap()), (0.5, [0.0; 2]));

        let x = D::new(-2.75, [1.0, 3.0]);
        assert_eq!(x.to_i64(), Some(-2));
        assert_eq!(x.to_u32(), None);
        assert_eq!(x.to_f64(), Some(-2.75));
        assert_eq!(Float::integer_decode(x), Float::integer_decode(-2.75f64));
        assert_eq!(Float::classify(x), core::num::FpCategory::Normal);
        assert!(Float::is_normal(x) && !Float::is_subnormal(x));
        assert!(Float::is_subnormal(D::new(1e-310, [1.0; 2])));
        assert!(Float::is_sign_negative(x) && !Float::is_nan(x) && Float::is_finite(x));

        assert!(x.is_negative() && !x.is_positive());
        assert_eq!(c(Signed::abs(&x)), (2.75, [-1.0, -3.0]));
        assert_eq!(c(Signed::signum(&x)), (-1.0, [0.0; 2]));
        let y = D::new(1.0, [0.5, 0.5]);
        assert_eq!(c(Signed::abs_sub(&y, &x)), (3.75, [-0.5, -2.5]));
        assert_eq!(c(Signed::abs_sub(&x, &y)), (0.0, [0.0; 2]));
    }

    /// Duals of duals are `Float` too: second derivatives through generic code.
    #[test]
    fn nested_duals_are_float() {
        type D2 = NDual<NDual<f64, 1>, 1>;
        fn cube_sin<T: Float>(x: T) -> T {
            x.powi(3) * x.sin()
        }
        let a = 0.9f64;
        let x = D2::new(NDual::variable(a, 0), [NDual::constant(1.0)]);
        let y = cube_sin(x);
        // f = x³ sin x; f' = 3x² sin x + x³ cos x; f'' = 6x sin x + 6x² cos x - x³ sin x.
        let (s, c) = a.sin_cos();
        let d1 = 3.0 * a * a * s + a * a * a * c;
        let d2 = 6.0 * a * s + 6.0 * a * a * c - a * a * a * s;
        assert!((y.value().value() - a.powi(3) * s).abs() < 1e-15);
        assert!((y.partial(0).value() - d1).abs() < 1e-13);
        assert!((y.partial(0).partial(0) - d2).abs() < 1e-12);
        assert_eq!(D2::PI().value().value(), core::f64::consts::PI);
        assert_eq!(D2::from_f64(2.5).unwrap().value().value(), 2.5);
    }
}
