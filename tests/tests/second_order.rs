//! Second-order drivers (`lifted::hessian`, `hvp`, `hessian_diag`) against closed
//! forms and finite differences of the gradient, at every nested width (1, 2, 4, 8 and
//! a large request rounded down); bitwise agreement between widths and between
//! drivers; argument selection; errors instead of panics.

use lifted::drivers::{Driver, Jacobian};
use lifted::testing::SplitMix64;
use lifted::{Error, autodiff};

/// W2's Rosenbrock function.
#[autodiff(forward, chunk = 8)]
pub fn rosenbrock(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        s += (1.0 - x[i]).powi(2) + 100.0 * (x[i + 1] - x[i] * x[i]).powi(2);
    }
    s
}

/// Its Hessian, by hand (row-major `n × n`).
fn rosenbrock_hessian(x: &[f64]) -> Vec<f64> {
    let n = x.len();
    let mut h = vec![0.0; n * n];
    for i in 0..n - 1 {
        h[i * n + i] += 2.0 - 400.0 * (x[i + 1] - 3.0 * x[i] * x[i]);
        h[(i + 1) * n + i + 1] += 200.0;
        h[i * n + i + 1] += -400.0 * x[i];
        h[(i + 1) * n + i] += -400.0 * x[i];
    }
    h
}

/// A scalar of a vector and a scalar: `y · Σ sin(xᵢ) xᵢ₊₁ + exp(x₀ y)`.
#[autodiff(forward, chunk = 4)]
fn mixed(x: &[f64], y: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        s += x[i].sin() * x[i + 1];
    }
    y * s + (x[0] * y).exp()
}

/// A vector result: `(x₀³ x₁, exp(x₁) / x₀, ln x₂ · x₀)`.
#[autodiff(forward)]
fn three(x: &[f64]) -> (f64, f64, f64) {
    (x[0].powi(3) * x[1], x[1].exp() / x[0], x[2].ln() * x[0])
}

/// The same in `f32`.
#[autodiff(forward)]
fn three32(x: &[f32]) -> (f32, f32, f32) {
    (x[0].powi(3) * x[1], x[1].exp() / x[0], x[2].ln() * x[0])
}

fn point(n: usize, seed: u64) -> Vec<f64> {
    let mut rng = SplitMix64::new(seed);
    (0..n).map(|_| rng.uniform(-1.0, 1.0)).collect()
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + b.abs())
}

const WIDTHS: [usize; 5] = [1, 2, 3, 8, 64];

#[test]
fn hessian_matches_closed_form_at_every_width() {
    let x = point(11, 5);
    let want = rosenbrock_hessian(&x);
    let mut first: Option<Jacobian<f64>> = None;
    for w in WIDTHS {
        let (value, grad, h) = Driver::new(rosenbrock::Rule)
            .width(w)
            .hessian(&x[..])
            .unwrap();
        assert_eq!(value, rosenbrock(&x));
        let (_, g) = lifted::gradient(rosenbrock::Rule, &x[..]).unwrap();
        assert_eq!(grad, g, "width {w}: gradient differs from lifted::gradient");
        assert_eq!(h.shape(), (11, 11));
        for (i, (&a, &b)) in h.data().iter().zip(&want).enumerate() {
            assert!(close(a, b, 1e-12), "width {w}, entry {i}: {a} vs {b}");
        }
        match &first {
            None => first = Some(h),
            Some(f) => assert_eq!(f, &h, "width {w} differs bitwise from width 1"),
        }
    }
}

#[test]
fn hessian_matches_finite_differences_of_the_gradient() {
    let x = point(5, 9);
    let y = 0.7;
    let (_, _, h) = lifted::hessian(mixed::Rule, (&x, y)).unwrap();
    assert_eq!(h.shape(), (6, 6));
    let eps = 1e-6;
    for j in 0..6 {
        let shift = |s: f64| {
            let (mut xs, mut ys) = (x.clone(), y);
            if j < 5 {
                xs[j] += s;
            } else {
                ys += s;
            }
            lifted::gradient(mixed::Rule, (&xs, ys)).unwrap().1
        };
        let (up, down) = (shift(eps), shift(-eps));
        for i in 0..6 {
            let fd = (up[i] - down[i]) / (2.0 * eps);
            assert!(
                close(h[(i, j)], fd, 1e-7),
                "({i}, {j}): {} vs {fd}",
                h[(i, j)]
            );
        }
    }
}

#[test]
fn hvp_equals_hessian_times_vector() {
    let x = point(13, 2);
    let v = point(13, 3);
    let want = rosenbrock_hessian(&x);
    let mut first = None;
    for w in WIDTHS {
        let (value, hv) = Driver::new(rosenbrock::Rule)
            .width(w)
            .hvp(&x[..], &v[..])
            .unwrap();
        assert_eq!(value, rosenbrock(&x));
        for i in 0..13 {
            let dot: f64 = (0..13).map(|j| want[i * 13 + j] * v[j]).sum();
            assert!(
                close(hv[i], dot, 1e-12),
                "width {w}, {i}: {} vs {dot}",
                hv[i]
            );
        }
        match &first {
            None => first = Some(hv),
            Some(f) => assert_eq!(f, &hv, "width {w} differs bitwise"),
        }
    }
}

#[test]
fn hessian_diag_matches_closed_forms_for_every_output() {
    let x = [1.5, 0.5, 2.0];
    let (out, d2) = lifted::hessian_diag(three::Rule, &x[..]).unwrap();
    assert_eq!(out, three(&x));
    let want = [
        [6.0 * x[0] * x[1], 0.0, 0.0],
        [2.0 * x[1].exp() / x[0].powi(3), x[1].exp() / x[0], 0.0],
        [0.0, 0.0, -x[0] / (x[2] * x[2])],
    ];
    assert_eq!(d2.shape(), (3, 3));
    for i in 0..3 {
        for j in 0..3 {
            assert!(close(d2[(i, j)], want[i][j], 1e-14), "({i}, {j})");
        }
    }
    let x32 = [1.5_f32, 0.5, 2.0];
    let (_, d32) = lifted::hessian_diag(three32::Rule, &x32[..]).unwrap();
    for i in 0..3 {
        for j in 0..3 {
            let (a, b) = (f64::from(d32[(i, j)]), want[i][j]);
            assert!(
                (a - b).abs() <= 1e-5 * (1.0 + b.abs()),
                "f32 ({i}, {j}): {a} vs {b}"
            );
        }
    }
}

#[test]
fn hessian_diag_is_the_hessians_diagonal_bit_for_bit() {
    let x = point(9, 4);
    let (_, _, h) = lifted::hessian(rosenbrock::Rule, &x[..]).unwrap();
    let (_, d2) = lifted::hessian_diag(rosenbrock::Rule, &x[..]).unwrap();
    for j in 0..9 {
        assert_eq!(d2[(0, j)], h[(j, j)], "entry {j}");
    }
}

#[test]
fn argument_selection_picks_columns() {
    let x = point(4, 8);
    let y = -0.4;
    let (_, _, full) = lifted::hessian(mixed::Rule, (&x, y)).unwrap();
    // With respect to y, then x.
    let (_, _, h) = Driver::new(mixed::Rule)
        .wrt(&[1, 0])
        .hessian((&x, y))
        .unwrap();
    let order = [4, 0, 1, 2, 3];
    for (a, &i) in order.iter().enumerate() {
        for (b, &j) in order.iter().enumerate() {
            assert_eq!(h[(a, b)], full[(i, j)], "({a}, {b})");
        }
    }
    let (_, d2) = Driver::new(mixed::Rule)
        .wrt(&[1])
        .hessian_diag((&x, y))
        .unwrap();
    assert_eq!(d2.shape(), (1, 1));
    assert_eq!(d2[(0, 0)], full[(4, 4)]);
}

#[test]
fn bad_input_is_an_error() {
    let x = [1.0, 2.0, 3.0];
    assert!(matches!(
        lifted::hessian(three::Rule, &x[..]),
        Err(Error::NotScalarOutput { dim: 3, .. })
    ));
    assert!(matches!(
        lifted::hvp(rosenbrock::Rule, &x[..], &[1.0, 2.0][..]),
        Err(Error::TangentShape { .. })
    ));
    assert!(matches!(
        Driver::new(rosenbrock::Rule).width(0).hessian(&x[..]),
        Err(Error::UnsupportedWidth { .. })
    ));
    assert!(matches!(
        Driver::new(rosenbrock::Rule).width(0).hessian_diag(&x[..]),
        Err(Error::UnsupportedWidth { .. })
    ));
    assert!(
        Driver::new(rosenbrock::Rule)
            .wrt(&[3])
            .hessian(&x[..])
            .is_err()
    );
}

/// `x ↦ d/dy (x + y)` at `y = 1`, as a primitive whose rule differentiates internally
/// with `nested_derivative` at whatever reading the caller runs at.
fn inner_slope(x: f64) -> f64 {
    let h = 1e-3;
    ((x + 1.0 + h) - (x + 1.0 - h)) / (2.0 * h)
}

/// The rule of [`inner_slope`].
mod inner_slope {
    use lifted::drivers::nested_derivative;
    use lifted::{NDual, Reading};

    pub fn frule<D: Reading<f64>>(x: D) -> D
    where
        NDual<D, 1>: Reading<f64>,
    {
        nested_derivative(|y| NDual::constant(x) + y, D::constant(1.0)).1
    }
}

/// `x · d/dy (x + y)`: its derivative in `x` is 1; confusing the inner perturbation
/// with the outer one would give 2.
#[autodiff(forward)]
fn confusion(x: f64) -> f64 {
    x * inner_slope(x)
}

#[test]
fn perturbations_are_not_confused() {
    let (y, dy) = lifted::derivative(confusion::Rule, 1.0).unwrap();
    assert_eq!(dy, 1.0);
    assert_eq!(y, confusion::frule::<f64>(1.0));
    // Second order through the nesting: d²/dx² is 0.
    let (_, d2) = lifted::hessian_diag(confusion::Rule, 1.0).unwrap();
    assert_eq!(d2[(0, 0)], 0.0);
}

#[test]
fn value_and_jacfwd_is_one_pass_of_the_jacobian() {
    let x = point(6, 12);
    let y = 0.3;
    let (v, jac) = lifted::value_and_jacfwd(mixed::Rule, (&x, y), &[1, 0]).unwrap();
    assert_eq!(v, mixed(&x, y));
    let (_, narrow) = Driver::new(mixed::Rule)
        .chunk::<1>()
        .wrt(&[1, 0])
        .jacobian((&x, y))
        .unwrap();
    assert_eq!(
        jac, narrow,
        "one wide pass equals width-1 passes bit for bit"
    );
    assert_eq!(jac.shape(), (1, 7));
    assert!(lifted::value_and_jacfwd(mixed::Rule, (&x, y), &[2]).is_err());
}
