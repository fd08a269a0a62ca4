//! `HyperDual<S>`: mixed and pure second partials against hand-derived closed forms in
//! `f64` and `f32`; every `Real` method's parts against `NDual<f64, 1>` (first
//! derivative), a central difference of that derivative and `DiagJet<f64, 1>` (second
//! derivative); strong zero and NaN isolation between `e1` and `e2`; and derived rules
//! (scalars, a slice loop, a lifted struct) run at `HyperDual<f64>` against nested duals
//! `NDual<NDual<f64, 1>, 1>` and closed forms, then checked by `check_rule`.

use lifted::{DiagJet, HyperDual, NDual, NDualArray, Reading, Real, autodiff};
use lifted_tests::alloc_counter::CountingAllocator;
use lifted_tests::constructs::check_at;

/// Counts allocations, so that `check_rule` also checks that these rules allocate
/// nothing.
#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

type H = HyperDual<f64>;
type N2 = NDual<NDual<f64, 1>, 1>;

fn close_to(got: f64, want: f64, tol: f64) -> bool {
    (got - want).abs() <= tol * want.abs().max(1.0)
}

// ---------------------------------------------------------------------------------
// Closed forms.

/// The closed-form checks for one float type `$t` at relative tolerance `$tol`.
macro_rules! closed_forms {
    ($module:ident, $t:ident, $tol:expr) => {
        mod $module {
            use lifted::{HyperDual, Real};

            type H = HyperDual<$t>;

            /// `f(x, y)` and its partials `[fx, fy, fxx, fxy, fyy]` by hand.
            struct Case {
                name: &'static str,
                f: fn(H, H) -> H,
                partials: fn($t, $t) -> [$t; 5],
            }

            const CASES: &[Case] = &[
                Case {
                    name: "x² sin y",
                    f: |x, y| x * x * y.sin(),
                    partials: |x, y| {
                        [
                            2.0 * x * y.sin(),
                            x * x * y.cos(),
                            2.0 * y.sin(),
                            2.0 * x * y.cos(),
                            -x * x * y.sin(),
                        ]
                    },
                },
                Case {
                    name: "exp(x y)",
                    f: |x, y| (x * y).exp(),
                    partials: |x, y| {
                        let e = (x * y).exp();
                        [y * e, x * e, y * y * e, (1.0 + x * y) * e, x * x * e]
                    },
                },
                Case {
                    name: "x^y",
                    f: |x, y| x.powf(y),
                    partials: |x, y| {
                        let l = x.ln();
                        [
                            y * x.powf(y - 1.0),
                            x.powf(y) * l,
                            y * (y - 1.0) * x.powf(y - 2.0),
                            x.powf(y - 1.0) * (1.0 + y * l),
                            x.powf(y) * l * l,
                        ]
                    },
                },
                Case {
                    name: "atan2(y, x)",
                    f: |x, y| y.atan2(x),
                    partials: |x, y| {
                        let r2 = x * x + y * y;
                        let r4 = r2 * r2;
                        [
                            -y / r2,
                            x / r2,
                            2.0 * x * y / r4,
                            (y * y - x * x) / r4,
                            -2.0 * x * y / r4,
                        ]
                    },
                },
                Case {
                    name: "hypot(x, y)",
                    f: |x, y| x.hypot(y),
                    partials: |x, y| {
                        let h = (x * x + y * y).sqrt();
                        let h3 = h * h * h;
                        [x / h, y / h, y * y / h3, -x * y / h3, x * x / h3]
                    },
                },
                Case {
                    name: "ln(x) √y",
                    f: |x, y| x.ln() * y.sqrt(),
                    partials: |x, y| {
                        let s = y.sqrt();
                        [
                            s / x,
                            x.ln() / (2.0 * s),
                            -s / (x * x),
                            1.0 / (2.0 * x * s),
                            -x.ln() / (4.0 * y * s),
                        ]
                    },
                },
                Case {
                    name: "(x + y) / (x y)",
                    f: |x, y| (x + y) / (x * y),
                    // = 1/y + 1/x.
                    partials: |x, y| {
                        [
                            -1.0 / (x * x),
                            -1.0 / (y * y),
                            2.0 / (x * x * x),
                            0.0,
                            2.0 / (y * y * y),
                        ]
                    },
                },
            ];

            const POINTS: [($t, $t); 4] = [(0.5, 0.4), (1.3, 1.1), (2.2, 1.9), (0.8, 2.6)];

            fn check(what: &str, name: &str, x: $t, y: $t, got: $t, want: $t) {
                assert!(
                    (got - want).abs() <= $tol * want.abs().max(1.0),
                    "{name} at ({x}, {y}): {what} = {got}, closed form {want}"
                );
            }

            #[test]
            fn mixed_partials() {
                for case in CASES {
                    for (x, y) in POINTS {
                        let [fx, fy, _, fxy, _] = (case.partials)(x, y);
                        let f = (case.f)(H::along_e1(x), H::along_e2(y));
                        let primal = (case.f)(H::constant(x), H::constant(y)).value();
                        assert_eq!(f.value(), primal, "{} at ({x}, {y}): value", case.name);
                        check("∂f/∂x", case.name, x, y, f.e1(), fx);
                        check("∂f/∂y", case.name, x, y, f.e2(), fy);
                        check("∂²f/∂x∂y", case.name, x, y, f.e12(), fxy);
                        // The same partial with the seeds swapped.
                        let g = (case.f)(H::along_e2(x), H::along_e1(y));
                        check("∂²f/∂y∂x", case.name, x, y, g.e12(), fxy);
                    }
                }
            }

            #[test]
            fn pure_second_partials() {
                for case in CASES {
                    for (x, y) in POINTS {
                        let [fx, fy, fxx, _, fyy] = (case.partials)(x, y);
                        let f = (case.f)(H::variable(x), H::constant(y));
                        check("∂f/∂x (e1)", case.name, x, y, f.e1(), fx);
                        check("∂f/∂x (e2)", case.name, x, y, f.e2(), fx);
                        check("∂²f/∂x²", case.name, x, y, f.e12(), fxx);
                        let f = (case.f)(H::constant(x), H::variable(y));
                        check("∂f/∂y", case.name, x, y, f.e1(), fy);
                        check("∂²f/∂y²", case.name, x, y, f.e12(), fyy);
                    }
                }
            }
        }
    };
}

closed_forms!(closed_f64, f64, 1e-12);
closed_forms!(closed_f32, f32, 2e-4);

// ---------------------------------------------------------------------------------
// Every method against independent readings.

/// The cases: `eval(id, x)` evaluates case `id` at any reading, so the hyper-dual,
/// first-order, jet and primal runs execute the same expression.
macro_rules! cases {
    ($($name:literal [$lo:expr, $hi:expr] |$x:ident| $body:expr;)*) => {
        const CASES: &[(&str, f64, f64)] = &[$(($name, $lo, $hi)),*];
        fn eval<D: Reading<f64>>(id: usize, input: D) -> D {
            let mut k = 0;
            $(
                if id == k {
                    let $x = input;
                    return $body;
                }
                k += 1;
            )*
            let _ = k;
            unreachable!("case {id}")
        }
    };
}

cases! {
    // Every one-argument entry of the derivative table, applied directly.
    "sin" [-2.0, 2.0] |x| x.sin();
    "cos" [-2.0, 2.0] |x| x.cos();
    "tan" [-1.2, 1.2] |x| x.tan();
    "asin" [-0.8, 0.8] |x| x.asin();
    "acos" [-0.8, 0.8] |x| x.acos();
    "atan" [-3.0, 3.0] |x| x.atan();
    "sinh" [-2.0, 2.0] |x| x.sinh();
    "cosh" [-2.0, 2.0] |x| x.cosh();
    "tanh" [-2.0, 2.0] |x| x.tanh();
    "asinh" [-3.0, 3.0] |x| x.asinh();
    "acosh" [1.2, 3.0] |x| x.acosh();
    "atanh" [-0.8, 0.8] |x| x.atanh();
    "exp" [-2.0, 2.0] |x| x.exp();
    "exp2" [-2.0, 2.0] |x| x.exp2();
    "exp_m1" [-1.0, 1.0] |x| x.exp_m1();
    "ln" [0.3, 3.0] |x| x.ln();
    "log2" [0.3, 3.0] |x| x.log2();
    "log10" [0.3, 3.0] |x| x.log10();
    "ln_1p" [-0.5, 2.0] |x| x.ln_1p();
    "sqrt" [0.3, 3.0] |x| x.sqrt();
    "cbrt" [0.3, 3.0] |x| x.cbrt();
    "cbrt-" [-3.0, -0.3] |x| x.cbrt();
    "abs+" [0.1, 2.0] |x| x.abs();
    "abs-" [-2.0, -0.1] |x| x.abs();
    "signum" [-2.0, -0.1] |x| x.signum();
    "recip" [0.3, 3.0] |x| x.recip();
    "to_degrees" [-2.0, 2.0] |x| x.to_degrees();
    "to_radians" [-2.0, 2.0] |x| x.to_radians();
    "floor" [1.1, 1.9] |x| x.floor();
    "ceil" [1.1, 1.9] |x| x.ceil();
    "round" [1.6, 2.4] |x| x.round();
    "trunc" [-1.9, -1.1] |x| x.trunc();
    "fract" [1.1, 1.9] |x| x.fract();
    // The piecewise entries composed with a curved function, so their second-order
    // parts are not trivially zero.
    "abs ∘" [0.1, 2.0] |x| (x * x.cos()).abs();
    "signum ·" [-2.0, -0.1] |x| x.signum() * x * x;
    "to_degrees ∘" [-2.0, 2.0] |x| x.sin().to_degrees();
    "floor ·" [0.4, 0.6] |x| (x * 3.0).floor() * x * x + x;
    "fract ∘" [0.1, 0.2] |x| (x.exp() * 3.0).fract();
    // The two-argument entries and the functions not in the table yet.
    "atan2" [-2.0, 2.0] |x| x.atan2(x * 0.5 + 1.3);
    "atan2 swapped" [-2.0, 2.0] |x| (x * 0.5 + 1.3).atan2(x.sin() - 2.0);
    "log" [0.3, 3.0] |x| x.log(x * 0.1 + 2.0);
    "hypot" [-2.0, 2.0] |x| x.hypot(x * 0.3 - 1.0);
    "sin_cos" [-2.0, 2.0] |x| { let (s, c) = x.sin_cos(); s * c + s };
    "powi 3" [-2.0, 2.0] |x| x.powi(3);
    "powi -2" [0.3, 3.0] |x| x.powi(-2);
    "powi 1" [-2.0, 2.0] |x| x.powi(1) * x.sin();
    "powi 0" [-2.0, 2.0] |x| x.powi(0) + x;
    "powf const" [0.3, 3.0] |x| x.powf(D::cst(2.5));
    "powf neg base" [-2.0, -0.3] |x| x.powf(D::cst(3.0));
    "powf var" [0.3, 3.0] |x| x.powf(x.sin() + 1.5);
    "powf const base" [-1.0, 1.0] |x| D::cst(1.7).powf(x * x);
    "copysign" [0.1, 2.0] |x| x.exp().copysign(D::cst(-1.0)) + x.copysign(x.cos());
    "min" [0.1, 0.9] |x| x.min(x * x).sin();
    "max" [0.1, 0.9] |x| x.max(x * x).sin();
    "clamp" [-0.9, 0.9] |x| x.exp().clamp(D::cst(0.5), D::cst(3.0)) * x;
    "mul_add" [-2.0, 2.0] |x| x.mul_add(x.sin(), x.exp());
    "rem" [0.6, 1.9] |x| (x * 3.0) % (x + 1.0);
    "rem_euclid" [0.6, 1.9] |x| (x * 3.0).rem_euclid(x + 1.0) * x;
    "div_euclid" [0.6, 1.9] |x| (x * 3.0).div_euclid(x + 1.0) * x * x;
    "arith" [-1.0, 2.0] |x| (x * x - x / (x + 2.0) + 1.0) / x.rsub(3.0) - -x;
    "mixed" [0.3, 3.0] |x| (x - 0.5) * 2.0 / 3.0 + x.radd(1.0) + x.rmul(2.0) + x.rdiv(2.0);
    "rrem" [1.05, 1.2] |x| x.rrem(5.0) * x;
    "chain" [-1.0, 1.0] |x| (x.sin().exp() + (x * x + 1.0).ln()).sqrt().atan();
}

/// 5 evenly spaced points of `[lo, hi]`.
fn points(lo: f64, hi: f64) -> impl Iterator<Item = f64> {
    (0..5).map(move |i| lo + (hi - lo) * f64::from(i) / 4.0)
}

/// `f′(x)` of case `id` by the first-order reading.
fn first(id: usize, x: f64) -> f64 {
    eval(id, NDual::<f64, 1>::variable(x, 0)).partial(0)
}

/// `f″(x)` of case `id` as the central difference of `first`.
fn second_by_differences(id: usize, x: f64) -> f64 {
    let h = 1e-5 * x.abs().max(1.0);
    (first(id, x + h) - first(id, x - h)) / (h + h)
}

#[test]
fn every_method_matches_independent_readings() {
    for (id, &(name, lo, hi)) in CASES.iter().enumerate() {
        for x in points(lo, hi) {
            let f1 = first(id, x);
            let jet = eval(id, DiagJet::<f64, 1>::variable(x, 0));
            let f2 = jet.second()[0];
            let fd = second_by_differences(id, x);
            assert!(
                close_to(f2, fd, 1e-6),
                "{name} at {x}: the jet's f″ {f2} vs differences {fd}"
            );

            // Both parts seeded with 1: e1 = e2 = f′, e12 = f″.
            let y = eval(id, H::variable(x));
            assert_eq!(
                y.value().to_bits(),
                eval(id, x).to_bits(),
                "{name} at {x}: value"
            );
            assert!(close_to(y.e1(), f1, 1e-13), "{name} at {x}: e1 {y:?}");
            assert!(close_to(y.e2(), f1, 1e-13), "{name} at {x}: e2 {y:?}");
            assert!(
                close_to(y.e12(), f2, 1e-12),
                "{name} at {x}: e12 {} vs f″ {f2}",
                y.e12()
            );
            assert!(
                close_to(y.e12(), fd, 1e-6),
                "{name} at {x}: e12 {} vs differences {fd}",
                y.e12()
            );

            // General parts: e1′ = a f′, e2′ = b f′, e12′ = c f′ + a b f″.
            let (a, b, c) = (0.7, -1.3, 0.4);
            let y = eval(id, H::new(x, a, b, c));
            let want = [a * f1, b * f1, c * f1 + a * b * f2];
            for (k, (got, want)) in [y.e1(), y.e2(), y.e12()].into_iter().zip(want).enumerate() {
                assert!(
                    close_to(got, want, 1e-12),
                    "{name} at {x}: part {k} = {got}, want {want}"
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------
// Strong zero.

/// Is `d` a zero (either sign), not NaN?
fn is_zero(d: f64) -> bool {
    d == 0.0
}

#[test]
fn an_untouched_part_stays_zero_at_singular_points() {
    let e1 = H::along_e1(0.0);
    let e2 = H::along_e2(0.0);
    let zero = H::constant(0.0);
    let half = H::constant(0.5);
    // (name, result, the part no input touched: 1 or 2, whose e12 must stay zero too;
    // 0 where both are touched and only e2 has a finite limit)
    let cases: Vec<(&str, H, u8)> = vec![
        ("sqrt e1", e1.sqrt(), 2),
        ("sqrt e2", e2.sqrt(), 1),
        ("ln e1", e1.ln(), 2),
        ("ln e2", e2.ln(), 1),
        ("cbrt", e1.cbrt(), 2),
        ("recip", e1.recip(), 2),
        ("asin", (e2 + 1.0).asin(), 1),
        ("acosh", (e1 + 1.0).acosh(), 2),
        ("powf const base 0", zero.powf(H::along_e1(2.5)), 2),
        ("powf 0^y, y on e2", zero.powf(H::along_e2(0.5)), 1),
        ("powf x on e1, const y", e1.powf(half), 2),
        ("powf x on e1, y on e2", e1.powf(H::along_e2(0.5)), 0),
        ("powf x on e2, y = 0", e2.powf(zero), 1),
        ("hypot", e1.hypot(zero), 2),
        ("hypot both on e1", e1.hypot(e1), 2),
        ("atan2", e1.atan2(zero), 2),
        ("log", e1.log(H::constant(2.0)), 2),
        ("rdiv", lifted::Reading::<f64>::rdiv(e2, 1.0), 1),
        ("powi -3", e1.powi(-3), 2),
    ];
    for (name, y, untouched) in cases {
        match untouched {
            1 => assert!(is_zero(y.e1()), "{name}: e1 {y:?}"),
            2 => assert!(is_zero(y.e2()), "{name}: e2 {y:?}"),
            // The e2 part of 0^y is its limit 0, not 0 · ln 0.
            _ => assert!(is_zero(y.e2()), "{name}: e2 {y:?}"),
        }
        if untouched != 0 {
            // e12 = f′ e12 + f″ e1 e2 with e12 = 0 and e1 e2 = 0.
            assert!(is_zero(y.e12()), "{name}: e12 {y:?}");
        }
    }
    // A constant stays a constant, whatever the function's derivatives are there.
    for y in [
        zero.ln(),
        zero.sqrt(),
        zero.cbrt(),
        zero.recip(),
        zero.hypot(zero),
        zero.powf(zero),
        zero.powf(half),
        zero.atan2(zero),
    ] {
        assert!(
            is_zero(y.e1()) && is_zero(y.e2()) && is_zero(y.e12()),
            "{y:?}"
        );
    }
}

#[test]
fn a_nan_in_e1_does_not_reach_e2() {
    let x = H::new(0.7, f64::NAN, 1.0, 0.0);
    let y = H::new(1.3, 0.5, -2.0, 0.0);
    // (name, result, ∂/∂x and ∂/∂y of the function at (0.7, 1.3))
    let (a, b) = (0.7f64, 1.3f64);
    let cases: [(&str, H, f64, f64); 8] = [
        ("sin", x.sin(), a.cos(), 0.0),
        ("ln", x.ln(), 1.0 / a, 0.0),
        ("sqrt", x.sqrt(), 0.5 / a.sqrt(), 0.0),
        ("mul", x * y, b, a),
        ("div", x / y, 1.0 / b, -a / (b * b)),
        ("powf", x.powf(y), b * a.powf(b - 1.0), a.powf(b) * a.ln()),
        (
            "atan2",
            x.atan2(y),
            b / (a * a + b * b),
            -a / (a * a + b * b),
        ),
        ("hypot", x.hypot(y), a / a.hypot(b), b / a.hypot(b)),
    ];
    for (name, r, fx, fy) in cases {
        assert!(r.e1().is_nan(), "{name}: e1 {r:?}");
        let want = fx * x.e2() + fy * y.e2();
        assert!(
            close_to(r.e2(), want, 1e-13),
            "{name}: e2 {r:?}, want {want}"
        );
    }
}

// ---------------------------------------------------------------------------------
// Derived rules.

/// Two scalars through transcendental functions, a quotient and a power.
#[autodiff(forward)]
fn field(x: f64, y: f64) -> f64 {
    (x * y).sin() * x.exp() + y.powf(x) / (1.0 + x * x) - (x - y).tanh()
}

/// A loop over a slice with neighbours: cross terms between every adjacent pair.
#[autodiff(forward)]
fn chain_energy(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        let d = x[i + 1] - x[i];
        s += d * d * x[i].cos() + 0.1 * (x[i] * x[i + 1]).exp();
    }
    s
}

/// A body with a constant mass.
#[derive(Clone, Debug, lifted::Lift)]
pub struct Body {
    /// Position.
    pub x: f64,
    /// Velocity.
    pub v: f64,
    /// Mass (a constant: no tangent).
    #[constant]
    pub m: f64,
}

/// A Lagrangian-like scalar of a body and a coupling.
#[autodiff(forward)]
fn action(b: &Body, k: f64) -> f64 {
    0.5 * b.m * b.v * b.v - k * b.x.cos() * b.v + (b.x * k).sinh()
}

/// A function written in `f32`.
#[autodiff(forward)]
fn g32(x: f32, y: f32) -> f32 {
    x * x * y + (x * y).sin()
}

/// The nested-dual seed of one input: `inner` the first direction, `outer` the second.
fn n2(x: f64, inner: bool, outer: bool) -> N2 {
    let i = if inner { 1.0 } else { 0.0 };
    let o = if outer { 1.0 } else { 0.0 };
    N2::new(NDual::new(x, [i]), [NDual::new(o, [0.0])])
}

/// `[∂₁f, ∂₂f, ∂₁∂₂f]` from a nested-dual result.
fn parts_of(r: N2) -> [f64; 3] {
    [
        r.value().partial(0),
        r.partial(0).value(),
        r.partial(0).partial(0),
    ]
}

fn assert_parts(what: &str, got: H, want: [f64; 3]) {
    for (k, (g, w)) in [got.e1(), got.e2(), got.e12()]
        .into_iter()
        .zip(want)
        .enumerate()
    {
        assert!(close_to(g, w, 1e-12), "{what}: part {k} = {g}, want {w}");
    }
}

const PAIRS: [(f64, f64); 4] = [(0.7, 1.3), (-0.4, 0.9), (1.1, 2.2), (0.2, 0.5)];

#[test]
fn scalar_rule_mixed_partials_match_nested_duals() {
    for (x, y) in PAIRS {
        let h = field::frule::<H>(H::along_e1(x), H::along_e2(y));
        assert_eq!(h.value(), field(x, y));
        let nested = field::frule::<N2>(n2(x, true, false), n2(y, false, true));
        assert_parts(&format!("∂x∂y at ({x}, {y})"), h, parts_of(nested));
        let h = field::frule::<H>(H::variable(x), H::constant(y));
        let nested = field::frule::<N2>(n2(x, true, true), n2(y, false, false));
        assert_parts(&format!("∂x² at ({x}, {y})"), h, parts_of(nested));
    }
}

#[test]
fn scalar_rule_mixed_partial_closed_form() {
    // f = sin(xy) eˣ + yˣ / (1 + x²) − tanh(x − y); differentiate term by term.
    for (x, y) in PAIRS.into_iter().filter(|&(_, y)| y > 0.0) {
        let h = field::frule::<H>(H::along_e1(x), H::along_e2(y));
        let (s, c) = (x * y).sin_cos();
        let e = x.exp();
        // ∂y sin(xy) eˣ = x cos(xy) eˣ; its ∂x: eˣ (cos(xy) − xy sin(xy) + x cos(xy)).
        let t1 = e * (c - x * y * s + x * c);
        // yˣ / q with q = 1 + x²: ∂y = x yˣ⁻¹ / q; ∂x of that:
        // yˣ⁻¹ (1 + x ln y) / q − 2x² yˣ⁻¹ / q².
        let q = 1.0 + x * x;
        let p = y.powf(x - 1.0);
        let t2 = p * (1.0 + x * y.ln()) / q - 2.0 * x * x * p / (q * q);
        // −tanh(u), u = x − y: ∂x∂y = +tanh″(u) = −2 tanh(u) sech²(u).
        let t = (x - y).tanh();
        let t3 = -2.0 * t * (1.0 - t * t);
        let want = t1 + t2 + t3;
        assert!(
            close_to(h.e12(), want, 1e-12),
            "at ({x}, {y}): {} vs {want}",
            h.e12()
        );
    }
}

#[test]
fn slice_rule_mixed_partials_match_nested_duals() {
    let xs = [0.3, -0.8, 1.1, 0.45, -0.2];
    for i in 0..xs.len() {
        for j in 0..xs.len() {
            let seeded: Vec<H> = (0..xs.len())
                .map(|k| H::new(xs[k], f64::from(k == i), f64::from(k == j), 0.0))
                .collect();
            let h = chain_energy::frule::<H>(&seeded);
            assert_eq!(h.value(), chain_energy(&xs));
            let mut nested = NDualArray::new();
            for (k, &x) in xs.iter().enumerate() {
                nested.push(n2(x, k == i, k == j));
            }
            let want = parts_of(chain_energy::frule::<N2>(nested.view()));
            assert_parts(&format!("∂x{i}∂x{j}"), h, want);
            // Elements more than one apart do not interact.
            if i.abs_diff(j) > 1 {
                assert_eq!(h.e12(), 0.0, "∂x{i}∂x{j}");
            }
        }
    }
}

#[test]
fn struct_rule_mixed_partials_match_closed_forms_and_nested_duals() {
    for (x, k) in PAIRS {
        let (v, m) = (0.6, 2.0);
        // ∂x∂k of −k cos(x) v + sinh(xk) + ½ m v²: sin(x) v + cosh(xk) + xk sinh(xk).
        let body = BodyDual::<H> {
            x: H::along_e1(x),
            v: H::constant(v),
            m,
        };
        let h = action::frule::<H>(&body, H::along_e2(k));
        let primal = Body { x, v, m };
        assert_eq!(h.value(), action(&primal, k));
        let want = x.sin() * v + (x * k).cosh() + x * k * (x * k).sinh();
        assert!(close_to(h.e12(), want, 1e-12), "{} vs {want}", h.e12());
        let nested = BodyDual::<N2> {
            x: n2(x, true, false),
            v: n2(v, false, false),
            m,
        };
        assert_parts(
            "∂x∂k",
            h,
            parts_of(action::frule::<N2>(&nested, n2(k, false, true))),
        );
        // ∂x∂v = k sin(x), both inside the struct.
        let body = BodyDual::<H> {
            x: H::along_e1(x),
            v: H::along_e2(v),
            m,
        };
        let h = action::frule::<H>(&body, H::constant(k));
        let want = k * x.sin();
        assert!(close_to(h.e12(), want, 1e-12), "{} vs {want}", h.e12());
    }
}

#[test]
fn f32_rule_mixed_partial() {
    for (x, y) in [(1.5f32, 0.5f32), (-0.7, 1.2)] {
        let h = g32::frule::<HyperDual<f32>>(HyperDual::along_e1(x), HyperDual::along_e2(y));
        assert_eq!(h.value(), g32(x, y));
        // ∂x∂y of x² y + sin(xy) = 2x + cos(xy) − xy sin(xy).
        let want = 2.0 * x + (x * y).cos() - x * y * (x * y).sin();
        assert!((h.e12() - want).abs() < 1e-5, "{} vs {want}", h.e12());
    }
}

#[test]
fn the_rules_pass_check_rule() {
    check_at(field::Rule, &PAIRS);
    check_at(
        chain_energy::Rule,
        &[(vec![0.3, -0.8, 1.1, 0.45, -0.2],), (vec![1.0, 2.0],)],
    );
    check_at(
        action::Rule,
        &[
            (
                Body {
                    x: 0.7,
                    v: 0.6,
                    m: 2.0,
                },
                1.3,
            ),
            (
                Body {
                    x: -0.4,
                    v: 1.5,
                    m: 0.5,
                },
                0.9,
            ),
        ],
    );
    check_at(g32::Rule, &[(1.5, 0.5), (-0.7, 1.2)]);
}
