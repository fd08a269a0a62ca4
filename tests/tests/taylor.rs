//! `Taylor<f64, K>`: every `Real` method at orders 1 to 6 against forward-over-forward
//! (`NDual` nested six deep, which carries the same derivatives by other rules),
//! closed-form derivative towers, the bitwise agreement of polynomial coefficients with
//! nested duals at dyadic points, and the primal bit for bit.

use lifted::{NDual, Reading, Real, Taylor};

/// A nested dual `x0 + ε₁ + … + ε_d`, each level seeded with the same direction: the
/// mixed partial `∂ʲ/∂ε₁…∂ε_j` of `f` is then `f⁽ʲ⁾(x0)`.
trait Tower: Reading<f64> {
    fn seed(x: f64) -> Self;
    fn deriv(&self, j: usize) -> f64;
}

impl Tower for f64 {
    fn seed(x: f64) -> Self {
        x
    }
    fn deriv(&self, j: usize) -> f64 {
        if j == 0 { *self } else { f64::NAN }
    }
}

impl<S: Tower> Tower for NDual<S, 1> {
    fn seed(x: f64) -> Self {
        NDual::new(S::seed(x), [S::constant(1.0)])
    }
    fn deriv(&self, j: usize) -> f64 {
        if j == 0 {
            self.value().deriv(0)
        } else {
            self.partial(0).deriv(j - 1)
        }
    }
}

type N1 = NDual<f64, 1>;
type N2 = NDual<N1, 1>;
type N3 = NDual<N2, 1>;
type N6 = NDual<NDual<NDual<N3, 1>, 1>, 1>;

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

/// Order `j` derivatives lose about a digit every two orders to cancellation.
fn tol(j: usize) -> f64 {
    1e-13 * 4f64.powi(j as i32)
}

fn close(got: f64, want: f64, j: usize) -> bool {
    (got.is_nan() && want.is_nan()) || (got - want).abs() <= tol(j) * want.abs().max(1.0)
}

/// Checks the tower of case `id` at order `K` against the nested duals.
fn check_order<const K: usize>(id: usize, x: f64, reference: &N6) {
    let (name, ..) = CASES[id];
    let t = eval(id, Taylor::<f64, K>::variable(x, 1.0));
    let primal = eval(id, x);
    assert_eq!(
        t.value().to_bits(),
        primal.to_bits(),
        "{name} at {x}: the value is not the primal's"
    );
    for j in 1..=K {
        let (got, want) = (t.derivative(j), reference.deriv(j));
        assert!(
            close(got, want, j),
            "{name} at {x}, order {K}, derivative {j}: {got} vs {want}"
        );
    }
}

#[test]
fn every_method_agrees_with_nested_duals_at_orders_1_to_6() {
    for (id, &(_, lo, hi)) in CASES.iter().enumerate() {
        for x in points(lo, hi) {
            let reference = eval(id, N6::seed(x));
            check_order::<1>(id, x, &reference);
            check_order::<2>(id, x, &reference);
            check_order::<3>(id, x, &reference);
            check_order::<4>(id, x, &reference);
            check_order::<5>(id, x, &reference);
            check_order::<6>(id, x, &reference);
        }
    }
}

/// `r (r−1) … (r−j+1)`.
fn falling(r: f64, j: usize) -> f64 {
    (0..j).map(|i| r - i as f64).product()
}

fn factorial(j: usize) -> f64 {
    (1..=j).map(|i| i as f64).product()
}

/// `tanh⁽ʲ⁾` as a polynomial in `t = tanh x`: `P_{j+1}(t) = P_j′(t) (1 − t²)`.
fn tanh_tower(x: f64, j: usize) -> f64 {
    let mut p = vec![0.0, 1.0]; // P_0(t) = t
    for _ in 0..j {
        let dp: Vec<f64> = (1..p.len()).map(|i| i as f64 * p[i]).collect();
        let mut next = vec![0.0; dp.len() + 2];
        for (i, c) in dp.iter().enumerate() {
            next[i] += c;
            next[i + 2] -= c;
        }
        p = next;
    }
    let t = x.tanh();
    p.iter().rev().fold(0.0, |acc, c| acc * t + c)
}

type Closed = (
    &'static str,
    fn(Taylor<f64, 6>) -> Taylor<f64, 6>,
    fn(f64, usize) -> f64,
    [f64; 2],
);

fn closed_forms() -> Vec<Closed> {
    vec![
        ("exp", |x| x.exp(), |x, _| x.exp(), [-2.0, 2.0]),
        (
            "sin",
            |x| x.sin(),
            |x, j| (x + j as f64 * std::f64::consts::FRAC_PI_2).sin(),
            [-3.0, 3.0],
        ),
        (
            "cos",
            |x| x.cos(),
            |x, j| (x + j as f64 * std::f64::consts::FRAC_PI_2).cos(),
            [-3.0, 3.0],
        ),
        (
            "sinh",
            |x| x.sinh(),
            |x, j| if j % 2 == 0 { x.sinh() } else { x.cosh() },
            [-2.0, 2.0],
        ),
        (
            "ln(1+x)",
            |x| (x + 1.0).ln(),
            |x, j| {
                if j == 0 {
                    (1.0 + x).ln()
                } else {
                    (-1f64).powi(j as i32 - 1) * factorial(j - 1) / (1.0 + x).powi(j as i32)
                }
            },
            [-0.5, 2.0],
        ),
        (
            "ln_1p",
            |x| x.ln_1p(),
            |x, j| {
                if j == 0 {
                    x.ln_1p()
                } else {
                    (-1f64).powi(j as i32 - 1) * factorial(j - 1) / (1.0 + x).powi(j as i32)
                }
            },
            [-0.5, 2.0],
        ),
        (
            "1/(1+x)",
            |x| (x + 1.0).rdiv(1.0),
            |x, j| (-1f64).powi(j as i32) * factorial(j) / (1.0 + x).powi(j as i32 + 1),
            [-0.5, 2.0],
        ),
        (
            "sqrt",
            |x| x.sqrt(),
            |x, j| falling(0.5, j) * x.powf(0.5 - j as f64),
            [0.2, 4.0],
        ),
        (
            "powf 2.5",
            |x| x.powf(Taylor::cst(2.5)),
            |x, j| falling(2.5, j) * x.powf(2.5 - j as f64),
            [0.2, 4.0],
        ),
        (
            "powi -3",
            |x| x.powi(-3),
            |x, j| falling(-3.0, j) * x.powi(-3 - j as i32),
            [0.2, 4.0],
        ),
        (
            "atan",
            |x| x.atan(),
            |x, j| {
                if j == 0 {
                    x.atan()
                } else {
                    let theta = std::f64::consts::FRAC_PI_2 - x.atan();
                    (-1f64).powi(j as i32 - 1)
                        * factorial(j - 1)
                        * (1.0 + x * x).powf(-(j as f64) / 2.0)
                        * (j as f64 * theta).sin()
                }
            },
            [-3.0, 3.0],
        ),
        ("tanh", |x| x.tanh(), tanh_tower, [-2.0, 2.0]),
        (
            "exp(2x)·sin",
            |x| (x * 2.0).exp() * x.sin(),
            |x, j| {
                // (2 + i)^j e^{(2+i)x}: modulus √5^j, phase j·atan(1/2).
                5f64.powf(j as f64 / 2.0) * (2.0 * x).exp() * (x + j as f64 * 0.5f64.atan()).sin()
            },
            [-1.0, 1.0],
        ),
    ]
}

#[test]
fn towers_match_closed_forms() {
    for (name, f, closed, [lo, hi]) in closed_forms() {
        for x in points(lo, hi) {
            let t = f(Taylor::variable(x, 1.0));
            for j in 0..=6 {
                let (got, want) = (t.derivative(j), closed(x, j));
                assert!(
                    close(got, want, j),
                    "{name} at {x}, derivative {j}: {got} vs {want}"
                );
            }
        }
    }
}

/// A polynomial written with every operator form, evaluated at any reading.
fn poly<D: Reading<f64>>(x: D) -> D {
    let y = x * x * 3.0 - x * 0.5 + 1.25;
    let z = (y * x).rsub(2.0) + x.powi(3) * 0.75;
    let mut w = z * y;
    w -= x * 4.0;
    w += y.rmul(0.125) * x;
    w * w + x / 4.0
}

/// At dyadic points every operation of a polynomial is exact in both readings, so the
/// recurrences and the nested chain rule must agree to the last bit.
#[test]
fn polynomial_coefficients_equal_nested_duals_bit_for_bit() {
    for i in -16..=16 {
        let x = f64::from(i) / 8.0;
        let t2 = poly(Taylor::<f64, 2>::variable(x, 1.0));
        let n2 = poly(N2::seed(x));
        assert_eq!(t2.value().to_bits(), n2.deriv(0).to_bits(), "value at {x}");
        assert_eq!(t2.coeff(1).to_bits(), n2.deriv(1).to_bits(), "first at {x}");
        assert_eq!(
            (t2.coeff(2) * 2.0).to_bits(),
            n2.deriv(2).to_bits(),
            "second at {x}"
        );
        assert_eq!(
            t2.derivative(2).to_bits(),
            n2.deriv(2).to_bits(),
            "second at {x}"
        );
        let t3 = poly(Taylor::<f64, 3>::variable(x, 1.0));
        let n3 = poly(N3::seed(x));
        assert_eq!(
            t3.derivative(3).to_bits(),
            n3.deriv(3).to_bits(),
            "third at {x}"
        );
        assert_eq!(poly(x).to_bits(), t3.value().to_bits(), "primal at {x}");
    }
}

#[test]
fn second_and_third_order_agree_with_forward_over_forward() {
    for (id, &(name, lo, hi)) in CASES.iter().enumerate() {
        for x in points(lo, hi) {
            let t = eval(id, Taylor::<f64, 3>::variable(x, 1.0));
            let n2 = eval(id, N2::seed(x));
            let n3 = eval(id, N3::seed(x));
            assert!(close(t.derivative(2), n2.deriv(2), 2), "{name} at {x}");
            assert!(close(t.derivative(3), n3.deriv(3), 3), "{name} at {x}");
        }
    }
}

#[test]
fn constants_stay_constant_at_singular_points() {
    // A constant input never runs a recurrence: no NaN from derivatives at 0.
    let zero = Taylor::<f64, 4>::constant(0.0);
    for y in [
        zero.sqrt(),
        zero.ln().exp(),
        zero.cbrt(),
        zero.powf(Taylor::cst(0.5)),
        zero.asin(),
    ] {
        assert!(y.higher().iter().all(|c| *c == 0.0), "{y:?}");
    }
    // x² and x³ at x = 0 through powi/powf: exact towers, no 0 · ∞.
    let x = Taylor::<f64, 4>::variable(0.0, 1.0);
    let sq = x.powi(2);
    assert_eq!(
        [sq.derivative(1), sq.derivative(2), sq.derivative(3)],
        [0.0, 2.0, 0.0]
    );
    let cube = x.powf(Taylor::cst(3.0));
    assert_eq!(cube.derivative(3), 6.0);
    assert_eq!(cube.derivative(4), 0.0);
    assert_eq!(x.powi(0).higher(), &[0.0; 4]);
    // sqrt at 0 along a direction: the derivative is infinite, as it is.
    assert!(!x.sqrt().derivative(1).is_finite());
}

#[test]
fn compose_applies_a_derivative_list() {
    // f = sin through its derivative list, against the built-in rule.
    for x in points(-2.0, 2.0) {
        let t = Taylor::<f64, 5>::variable(x, 0.75);
        let derivs: Vec<f64> = (0..=5)
            .map(|j| (x + j as f64 * std::f64::consts::FRAC_PI_2).sin())
            .collect();
        let (a, b) = (t.compose(&derivs), t.sin());
        for j in 0..=5 {
            assert!(
                close(a.derivative(j), b.derivative(j), j),
                "sin at {x}, {j}"
            );
        }
        // Missing derivatives read as NaN, from the first order missing.
        let short = t.compose(&derivs[..3]);
        assert!(short.derivative(2).is_finite() && short.derivative(3).is_nan());
    }
}

#[test]
fn taylor_over_ndual_mixes_directions() {
    // Taylor in x, a tangent in y: ∂/∂y of the x-tower of f = x² sin y.
    let (x, y) = (0.7, 0.4);
    let tx = Taylor::<N1, 3>::variable(NDual::constant(x), NDual::constant(1.0));
    let ty = Taylor::<N1, 3>::constant(NDual::variable(y, 0));
    let f = tx * tx * ty.sin();
    assert_eq!(<Taylor<N1, 3> as Real>::ORDER, 4);
    let d2 = f.derivative(2); // ∂²f/∂x² = 2 sin y, its y-partial 2 cos y
    assert!((d2.value() - 2.0 * y.sin()).abs() < 1e-15);
    assert!((d2.partial(0) - 2.0 * y.cos()).abs() < 1e-15);
    assert_eq!(f.derivative(3).partial(0), 0.0);
}

#[test]
fn formatting_comparisons_and_num_traits() {
    let t = Taylor::<f64, 2>::new(0.5, [1.0, -0.25]);
    assert_eq!(t.to_string(), "0.5 + 1t + -0.25t^2");
    assert_eq!(format!("{t:?}"), "Taylor(0.5; [1.0, -0.25])");
    assert!(t < 1.0);
    assert!(2.0 > t);
    assert!(t == 0.5);
    assert!(t == Taylor::constant(0.5));
    assert!(0.25 < t);
    assert_eq!(<Taylor<f64, 2> as Real>::ORDER, 2);
    // Generic num-traits code runs on Taylor values.
    fn g<T: num_traits::Float>(x: T) -> T {
        x.sin() * x.exp() + T::from(2.0).unwrap_or(T::nan()) * x.powi(2)
    }
    let x = Taylor::<f64, 4>::variable(0.3, 1.0);
    let (a, b) = (g(x), Real::sin(x) * Real::exp(x) + x.powi(2) * 2.0);
    for j in 0..=4 {
        assert!(close(a.derivative(j), b.derivative(j), j));
    }
    let s: Taylor<f64, 4> = [x, x, x].iter().sum();
    assert_eq!(s.derivative(1), 3.0);
    let p: Taylor<f64, 4> = [x, x].into_iter().product();
    assert_eq!(p.derivative(2), 2.0);
}

/// The same expression at `Taylor<f32, 4>` and `Taylor<f64, 4>`.
macro_rules! both {
    ($(|$x:ident| $e:expr;)*) => {
        vec![$((
            stringify!($e),
            (|$x: Taylor<f32, 4>| $e) as fn(Taylor<f32, 4>) -> Taylor<f32, 4>,
            (|$x: Taylor<f64, 4>| $e) as fn(Taylor<f64, 4>) -> Taylor<f64, 4>,
        )),*]
    };
}

#[test]
fn f32_towers_follow_f64_ones() {
    let cases = both! {
        |x| x.exp() * x.sin();
        |x| (x * x + 1.0).ln() / x.cosh();
        |x| x.atan() + x.tanh() * 2.0;
        |x| (x + 2.0).sqrt().powf(Taylor::cst(1.5));
        |x| x.powi(3).rdiv(1.0) + x.asinh();
        |x| x.sin_cos().1.exp2() - x.hypot(Taylor::cst(0.5));
        |x| (x * 0.5).asin() + (x * 0.3).acos() - (x * 0.4).atanh();
        |x| x.atan2(Taylor::cst(1.5)) + x.cbrt() * x.tan();
    };
    for (name, f32_case, f64_case) in cases {
        for i in 0..5 {
            let x = 0.3 + 0.25 * f64::from(i);
            let a = f32_case(Taylor::variable(x as f32, 1.0));
            let b = f64_case(Taylor::variable(f64::from(x as f32), 1.0));
            assert_eq!(a.value(), f32_case(Taylor::constant(x as f32)).value());
            for j in 0..=4 {
                let (got, want) = (f64::from(a.derivative(j)), b.derivative(j));
                assert!(
                    (got - want).abs() <= 1e-4 * want.abs().max(1.0),
                    "{name} at {x}, derivative {j}: {got} vs {want}"
                );
            }
        }
    }
}
