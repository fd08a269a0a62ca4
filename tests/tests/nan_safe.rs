//! NaN-safe lanes: a non-finite value never makes another direction's partial NaN.
//!
//! In `x * y` with `x = ∞`, the direction in which only `x` moves has partial
//! `ẋ y + x ẏ = y + ∞ · 0`; the product `∞ · 0` must count as zero there, so that lane
//! is exactly `y`, and a lane in which neither moves stays exactly zero. Checked for
//! every operator and the float functions with a product in their rule, at the scalar
//! readings with lanes (NDual, ZDual, DiagJet) at widths 1 … 64, through the drivers
//! (`gradient` at every chunk), and through the linear-algebra rules, whose GEMMs take
//! a masked path when a primal operand holds a non-finite value.

use lifted::linalg::{Mat, dot, matmul, matvec};
use lifted::{DiagJet, NDual, Real, ZDual, autodiff};

const INF: f64 = f64::INFINITY;

/// `x` seeded in lane 0 and `y` in lane 1 of a width-`N` dual (`N ≥ 3`, lane 2 moved
/// by neither).
fn pair<const N: usize>(x: f64, y: f64) -> (NDual<f64, N>, NDual<f64, N>) {
    (NDual::variable(x, 0), NDual::variable(y, 1))
}

/// Every binary case: `f(x, y)` with a non-finite `x`, the partial in `y`'s lane
/// expected from the closed form, and lane 2 exactly zero.
#[allow(clippy::type_complexity)]
fn binary_cases<const N: usize>() -> Vec<(
    &'static str,
    f64,
    f64,
    fn(NDual<f64, N>, NDual<f64, N>) -> NDual<f64, N>,
    f64,
)> {
    vec![
        // ∂(xy)/∂x = y although x = ∞.
        ("x * y, lane x", INF, 2.0, |x, y| x * y, f64::NAN),
        ("y * x", 2.0, INF, |y, x| y * x, f64::NAN),
        (
            "x * x + sin y",
            INF,
            0.5,
            |x, y| x * x + y.sin(),
            0.5f64.cos(),
        ),
        ("exp(x) + y", INF, 0.5, |x, y| x.exp() + y, 1.0),
        ("x.powi(2) + y", INF, 0.5, |x, y| x.powi(2) + y, 1.0),
        ("x.powi(3) + y", INF, 0.5, |x, y| x.powi(3) + y, 1.0),
        ("x / y at y = 0 and y", 1.0, 0.0, |x, y| x / y + x, f64::NAN),
        ("y / x", INF, 2.0, |x, y| y / x, 0.0),
        ("x.mul_add(x, y)", INF, 0.5, |x, y| x.mul_add(x, y), 1.0),
        (
            "x.powf(2.0) + y",
            INF,
            0.5,
            |x, y| x.powf(NDual::constant(2.0)) + y,
            1.0,
        ),
        ("x * 0 + y, x = NaN", f64::NAN, 0.5, |x, y| x * 0.0 + y, 1.0),
        ("x.hypot(y) + y", INF, 0.5, |x, y| x.hypot(y) + y, 1.0),
        // ∂/∂y = x / (x² + y²) is ∞ / ∞ at x = ∞, in y's own lane: only lane 2 is checked.
        ("y.atan2(x)", INF, 0.5, |x, y| y.atan2(x), f64::NAN),
        ("x * ∞ constant + y", 1.0, 0.5, |x, y| x * INF + y, 1.0),
        ("∞ constant * x + y", 1.0, 0.5, |x, y| INF * x + y, 1.0),
        ("x / 0 constant + y", 1.0, 0.5, |x, y| x / 0.0 + y, 1.0),
        (
            "ln(x - 1) + y at x = 1",
            1.0,
            0.5,
            |x, y| (x - 1.0).ln() + y,
            1.0,
        ),
        (
            "sqrt(x) * y at x = 0",
            0.0,
            0.5,
            |x, y| x.sqrt() * y + y,
            1.0,
        ),
        (
            "x * NaN constant + y",
            1.0,
            0.5,
            |x, y| x * f64::NAN + y,
            1.0,
        ),
    ]
}

fn check_binary<const N: usize>() {
    for (name, x0, y0, f, dy) in binary_cases::<N>() {
        let (x, y) = pair::<N>(x0, y0);
        let out = f(x, y);
        if !dy.is_nan() {
            assert_eq!(out.partial(1), dy, "{name} at width {N}: ∂/∂y");
        }
        for k in 2..N {
            let p = out.partial(k);
            assert!(p == 0.0, "{name} at width {N}: untouched lane {k} is {p}");
        }
    }
    // x * y with x = ∞: the lane in which only x moves is y, exactly.
    let (x, y) = pair::<N>(INF, 2.0);
    assert_eq!((x * y).partial(0), 2.0, "x * y at width {N}");
    assert_eq!((y * x).partial(0), 2.0, "y * x at width {N}");
    // x / y with y = ∞: the lane in which only x moves is 1 / ∞ = 0; y's is -x/y² = -0.
    let (x, y) = pair::<N>(1.0, INF);
    assert_eq!((x / y).partial(0), 0.0, "x / y at width {N}");
    assert!(!(x / y).partial(1).is_nan(), "x / y at width {N}");
}

#[test]
fn binary_operations_at_every_width() {
    check_binary::<3>();
    check_binary::<4>();
    check_binary::<8>();
    check_binary::<16>();
    check_binary::<33>();
    check_binary::<64>();
}

#[test]
fn width_one_keeps_the_moving_lane() {
    // At width 1 the only lane is x's: ∂(x · y)/∂x = y with y's value infinite… and
    // ∂(x · y)/∂x with x infinite and y moving not at all is y.
    let x = NDual::<f64, 1>::variable(INF, 0);
    let y = NDual::<f64, 1>::constant(2.0);
    assert_eq!((x * y).partial(0), 2.0);
    let x = NDual::<f64, 1>::variable(0.5, 0);
    let c = NDual::<f64, 1>::constant(INF);
    assert_eq!((x.sin() + c.exp() * 0.0).partial(0), 0.5f64.cos());
    assert_eq!((x + c * c).partial(0), 1.0);
}

#[test]
fn zero_skipping_and_second_order_readings() {
    // ZDual: the same rules with flat operands skipped.
    let x = ZDual::<f64, 3>::variable(INF, 0);
    let y = ZDual::<f64, 3>::variable(2.0, 1);
    let p = (x * y).to_ndual();
    assert_eq!(p.partial(0), 2.0);
    assert_eq!(p.partial(2), 0.0);
    let q = (y / ZDual::<f64, 3>::variable(0.0, 0)).to_ndual();
    assert_eq!(q.partial(2), 0.0);
    // DiagJet: first and second parts of the untouched directions stay zero.
    let x = DiagJet::<f64, 3>::variable(INF, 0);
    let y = DiagJet::<f64, 3>::variable(0.5, 1);
    let out = x * y + y.sin();
    assert_eq!(out.first()[2], 0.0);
    assert_eq!(out.second()[2], 0.0);
    let out = x.exp() + y * y;
    assert_eq!(out.first()[1], 1.0);
    assert_eq!(out.second()[1], 2.0);
    let out = y / DiagJet::<f64, 3>::constant(0.0) + y;
    assert_eq!(out.second()[2], 0.0);
}

/// Σᵢ xᵢ² + sin(xᵢ) with no product between the inputs: each partial is its own.
#[autodiff(forward)]
fn separable(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for &v in x {
        s += v * v + v.sin();
    }
    s
}

/// x₀² + Σᵢ₌₁ sin xᵢ, the example.
#[autodiff(forward)]
fn square_plus_sines(x: &[f64]) -> f64 {
    let mut s = x[0] * x[0];
    for v in x.iter().skip(1) {
        s += v.sin();
    }
    s
}

#[test]
fn gradients_at_every_chunk() {
    let n = 100;
    let mut x: Vec<f64> = (0..n).map(|i| 0.1 * i as f64 - 3.0).collect();
    x[0] = INF;
    for chunk in [1, 2, 3, 4, 8, 16, 32, 64] {
        let (_, g) = lifted::gradient_with_chunk(square_plus_sines::Rule, &x, chunk).unwrap();
        for i in 1..n {
            assert_eq!(g[i], x[i].cos(), "∂/∂x{i} at chunk {chunk}");
        }
        let (_, g) = lifted::gradient_with_chunk(separable::Rule, &x, chunk).unwrap();
        let nan = g[1..].iter().filter(|v| v.is_nan()).count();
        assert_eq!(nan, 0, "{nan} of {} partials NaN at chunk {chunk}", n - 1);
        for i in 1..n {
            assert_eq!(g[i], x[i] * 2.0 + x[i].cos(), "∂/∂x{i} at chunk {chunk}");
        }
    }
}

/// Σᵢ xᵢ yᵢ through the linear-algebra rule.
#[autodiff(forward)]
fn dot_of(x: &[f64], y: &[f64]) -> f64 {
    dot(x, y)
}

/// Σ (A x)ᵢ for a constant 3 × 3 `a`.
#[autodiff(forward)]
fn matvec_sum(#[constant] a: &[f64], x: &[f64]) -> f64 {
    let y: Vec<f64> = matvec(Mat::new(a, 3, 3), x);
    y.iter().sum()
}

/// Σ (A B)ᵢⱼ for an active 2 × 2 `a` and an active 2 × 2 `b`.
#[autodiff(forward)]
fn matmul_sum(a: &[f64], b: &[f64]) -> f64 {
    let c: Vec<f64> = matmul(Mat::new(a, 2, 2), Mat::new(b, 2, 2));
    c.iter().sum()
}

#[test]
fn linear_algebra_rules_mask_non_finite_primals() {
    let x = vec![INF, 1.0, 2.0];
    let y = vec![0.5, -1.0, 3.0];
    for chunk in [1, 2, 4, 8] {
        let (_, g) =
            lifted::gradient_with_chunk(dot_of::Rule, (x.clone(), y.clone()), chunk).unwrap();
        // ∂/∂xᵢ = yᵢ for every i; ∂/∂yⱼ = xⱼ.
        for i in 0..3 {
            assert_eq!(g[i], y[i], "∂/∂x{i} at chunk {chunk}");
        }
        for j in 0..3 {
            assert_eq!(g[3 + j], x[j], "∂/∂y{j} at chunk {chunk}");
        }
    }
    // A holds ∞ in row 0, column 0: ∂(Σ A x)/∂xⱼ = Σᵢ Aᵢⱼ, finite for j = 1, 2.
    let a = vec![INF, 1.0, 2.0, 0.5, 1.5, -1.0, 2.0, 0.0, 1.0];
    let x = vec![0.1, 0.2, 0.3];
    for chunk in [1, 2, 4] {
        let (_, g) =
            lifted::gradient_with_chunk(matvec_sum::Rule, (a.clone(), x.clone()), chunk).unwrap();
        assert_eq!(g[1], 1.0 + 1.5 + 0.0, "chunk {chunk}");
        assert_eq!(g[2], 2.0 - 1.0 + 1.0, "chunk {chunk}");
    }
    // ∂(Σ A B)/∂Bₗⱼ = Σᵢ Aᵢₗ and ∂/∂Aᵢₗ = Σⱼ Bₗⱼ: with A₀₀ = ∞ the other entries stay exact.
    let a = vec![INF, 1.0, 2.0, 3.0];
    let b = vec![0.5, 1.5, -1.0, 2.0];
    for chunk in [1, 2, 4, 8] {
        let (_, g) =
            lifted::gradient_with_chunk(matmul_sum::Rule, (a.clone(), b.clone()), chunk).unwrap();
        assert_eq!(g[1], -1.0 + 2.0, "∂/∂a01 at chunk {chunk}");
        assert_eq!(g[2], 0.5 + 1.5, "∂/∂a10 at chunk {chunk}");
        assert_eq!(g[3], -1.0 + 2.0, "∂/∂a11 at chunk {chunk}");
        assert_eq!(g[6], 1.0 + 3.0, "∂/∂b10 at chunk {chunk}");
        assert_eq!(g[7], 1.0 + 3.0, "∂/∂b11 at chunk {chunk}");
    }
}

#[test]
fn finite_inputs_are_unchanged() {
    // The masked paths run only for non-finite factors: at finite points every rule is
    // the plain product, bit for bit (the sign of a zero partial included).
    let (x, y) = pair::<4>(-0.0, 3.0);
    assert_eq!(
        (x * y).partial(2).to_bits(),
        (0.0f64 * 3.0 + -0.0f64 * 0.0).to_bits()
    );
    // −0 · 2 + (−1.5) · 0 = −0, where a strong-zero product would give +0.
    let m = NDual::<f64, 1>::new(-1.5, [-0.0]) * NDual::<f64, 1>::constant(2.0);
    assert_eq!(m.partial(0).to_bits(), (-0.0f64).to_bits());
    let m = NDual::<f64, 1>::new(-1.5, [-0.0]) * 2.0;
    assert_eq!(m.partial(0).to_bits(), (-0.0f64).to_bits());
    let r = Real::sin(NDual::<f64, 2>::new(1.0, [-0.0, 1.0]));
    assert_eq!(r.partial(0).to_bits(), (-0.0f64 * 1.0f64.cos()).to_bits());
}
