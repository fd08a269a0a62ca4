//! Functions from the tests of Rust's Enzyme-based `std::autodiff`
//! (rust-lang/rust: tests/codegen-llvm/autodiff/*.rs and the ADBench ports under
//! tests/ui/autodiff/adbench/*/src/safe.rs). The `std::autodiff` attributes are
//! replaced and the structs derive `lifted::Lift`; the file each comes from is named
//! above it.

use lifted::autodiff;
use std::f64::consts::PI;

// tests/codegen-llvm/autodiff/abi_handling.rs: `fn f1(x: &[f32; 2]) -> f32`
/// The sum of a pair.
#[autodiff(forward)]
pub fn f1(x: &[f32; 2]) -> f32 {
    x[0] + x[1]
}

// tests/codegen-llvm/autodiff/abi_handling.rs: `fn f4(x: (f32, f32)) -> f32`
/// The product of a tuple's fields.
#[autodiff(forward)]
pub fn f4(x: (f32, f32)) -> f32 {
    x.0 * x.1
}

// tests/codegen-llvm/autodiff/abi_handling.rs: `fn f7(x: (&f32, &f32)) -> f32`
/// A product through a tuple of references.
#[autodiff(forward)]
pub fn f7(x: (&f32, &f32)) -> f32 {
    x.0 * x.1
}

/// The input of `f5`.
#[derive(Clone, Copy, Debug, lifted::Lift)]
pub struct Input {
    pub x: f32,
    pub y: f32,
}

/// The inner struct of `NestedInput`.
#[derive(Clone, Copy, Debug, lifted::Lift)]
pub struct Wrapper {
    pub z: f32,
}

/// The input of `f6`.
#[derive(Clone, Copy, Debug, lifted::Lift)]
pub struct NestedInput {
    pub x: f32,
    pub y: Wrapper,
}

// tests/codegen-llvm/autodiff/abi_handling.rs: `fn f5(i: Input) -> f32`
/// The sum of a struct's fields.
#[autodiff(forward)]
pub fn f5(i: Input) -> f32 {
    i.x + i.y
}

// tests/codegen-llvm/autodiff/abi_handling.rs: `fn f6(i: NestedInput) -> f32`
/// A nested struct's fields.
#[autodiff(forward)]
pub fn f6(i: NestedInput) -> f32 {
    i.x + i.y.z * i.y.z
}

// tests/ui/autodiff/adbench/ba/src/safe.rs: `fn sqsum(x: &[f64]) -> f64`
/// The sum of squares.
#[autodiff(forward)]
pub fn sqsum(x: &[f64]) -> f64 {
    x.iter().map(|&v| v * v).sum()
}

// tests/ui/autodiff/adbench/ba/src/safe.rs: `fn cross(a: &[f64; 3], b: &[f64; 3]) -> [f64; 3]`
/// The cross product.
#[autodiff(forward)]
pub fn cross(a: &[f64; 3], b: &[f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

// tests/ui/autodiff/adbench/gmm/src/safe.rs: `fn arr_max(n: usize, x: &[f64]) -> f64`
/// The maximum of the first n entries.
#[autodiff(forward)]
pub fn arr_max(n: usize, x: &[f64]) -> f64 {
    let mut max = f64::NEG_INFINITY;
    for i in 0..n {
        if max < x[i] {
            max = x[i];
        }
    }
    max
}

// tests/ui/autodiff/adbench/gmm/src/safe.rs: `fn log_sum_exp(n: usize, x: &[f64]) -> f64`
/// log Σ exp, shifted by [`arr_max`].
#[autodiff(forward)]
pub fn gmm_log_sum_exp(n: usize, x: &[f64]) -> f64 {
    let mx = arr_max(n, x);
    let semx: f64 = x.iter().map(|x| (x - mx).exp()).sum();
    semx.ln() + mx
}

// tests/ui/autodiff/adbench/gmm/src/safe.rs: `fn sqnorm(x: &[f64]) -> f64`
/// The squared norm.
#[autodiff(forward)]
pub fn sqnorm(x: &[f64]) -> f64 {
    x.iter().map(|x| x * x).sum()
}

// tests/ui/autodiff/adbench/gmm/src/safe.rs: `fn subtract(d, x, y, out)`
/// out = x − y over the first d entries, in place.
#[autodiff(forward)]
pub fn subtract(d: usize, x: &[f64], y: &[f64], out: &mut [f64]) {
    assert!(x.len() >= d);
    assert!(y.len() >= d);
    assert!(out.len() >= d);
    for i in 0..d {
        out[i] = x[i] - y[i];
    }
}

// tests/ui/autodiff/adbench/gmm/src/safe.rs: `fn qtimesx(d, q_diag, ltri, x, out)`
/// out = Q x for Q lower triangular, its diagonal and its strict lower part packed.
#[autodiff(forward)]
pub fn qtimesx(d: usize, q_diag: &[f64], ltri: &[f64], x: &[f64], out: &mut [f64]) {
    assert!(out.len() >= d);
    assert!(q_diag.len() >= d);
    assert!(x.len() >= d);
    for i in 0..d {
        out[i] = q_diag[i] * x[i];
    }
    for i in 0..d {
        let mut lparamsidx = i * (2 * d - i - 1) / 2;
        for j in i + 1..d {
            out[j] = out[j] + ltri[lparamsidx] * x[i];
            lparamsidx += 1;
        }
    }
}

// tests/ui/autodiff/adbench/gmm/src/safe.rs: `fn preprocess_qs(d, k, icf, sum_qs, qdiags)`
/// The log-determinants and diagonals of the Cholesky factors, in place.
#[autodiff(forward)]
pub fn preprocess_qs(d: usize, k: usize, icf: &[f64], sum_qs: &mut [f64], qdiags: &mut [f64]) {
    let icf_sz = d * (d + 1) / 2;
    for ik in 0..k {
        sum_qs[ik] = 0.;
        for id in 0..d {
            let q = icf[ik * icf_sz + id];
            sum_qs[ik] = sum_qs[ik] + q;
            qdiags[ik * d + id] = q.exp();
        }
    }
}

// tests/ui/autodiff/adbench/gmm/src/safe.rs: `gmm_objective` without the Wishart
// prior (which calls the C library's lgamma), its workspaces allocated here.
/// The GMM negative log-likelihood's data term.
#[autodiff(forward)]
pub fn gmm_objective(
    d: usize,
    k: usize,
    n: usize,
    alphas: &[f64],
    means: &[f64],
    icf: &[f64],
    x: &[f64],
) -> f64 {
    let constant = -(n as f64) * d as f64 * 0.5 * (2.0 * PI).ln();
    let icf_sz = d * (d + 1) / 2;
    let mut qdiags = vec![0.; d * k];
    let mut sum_qs = vec![0.; k];
    let mut xcentered = vec![0.; d];
    let mut qxcentered = vec![0.; d];
    let mut main_term = vec![0.; k];
    preprocess_qs(d, k, icf, &mut sum_qs, &mut qdiags);
    let mut slse = 0.;
    for ix in 0..n {
        for ik in 0..k {
            subtract(d, &x[ix * d..], &means[ik * d..], &mut xcentered);
            qtimesx(
                d,
                &qdiags[ik * d..],
                &icf[ik * icf_sz + d..],
                &xcentered,
                &mut qxcentered,
            );
            main_term[ik] = alphas[ik] + sum_qs[ik] - 0.5 * sqnorm(&qxcentered);
        }
        slse = slse + gmm_log_sum_exp(k, &main_term);
    }
    let lse_alphas = gmm_log_sum_exp(k, alphas);
    constant + slse - n as f64 * lse_alphas
}

// tests/ui/autodiff/adbench/lstm/src/safe.rs: `fn sigmoid(x: f64) -> f64`
/// The logistic function.
#[autodiff(forward)]
pub fn lstm_sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

// tests/ui/autodiff/adbench/lstm/src/safe.rs: `fn logsumexp(vect: &[f64]) -> f64`
/// log(Σ exp + 2), as the LSTM benchmark defines it.
#[autodiff(forward)]
pub fn lstm_logsumexp(vect: &[f64]) -> f64 {
    let mut sum = 0.0;
    for &val in vect {
        sum += val.exp();
    }
    sum += 2.0;
    sum.ln()
}

crate::cases! {
    f1(&[2.0f32, 3.0]),
    f4((2.0f32, 3.0f32)),
    f7((&2.0f32, &3.0f32)),
    f5(Input { x: 2.0, y: 3.0 }),
    f6(NestedInput { x: 2.0, y: Wrapper { z: 3.0 } }),
    sqsum(&[0.3, -1.2, 2.1]),
    cross(&[0.3, -1.2, 2.1], &[1.0, 0.4, -0.5]),
    arr_max(4, &[0.3, 2.2, -1.0, 1.4]),
    gmm_log_sum_exp(4, &[0.3, 2.2, -1.0, 1.4]),
    sqnorm(&[0.3, -1.2, 2.1]),
    subtract(3, &[0.3, -1.2, 2.1], &[1.0, 0.4, -0.5], &[0.0, 0.0, 0.0]),
    qtimesx(3, &[1.2, 0.8, 1.5], &[0.3, -0.2, 0.4], &[0.5, -1.0, 2.0], &[0.0, 0.0, 0.0]),
    preprocess_qs(2, 2, &[0.1, -0.2, 0.3, 0.2, 0.05, -0.4], &[0.0, 0.0], &[0.0, 0.0, 0.0, 0.0]),
    gmm_objective(
        2,
        2,
        3,
        &[0.2, -0.3],
        &[0.0, 0.5, 1.0, -0.5],
        &[0.1, -0.2, 0.3, 0.2, 0.05, -0.4],
        &[0.1, 0.4, 0.9, -0.2, 0.5, 0.3],
    ),
    lstm_sigmoid(0.37),
    lstm_logsumexp(&[0.3, 2.2, -1.0, 1.4]),
}
