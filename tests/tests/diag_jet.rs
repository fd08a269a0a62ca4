//! `DiagJet<f64, N>` and `value_jacobian_hessian_diag`: every `Real` method against
//! forward-over-forward (`NDual<NDual<f64, 1>, 1>`, other rules for the same
//! derivatives), lanes independent and scaled as the chain rule says, untouched lanes
//! exactly zero at singular points, and the fused driver against `value_and_jacfwd` +
//! `hessian_diag` and closed forms at widths 1, 2, 3 and 16 — bitwise where the
//! arithmetic is exact.

use lifted::drivers::Driver;
use lifted::{Constant, DiagJet, NDual, Reading, Real, autodiff};

type N2 = NDual<NDual<f64, 1>, 1>;

/// `f(x0)`, `f′(x0)`, `f″(x0)` by nested duals.
fn nested(id: usize, x: f64) -> [f64; 3] {
    let y = eval(id, N2::new(NDual::new(x, [1.0]), [NDual::new(1.0, [0.0])]));
    [
        y.value().value(),
        y.value().partial(0),
        y.partial(0).partial(0),
    ]
}

/// The cases: `f(id, x)` evaluates case `id` at any reading, so the Taylor, nested and
/// primal runs execute the same expression.
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
    "abs+" [0.1, 2.0] |x| (x * x.sin()).abs();
    "abs-" [-2.0, -0.1] |x| (x * x.cos()).abs();
    "signum" [-2.0, 2.0] |x| x.signum() * x;
    "recip" [0.3, 3.0] |x| x.recip();
    "to_degrees" [-2.0, 2.0] |x| x.sin().to_degrees();
    "to_radians" [-2.0, 2.0] |x| x.sin().to_radians();
    "floor" [0.1, 0.9] |x| (x * 3.0).floor() + x;
    "ceil" [0.1, 0.9] |x| (x * 3.0).ceil() * x;
    "round" [0.1, 0.9] |x| (x * 3.0).round() * x;
    "trunc" [0.1, 0.9] |x| (x * 3.0).trunc() * x;
    "fract" [0.1, 0.9] |x| (x.exp() * 3.0).fract();
    "sin_cos" [-2.0, 2.0] |x| { let (s, c) = x.sin_cos(); s * c + s };
    "atan2" [-2.0, 2.0] |x| x.atan2(x * 0.5 + 1.3);
    "atan2 swapped" [-2.0, 2.0] |x| (x * 0.5 + 1.3).atan2(x.sin() - 2.0);
    "log" [0.3, 3.0] |x| x.log(x * 0.1 + 2.0);
    "powi 3" [-2.0, 2.0] |x| x.powi(3);
    "powi -2" [0.3, 3.0] |x| x.powi(-2);
    "powi 7" [-1.5, 1.5] |x| (x + 0.25).powi(7);
    "powf const" [0.3, 3.0] |x| x.powf(D::cst(2.5));
    "powf neg base" [-2.0, -0.3] |x| x.powf(D::cst(3.0));
    "powf var" [0.3, 3.0] |x| x.powf(x.sin() + 1.5);
    "powf const base" [-1.0, 1.0] |x| D::cst(1.7).powf(x * x);
    "hypot" [-2.0, 2.0] |x| x.hypot(x * 0.3 - 1.0);
    "copysign" [0.1, 2.0] |x| x.exp().copysign(D::cst(-1.0)) + x.copysign(x.cos());
    "min" [0.1, 0.9] |x| x.min(x * x).sin();
    "max" [0.1, 0.9] |x| x.max(x * x).sin();
    "clamp" [-0.9, 0.9] |x| x.exp().clamp(D::cst(0.5), D::cst(3.0)) * x;
    "mul_add" [-2.0, 2.0] |x| x.mul_add(x.sin(), x.exp());
    "rem" [0.6, 1.9] |x| (x * 3.0) % (x + 1.0);
    "rem_euclid" [0.6, 1.9] |x| (x * 3.0).rem_euclid(x + 1.0);
    "div_euclid" [0.6, 1.9] |x| (x * 3.0).div_euclid(x + 1.0) * x;
    "arith" [-1.0, 2.0] |x| (x * x - x / (x + 2.0) + 1.0) / x.rsub(3.0) - -x;
    "mixed" [0.3, 3.0] |x| (x - 0.5) * 2.0 / 3.0 + x.radd(1.0) + x.rmul(2.0) + x.rdiv(2.0);
    "rrem" [0.7, 1.9] |x| x.rrem(5.0) * x;
    "chain" [-1.0, 1.0] |x| (x.sin().exp() + (x * x + 1.0).ln()).sqrt().atan();
}

/// The sample points of a case: 5 evenly spaced points of its interval.
fn points(lo: f64, hi: f64) -> impl Iterator<Item = f64> {
    (0..5).map(move |i| lo + (hi - lo) * f64::from(i) / 4.0)
}

fn close(got: f64, want: f64) -> bool {
    (got.is_nan() && want.is_nan()) || (got - want).abs() <= 1e-12 * want.abs().max(1.0)
}

#[test]
fn every_method_matches_nested_duals() {
    for (id, &(name, lo, hi)) in CASES.iter().enumerate() {
        for x in points(lo, hi) {
            let [f0, f1, f2] = nested(id, x);
            // Lane 0 along +1, lane 1 along −2 (so ×−2 and ×4), lane 2 untouched.
            let seed = DiagJet::<f64, 3>::new(x, [1.0, -2.0, 0.0], [0.0; 3]);
            let y = eval(id, seed);
            assert_eq!(
                y.value().to_bits(),
                eval(id, x).to_bits(),
                "{name} at {x}: value"
            );
            assert_eq!(y.value().to_bits(), f0.to_bits(), "{name} at {x}: value");
            let want_first = [f1, -2.0 * f1, 0.0];
            let want_second = [f2, 4.0 * f2, 0.0];
            for k in 0..3 {
                assert!(
                    close(y.first()[k], want_first[k]),
                    "{name} at {x}: ∂ lane {k}: {} vs {}",
                    y.first()[k],
                    want_first[k]
                );
                assert!(
                    close(y.second()[k], want_second[k]),
                    "{name} at {x}: ∂² lane {k}: {} vs {}",
                    y.second()[k],
                    want_second[k]
                );
            }
            assert_eq!(
                (y.first()[2], y.second()[2]),
                (0.0, 0.0),
                "{name}: untouched lane"
            );
        }
    }
}

#[test]
fn closed_forms() {
    let x = DiagJet::<f64, 1>::variable(0.7, 0);
    let checks: [(&str, DiagJet<f64, 1>, f64, f64); 6] = [
        ("exp", x.exp(), 0.7f64.exp(), 0.7f64.exp()),
        ("ln", x.ln(), 1.0 / 0.7, -1.0 / (0.7 * 0.7)),
        (
            "sqrt",
            x.sqrt(),
            0.5 / 0.7f64.sqrt(),
            -0.25 * 0.7f64.powf(-1.5),
        ),
        (
            "tanh",
            x.tanh(),
            1.0 - 0.7f64.tanh().powi(2),
            -2.0 * 0.7f64.tanh() * (1.0 - 0.7f64.tanh().powi(2)),
        ),
        ("sin", x.sin(), 0.7f64.cos(), -(0.7f64.sin())),
        (
            "powi 5",
            x.powi(5),
            5.0 * 0.7f64.powi(4),
            20.0 * 0.7f64.powi(3),
        ),
    ];
    for (name, y, d1, d2) in checks {
        assert!(close(y.first()[0], d1), "{name}: {} vs {d1}", y.first()[0]);
        assert!(
            close(y.second()[0], d2),
            "{name}: {} vs {d2}",
            y.second()[0]
        );
    }
}

#[test]
fn untouched_lanes_stay_zero_at_singular_points() {
    // Lane 0 moves x = 0, lane 1 moves nothing; every result must keep lane 1 at +0/−0.
    let x = DiagJet::<f64, 2>::variable(0.0, 0);
    let c = DiagJet::<f64, 2>::constant(0.0);
    let cases = [
        ("ln", x.ln()),
        ("sqrt", x.sqrt()),
        ("cbrt", x.cbrt()),
        ("hypot", x.hypot(c)),
        ("hypot both", x.hypot(x)),
        ("powf const exponent", x.powf(DiagJet::constant(0.5))),
        ("powf both", x.powf(x + 0.5)),
        ("powf zero base", c.powf(x + 2.0)),
        ("recip", x.recip()),
        ("asin", (x + 1.0).asin()),
        ("atan2", x.atan2(c)),
        ("log", x.log(x + 2.0)),
    ];
    for (name, y) in cases {
        assert_eq!(
            y.first()[1],
            0.0,
            "{name}: first partial of the untouched lane"
        );
        assert_eq!(
            y.second()[1],
            0.0,
            "{name}: second partial of the untouched lane"
        );
    }
    // A constant stays a constant, whatever the function's derivatives are there.
    for y in [c.ln(), c.sqrt(), c.cbrt(), c.hypot(c), c.powf(c), c.recip()] {
        assert!(
            y.first().iter().chain(y.second()).all(|&d| d == 0.0),
            "{y:?}"
        );
    }
}

// ---------------------------------------------------------------------------------
// The fused driver.

/// A polynomial: every operation exact at dyadic points, so the fused pass and the
/// nested passes must agree bit for bit.
#[autodiff(forward)]
fn poly(x: &[f64]) -> (f64, f64) {
    let mut s = 0.0;
    let mut p = 1.0;
    for i in 0..x.len() {
        s += x[i] * x[i] * x[i] - 3.0 * x[i] * x[(i + 1) % x.len()];
        p *= x[i] + 0.5;
    }
    (s, p * 0.25)
}

/// Transcendental, several arguments, one constant.
#[autodiff(forward)]
fn waves(x: f64, y: &[f64], #[constant] k: f64, t: f64) -> Vec<f64> {
    let mut out = Vec::new();
    for v in y {
        out.push((k * x).sin() * v.exp() + (t * v).tanh() * x.sqrt());
    }
    out.push(x.hypot(t) * y.iter().sum::<f64>());
    out
}

fn dyadic(n: usize) -> Vec<f64> {
    (0..n).map(|i| (i as f64 - 2.5) * 0.375).collect()
}

#[test]
fn fused_equals_nested_bitwise_on_polynomials() {
    for n in [1, 2, 3, 5, 16, 20] {
        let x = dyadic(n);
        let (v0, j0) = lifted::value_and_jacfwd(poly::Rule, (&x,), &[0]).unwrap();
        let (_, h0) = lifted::hessian_diag(poly::Rule, (&x,)).unwrap();
        for chunk in [1, 2, 3, 16] {
            let (v, j, h) = Driver::new(poly::Rule)
                .width(chunk)
                .value_jacobian_hessian_diag((&x,))
                .unwrap();
            assert_eq!(v, v0, "n {n} chunk {chunk}");
            assert_eq!(j, j0, "n {n} chunk {chunk}: Jacobian");
            assert_eq!(h, h0, "n {n} chunk {chunk}: second derivatives");
        }
        // Closed form of the first output's second derivatives: 6 xᵢ, and −6 from
        // −3 x₀ x₀ when there is one coordinate.
        let (_, _, h) = lifted::value_jacobian_hessian_diag(poly::Rule, (&x,), &[]).unwrap();
        assert_eq!(h.shape(), (2, 0));
        let (_, _, h) = lifted::value_jacobian_hessian_diag(poly::Rule, (&x,), &[0]).unwrap();
        for (i, xi) in x.iter().enumerate() {
            let cross = if n == 1 { 6.0 } else { 0.0 };
            assert_eq!(h[(0, i)], 6.0 * xi - cross, "n {n}: ∂²/∂x{i}²");
        }
    }
}

#[test]
fn fused_matches_nested_on_transcendental_functions() {
    for n in [1, 2, 3, 17] {
        let y: Vec<f64> = (0..n).map(|i| 0.1 + 0.05 * i as f64).collect();
        let args = (0.8, y.clone(), Constant(1.7), 0.3);
        for wrt in [&[0, 1, 3][..], &[1][..], &[3, 0][..]] {
            let (v0, j0) = lifted::value_and_jacfwd(waves::Rule, &args, wrt).unwrap();
            let (_, h0) = Driver::new(waves::Rule)
                .wrt(wrt)
                .hessian_diag(&args)
                .unwrap();
            for chunk in [1, 2, 3, 16] {
                let (v, j, h) = Driver::new(waves::Rule)
                    .width(chunk)
                    .wrt(wrt)
                    .value_jacobian_hessian_diag(&args)
                    .unwrap();
                assert_eq!(v, v0);
                assert_eq!((j.shape(), h.shape()), (j0.shape(), h0.shape()));
                for (a, b) in j
                    .data()
                    .iter()
                    .zip(j0.data())
                    .chain(h.data().iter().zip(h0.data()))
                {
                    assert!(close(*a, *b), "n {n} {wrt:?} chunk {chunk}: {a} vs {b}");
                }
            }
        }
        // Closed form: ∂²/∂x² of sin(kx) e^y₀ + tanh(t y₀) √x.
        let (_, _, h) = lifted::value_jacobian_hessian_diag(waves::Rule, &args, &[0]).unwrap();
        let (x, k, t, y0) = (0.8f64, 1.7f64, 0.3f64, y[0]);
        let want = -k * k * (k * x).sin() * y0.exp() - 0.25 * (t * y0).tanh() * x.powf(-1.5);
        assert!(close(h[(0, 0)], want), "{} vs {want}", h[(0, 0)]);
    }
}

#[test]
fn fused_residual_of_a_pinn_equals_the_point_by_point_one() {
    use lifted::pinn::{self, Network};
    use lifted::testing::SplitMix64;
    let mut rng = SplitMix64::new(42);
    let net = Network::from_fn(&[3, 24, 24, 3], |i, o| {
        (2.0 / (i + o) as f64).sqrt() * rng.normal()
    });
    let nu = 0.05;
    for p in [[0.2, 0.4, 0.6], [0.9, -0.3, 0.1]] {
        let args = (Constant(net.clone()), p[0], p[1], p[2]);
        let ((u, v, _), j, d2) =
            lifted::value_jacobian_hessian_diag(pinn::fields3::Rule, &args, &[1, 2, 3]).unwrap();
        let r = [
            j[(0, 1)] + j[(1, 2)],
            j[(0, 0)] + u * j[(0, 1)] + v * j[(0, 2)] + j[(2, 1)] - nu * (d2[(0, 1)] + d2[(0, 2)]),
            j[(1, 0)] + u * j[(1, 1)] + v * j[(1, 2)] + j[(2, 2)] - nu * (d2[(1, 1)] + d2[(1, 2)]),
        ];
        let want = pinn::navier_stokes(&net, p, nu).unwrap();
        for (a, b) in r
            .into_iter()
            .zip([want.continuity, want.momentum_x, want.momentum_y])
        {
            assert!((a - b).abs() <= 1e-12 * b.abs().max(1e-3), "{a} vs {b}");
        }
    }
}

#[test]
fn bad_selections_and_widths_are_errors() {
    let x = dyadic(3);
    assert!(matches!(
        lifted::value_jacobian_hessian_diag(poly::Rule, (&x,), &[1]),
        Err(lifted::Error::ArgumentOutOfRange { index: 1, .. })
    ));
    let args = (0.8, x.clone(), Constant(1.0), 0.3);
    assert!(matches!(
        lifted::value_jacobian_hessian_diag(waves::Rule, &args, &[0, 0]),
        Err(lifted::Error::DuplicateArgument { index: 0, .. })
    ));
    assert!(matches!(
        Driver::new(poly::Rule)
            .width(0)
            .value_jacobian_hessian_diag((&x,)),
        Err(lifted::Error::UnsupportedWidth { requested: 0, .. })
    ));
}

/// A function written in `f32`.
#[autodiff(forward)]
fn g(x: f32, y: f32) -> f32 {
    x * x * y + (x * y).sin()
}

#[test]
fn f32_functions_run_on_f32_jets() {
    let (v, j, h) =
        lifted::value_jacobian_hessian_diag(g::Rule, (1.5f32, 0.5f32), &[0, 1]).unwrap();
    assert_eq!(v, g(1.5, 0.5));
    let (x, y) = (1.5f32, 0.5f32);
    assert!((j[(0, 0)] - (2.0 * x * y + y * (x * y).cos())).abs() < 1e-5);
    assert!((h[(0, 0)] - (2.0 * y - y * y * (x * y).sin())).abs() < 1e-5);
    assert!((h[(0, 1)] - (-x * x * (x * y).sin())).abs() < 1e-5);
}
