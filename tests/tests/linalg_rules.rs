//! The array and matrix primitives of `lifted::linalg`, each called from an annotated
//! function and checked by `check_rule` against finite differences at widths 1, 2, 3,
//! 8 and 16 (lanes within a reduction tolerance: GEMM and solves sum in an order that
//! depends on the width), the primal reading bit for bit. Nested and Taylor readings
//! (the element-wise path) against closed forms; singular inputs give errors.

use lifted::linalg::{
    LinalgError, Mat, axpy, cholesky, dot, inverse, lu, matmul, matvec, norm2, scale, solve,
    solve_lower, solve_upper, sum,
};
use lifted::{Constant, NDual, NDualArray, autodiff};

#[path = "support/check.rs"]
mod check_support;
use check_support::check;

/// Deterministic, well-scaled test data.
fn data(n: usize, seed: u64) -> Vec<f64> {
    let mut rng = lifted::testing::SplitMix64::new(seed);
    (0..n).map(|_| rng.uniform(-1.0, 1.0)).collect()
}

/// A well-conditioned `n × n` matrix: random plus `n` on the diagonal.
fn dominant(n: usize, seed: u64) -> Vec<f64> {
    let mut a = data(n * n, seed);
    for i in 0..n {
        a[i * n + i] += n as f64;
    }
    a
}

/// A symmetric positive definite `n × n` matrix.
fn spd(n: usize, seed: u64) -> Vec<f64> {
    let a = dominant(n, seed);
    let mut s = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            s[i * n + j] = 0.5 * (a[i * n + j] + a[j * n + i]);
        }
    }
    s
}

#[autodiff(forward)]
fn vector_ops(alpha: f64, x: &[f64], y: &[f64]) -> f64 {
    let mut z = y.to_vec();
    axpy(alpha, x, &mut z);
    let w: Vec<f64> = scale(alpha, &z);
    dot(x, &w) + sum(&z) * norm2(y)
}

#[test]
fn vector_primitives_match_finite_differences() {
    check(vector_ops::Rule, (0.7, data(9, 1), data(9, 2)));
}

#[autodiff(forward)]
fn products(a: &[f64], b: &[f64], x: &[f64]) -> Vec<f64> {
    // A is 3 × 4, B is 4 × 2; x has 4 elements.
    let ab: Vec<f64> = matmul(Mat::new(a, 3, 4), Mat::new(b, 4, 2));
    let atx: Vec<f64> = matvec(Mat::new(a, 3, 4).t(), &ab[..3]);
    let mut out: Vec<f64> = matvec(Mat::new(a, 3, 4), x);
    out.extend_from_slice(&ab);
    out.extend_from_slice(&atx);
    out
}

#[test]
fn products_match_finite_differences() {
    check(products::Rule, (data(12, 3), data(8, 4), data(4, 5)));
}

#[autodiff(forward)]
fn transposed_products(a: &[f64], b: &[f64]) -> Vec<f64> {
    // Aᵀ is 3 × 4 (A stored 4 × 3), Bᵀ is 4 × 2 (B stored 2 × 4).
    let mut out: Vec<f64> = matmul(Mat::new(a, 4, 3).t(), Mat::new(b, 2, 4).t());
    let plain: Vec<f64> = matmul(Mat::new(b, 2, 4), Mat::new(a, 4, 3));
    out.extend_from_slice(&plain);
    out
}

#[test]
fn transposed_products_match_finite_differences() {
    check(transposed_products::Rule, (data(12, 6), data(8, 7)));
}

#[autodiff(forward)]
fn constant_matrix_chain(#[constant] w: &[f64], x: &[f64]) -> Vec<f64> {
    let n = x.len();
    let h: Vec<f64> = matvec(Mat::new(w, n, n), x);
    let mut t = Vec::with_capacity(n);
    for v in h.iter() {
        t.push(v.tanh());
    }
    matvec(Mat::new(w, n, n).t(), &t)
}

#[test]
fn constant_matrix_chain_matches_finite_differences() {
    check(
        constant_matrix_chain::Rule,
        (Constant(data(25, 8)), data(5, 9)),
    );
}

#[autodiff(forward)]
fn triangular(t: &[f64], b: &[f64]) -> Vec<f64> {
    let n = b.len();
    let mut x: Vec<f64> = solve_lower(Mat::new(t, n, n), b).unwrap();
    let y: Vec<f64> = solve_upper(Mat::new(t, n, n), b).unwrap();
    let z: Vec<f64> = solve_upper(Mat::new(t, n, n).t(), &y).unwrap();
    x.extend_from_slice(&z);
    x
}

#[test]
fn triangular_solves_match_finite_differences() {
    check(triangular::Rule, (dominant(4, 10), data(4, 11)));
}

#[autodiff(forward)]
fn lu_all(a: &[f64], b: &[f64]) -> Vec<f64> {
    let n = b.len();
    let f = lu(Mat::new(a, n, n)).unwrap();
    let mut out: Vec<f64> = f.solve(b);
    let inv: Vec<f64> = f.inverse();
    out.extend_from_slice(&inv);
    out.push(f.det());
    out.push(f.ln_abs_det());
    out
}

#[test]
fn lu_solve_inverse_determinants_match_finite_differences() {
    check(lu_all::Rule, (dominant(4, 12), data(4, 13)));
    // A row swap on the first pivot makes the determinant's sign matter.
    let mut a = dominant(3, 14);
    a.swap(0, 3);
    a[0] = 0.01;
    check(lu_all::Rule, (a, data(3, 15)));
}

#[autodiff(forward)]
fn lu_constant_matrix(#[constant] a: &[f64], b: &[f64]) -> Vec<f64> {
    solve(Mat::new(a, b.len(), b.len()), b).unwrap()
}

#[test]
fn solve_with_a_constant_matrix_matches_finite_differences() {
    check(
        lu_constant_matrix::Rule,
        (Constant(dominant(5, 16)), data(5, 17)),
    );
}

#[autodiff(forward)]
fn cholesky_all(a: &[f64], b: &[f64]) -> Vec<f64> {
    let n = b.len();
    let c = cholesky(Mat::new(a, n, n)).unwrap();
    let mut out: Vec<f64> = c.solve(b);
    out.push(c.ln_det());
    let inv: Vec<f64> = inverse(Mat::new(a, n, n)).unwrap();
    out.push(inv[1]);
    out
}

#[test]
fn cholesky_matches_finite_differences() {
    check(cholesky_all::Rule, (spd(4, 18), data(4, 19)));
}

#[autodiff(forward)]
fn mixed_loops(#[constant] w: &[f64], x: &[f64]) -> f64 {
    let n = x.len();
    let y: Vec<f64> = matvec(Mat::new(w, n, n), x);
    let mut s = 0.0;
    for i in 0..n {
        s += y[i].tanh() * x[i];
    }
    s + norm2(&y) + lifted::linalg::dot(x, x)
}

#[test]
fn primitives_mix_with_scalar_loops() {
    check(mixed_loops::Rule, (Constant(data(36, 20)), data(6, 21)));
}

#[autodiff(forward)]
fn products_f32(a: &[f32], x: &[f32]) -> f32 {
    let y: Vec<f32> = matvec(Mat::new(a, 3, 3), x);
    let f = lu(Mat::new(a, 3, 3)).unwrap();
    dot(&y, x) + f.ln_abs_det()
}

#[test]
fn f32_primitives_match_finite_differences() {
    let a: Vec<f32> = dominant(3, 22).iter().map(|&v| v as f32).collect();
    let x: Vec<f32> = data(3, 23).iter().map(|&v| v as f32).collect();
    check(products_f32::Rule, (a, x));
}

/// `xᵀ M⁻¹ x` with a constant `M`: its Hessian is `2 M⁻¹` (for symmetric `M`).
#[autodiff(forward, chunk = 2)]
fn inverse_quadratic(#[constant] m: &[f64], x: &[f64]) -> f64 {
    let y: Vec<f64> = solve(Mat::new(m, x.len(), x.len()), x).unwrap();
    dot(x, &y)
}

#[test]
fn nested_readings_run_element_wise() {
    let n = 4;
    let m = spd(n, 24);
    let x = data(n, 25);
    let minv = lifted::linalg::inverse(Mat::new(&m[..], n, n)).unwrap();
    let (_, _, h) =
        lifted::hessian(inverse_quadratic::Rule, (Constant(m.clone()), x.clone())).unwrap();
    for i in 0..n {
        for j in 0..n {
            let expected = 2.0 * 0.5 * (minv[i * n + j] + minv[j * n + i]);
            let got = h[(i, j)];
            assert!(
                (got - expected).abs() <= 1e-12,
                "H[{i},{j}] = {got}, 2 M⁻¹ = {expected}"
            );
        }
    }
}

/// `‖t v‖² = t² ‖v‖²` along `t`: second Taylor coefficient `‖v‖²`, the rest zero.
#[autodiff(forward)]
fn along_ray(t: f64, #[constant] v: &[f64]) -> f64 {
    let x: Vec<f64> = scale(t, v);
    dot(&x, &x)
}

#[test]
fn taylor_reading_runs_element_wise() {
    let v = data(5, 26);
    let vv: f64 = v.iter().map(|a| a * a).sum();
    let direction = (1.0, Constant(vec![0.0; v.len()]));
    let tower = lifted::derivatives_1d(along_ray::Rule, (1.5, Constant(v)), direction, 4).unwrap();
    let expected = [2.25 * vv, 3.0 * vv, 2.0 * vv, 0.0, 0.0];
    for (k, (got, want)) in tower.iter().zip(expected).enumerate() {
        assert!(
            (got - want).abs() <= 1e-12 * vv,
            "order {k}: {got} vs {want}"
        );
    }
}

#[test]
fn norm_at_zero_is_the_directional_derivative_and_never_nan() {
    let x = NDualArray::<f64, 2>::from_lanes(vec![0.0, 0.0], [&[3.0, 4.0], &[0.0, 0.0]])
        .expect("lanes");
    let n: NDual<f64, 2> = norm2(&x);
    assert_eq!(n.value(), 0.0);
    assert_eq!(n.partials(), &[5.0, 0.0]);
}

#[test]
fn singular_and_indefinite_matrices_are_errors() {
    let singular = [1.0, 2.0, 2.0, 4.0];
    assert_eq!(
        lu(Mat::new(&singular[..], 2, 2)).unwrap_err(),
        LinalgError::Singular { op: "lu", pivot: 1 }
    );
    assert!(solve(Mat::new(&singular[..], 2, 2), &[1.0, 1.0][..]).is_err());
    assert!(inverse(Mat::new(&singular[..], 2, 2)).is_err());
    let zero_diagonal = [1.0, 0.0, 5.0, 0.0];
    assert_eq!(
        solve_lower(Mat::new(&zero_diagonal[..], 2, 2), &[1.0, 1.0][..]).unwrap_err(),
        LinalgError::Singular {
            op: "solve_lower",
            pivot: 1
        }
    );
    let indefinite = [1.0, 2.0, 2.0, 1.0];
    assert_eq!(
        cholesky(Mat::new(&indefinite[..], 2, 2)).unwrap_err(),
        LinalgError::NotPositiveDefinite { pivot: 1 }
    );
    // The same errors at a dual reading: no NaN-filled result.
    let a = NDualArray::<f64, 3>::seeded(singular.to_vec(), 0);
    assert!(lu(Mat::new(&a, 2, 2)).is_err());
    let message = Mat::try_new(&[1.0, 2.0, 3.0][..], 2, 2)
        .unwrap_err()
        .to_string();
    assert!(
        message.contains("3 elements cannot be viewed as 2 × 2"),
        "{message}"
    );
}

#[test]
fn ill_conditioned_solves_stay_finite_and_match_the_closed_form() {
    // A = [[1, 1], [1, 1 + ε]]: x = A⁻¹ b, ẋ = −A⁻¹ Ȧ x for Ȧ = e₀e₀ᵀ.
    let eps = 1e-9;
    let a = NDualArray::<f64, 2>::from_lanes(
        vec![1.0, 1.0, 1.0, 1.0 + eps],
        [&[1.0, 0.0, 0.0, 0.0], &[0.0; 4]],
    )
    .expect("lanes");
    let b = NDualArray::<f64, 2>::constant(vec![1.0, 2.0]);
    let x: NDualArray<f64, 2> = solve(Mat::new(&a, 2, 2), &b).unwrap();
    let (x0, x1) = (x.get(0).value(), x.get(1).value());
    // x = (1 − 1/ε, 1/ε); ẋ = −A⁻¹ (x0, 0)ᵀ = −x0 · A⁻¹ e₀ = −x0 · ((1 + ε)/ε, −1/ε).
    let expected = [-x0 * (1.0 + eps) / eps, x0 / eps];
    for (i, want) in expected.iter().enumerate() {
        let got = x.get(i).partials()[0];
        assert!(got.is_finite());
        assert!(
            (got - want).abs() <= 1e-5 * want.abs(),
            "ẋ{i} = {got}, want {want}"
        );
        assert_eq!(x.get(i).partials()[1], 0.0, "untouched lane");
    }
    assert!((x1 - 1.0 / eps).abs() <= 1e-6 / eps);
}

#[test]
#[should_panic(expected = "matvec: a 2 × 2 matrix times a vector of length 3")]
fn mismatched_dimensions_panic_with_the_shapes() {
    let _ = matvec(
        Mat::new(&[1.0, 0.0, 0.0, 1.0][..], 2, 2),
        &[1.0, 2.0, 3.0][..],
    );
}
