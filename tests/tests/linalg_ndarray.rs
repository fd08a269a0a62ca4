//! `ndarray` interop (feature `ndarray`): ndarray arguments and results of annotated
//! functions, `.dot` dispatching to the `linalg` rules, checked by `check_rule`.

use lifted::testing::{CheckOptions, LaneCheck, check_rule};
use lifted::{Constant, FRule, autodiff};
use ndarray::{Array1, Array2, ArrayView1, ArrayView2};

fn check<R: FRule<Float = f64>>(rule: R, args: R::Args) {
    let options = CheckOptions::new()
        .widths(&[1, 2, 3, 8, 16])
        .lanes(LaneCheck::reduction(64));
    let report = check_rule(rule, args, &options).expect("check_rule runs");
    assert!(report.passed(), "{report}");
}

fn matrix(rows: usize, cols: usize, seed: u64) -> Array2<f64> {
    let mut rng = lifted::testing::SplitMix64::new(seed);
    Array2::from_shape_fn((rows, cols), |_| rng.uniform(-1.0, 1.0))
}

fn vector(n: usize, seed: u64) -> Array1<f64> {
    let mut rng = lifted::testing::SplitMix64::new(seed);
    Array1::from_shape_fn(n, |_| rng.uniform(-1.0, 1.0))
}

/// `tanh(A x)` with both active: `.dot` is the matvec rule.
#[autodiff(forward)]
fn layer(a: ArrayView2<'_, f64>, x: ArrayView1<'_, f64>) -> Array1<f64> {
    let y = a.dot(&x);
    y.mapv(|v| v.tanh())
}

#[test]
fn matrix_vector_dot_matches_finite_differences() {
    check(layer::Rule, (matrix(3, 4, 1), vector(4, 2)));
}

/// Matrix–matrix, vector–matrix and vector–vector products of owned arrays, with a
/// constant matrix.
#[autodiff(forward)]
fn products(#[constant] w: ArrayView2<'_, f64>, b: Array2<f64>, x: Array1<f64>) -> f64 {
    let wb = w.dot(&b);
    let xw: Array1<f64> = x.dot(&wb);
    let s = xw.dot(&xw);
    s + wb.sum()
}

#[test]
fn other_products_match_finite_differences() {
    check(
        products::Rule,
        (Constant(matrix(3, 4, 3)), matrix(4, 2, 4), vector(3, 5)),
    );
}

#[test]
fn the_primal_is_ndarrays_own_product() {
    let (a, x) = (matrix(3, 4, 6), vector(4, 7));
    let ours = layer(a.view(), x.view());
    let theirs = a.dot(&x).mapv(f64::tanh);
    for (u, v) in ours.iter().zip(&theirs) {
        assert!((u - v).abs() <= 1e-15);
    }
    let (value, jac) = lifted::jacobian(layer::Rule, (a.clone(), x.clone())).unwrap();
    assert_eq!(value.len(), 3);
    // ∂ tanh(A x)_i / ∂ x_j = (1 − y_i²) A_ij, the last 4 columns.
    for i in 0..3 {
        for j in 0..4 {
            let want = (1.0 - value[i] * value[i]) * a[(i, j)];
            let got = jac[(i, 12 + j)];
            assert!(
                (got - want).abs() <= 1e-14,
                "J[{i},{j}] = {got}, want {want}"
            );
        }
    }
}
