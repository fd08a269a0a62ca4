//! Small dense linear algebra: products, determinants, factorisations, iterative
//! solvers; matrices as `Vec<Vec<f64>>`, fixed 2-D arrays and flat slices.

use lifted::autodiff;

/// The determinant of a 3×3 matrix as a 2-D array.
#[autodiff(forward)]
pub fn det3(m: [[f64; 3]; 3]) -> f64 {
    m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
        - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
        + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
}

/// The determinant of a 3×3 matrix, flat row-major.
#[autodiff(forward)]
pub fn det3_flat(m: &[f64]) -> f64 {
    m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6])
        + m[2] * (m[3] * m[7] - m[4] * m[6])
}

/// The trace of a square matrix, flat.
#[autodiff(forward)]
pub fn trace(m: &[f64], n: usize) -> f64 {
    (0..n).map(|i| m[i * n + i]).sum()
}

/// The Frobenius norm.
#[autodiff(forward)]
pub fn frobenius(m: &[f64]) -> f64 {
    m.iter().map(|v| v * v).sum::<f64>().sqrt()
}

/// xᵀ A x, A flat row-major.
#[autodiff(forward)]
pub fn quadratic_form(x: &[f64], a: &[f64]) -> f64 {
    let n = x.len();
    let mut s = 0.0;
    for i in 0..n {
        let mut row = 0.0;
        for j in 0..n {
            row += a[i * n + j] * x[j];
        }
        s += x[i] * row;
    }
    s
}

/// C = A B, flat row-major, A m×k and B k×n.
#[autodiff(forward)]
pub fn matmul(a: &[f64], b: &[f64], m: usize, k: usize, n: usize) -> Vec<f64> {
    let mut c = vec![0.0; m * n];
    for i in 0..m {
        for j in 0..n {
            let mut acc = 0.0;
            for p in 0..k {
                acc += a[i * k + p] * b[p * n + j];
            }
            c[i * n + j] = acc;
        }
    }
    c
}

/// The outer product of two vectors, flat.
#[autodiff(forward)]
pub fn outer(u: &[f64], v: &[f64]) -> Vec<f64> {
    let mut out = Vec::with_capacity(u.len() * v.len());
    for &a in u {
        for &b in v {
            out.push(a * b);
        }
    }
    out
}

/// A 2×2 system by Cramer's rule.
#[autodiff(forward)]
pub fn cramer_2x2(a: [f64; 4], b: [f64; 2]) -> (f64, f64) {
    let det = a[0] * a[3] - a[1] * a[2];
    (
        (b[0] * a[3] - a[1] * b[1]) / det,
        (a[0] * b[1] - b[0] * a[2]) / det,
    )
}

/// The inverse of a 2×2 matrix.
#[autodiff(forward)]
pub fn inverse_2x2(m: [f64; 4]) -> [f64; 4] {
    let det = m[0] * m[3] - m[1] * m[2];
    [m[3] / det, -m[1] / det, -m[2] / det, m[0] / det]
}

/// The Cholesky factor of a symmetric positive-definite matrix, flat lower.
#[autodiff(forward)]
pub fn cholesky(a: &[f64], n: usize) -> Vec<f64> {
    let mut l = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..=i {
            let mut sum = a[i * n + j];
            for k in 0..j {
                sum -= l[i * n + k] * l[j * n + k];
            }
            if i == j {
                l[i * n + j] = sum.sqrt();
            } else {
                l[i * n + j] = sum / l[j * n + j];
            }
        }
    }
    l
}

/// log det A through its Cholesky factor.
#[autodiff(forward)]
pub fn log_det_spd(a: &[f64], n: usize) -> f64 {
    let l = cholesky(a, n);
    let mut s = 0.0;
    for i in 0..n {
        s += 2.0 * l[i * n + i].ln();
    }
    s
}

/// A x = b by Gaussian elimination with partial pivoting, on copies.
#[autodiff(forward)]
pub fn gauss_solve(a: &[f64], b: &[f64]) -> Vec<f64> {
    let n = b.len();
    let mut m = a.to_vec();
    let mut x = b.to_vec();
    for col in 0..n {
        let mut piv = col;
        for r in col + 1..n {
            if m[r * n + col].abs() > m[piv * n + col].abs() {
                piv = r;
            }
        }
        if piv != col {
            for c in 0..n {
                m.swap(col * n + c, piv * n + c);
            }
            x.swap(col, piv);
        }
        for r in col + 1..n {
            let f = m[r * n + col] / m[col * n + col];
            for c in col..n {
                m[r * n + c] -= f * m[col * n + c];
            }
            x[r] -= f * x[col];
        }
    }
    for i in (0..n).rev() {
        let mut s = x[i];
        for j in i + 1..n {
            s -= m[i * n + j] * x[j];
        }
        x[i] = s / m[i * n + i];
    }
    x
}

/// The dominant eigenvalue by power iteration and the Rayleigh quotient.
#[autodiff(forward)]
pub fn power_iteration(a: &[f64], n: usize) -> f64 {
    let mut v = vec![1.0; n];
    for _ in 0..60 {
        let mut w = vec![0.0; n];
        for i in 0..n {
            for j in 0..n {
                w[i] += a[i * n + j] * v[j];
            }
        }
        let norm = w.iter().map(|x| x * x).sum::<f64>().sqrt();
        for i in 0..n {
            v[i] = w[i] / norm;
        }
    }
    let mut num = 0.0;
    for i in 0..n {
        for j in 0..n {
            num += v[i] * a[i * n + j] * v[j];
        }
    }
    num / v.iter().map(|x| x * x).sum::<f64>()
}

/// Jacobi iteration for a diagonally dominant system, a fixed number of sweeps.
#[autodiff(forward)]
pub fn jacobi_solve(a: &[f64], b: &[f64]) -> Vec<f64> {
    let n = b.len();
    let mut x = vec![0.0; n];
    for _ in 0..50 {
        let mut next = vec![0.0; n];
        for i in 0..n {
            let mut s = b[i];
            for j in 0..n {
                if j != i {
                    s -= a[i * n + j] * x[j];
                }
            }
            next[i] = s / a[i * n + i];
        }
        x = next;
    }
    x
}

/// Conjugate gradients for a symmetric positive-definite system, n iterations.
#[autodiff(forward)]
pub fn conjugate_gradient(a: &[f64], b: &[f64]) -> Vec<f64> {
    let n = b.len();
    let mut x = vec![0.0; n];
    let mut r = b.to_vec();
    let mut p = r.clone();
    let mut rs_old: f64 = r.iter().map(|v| v * v).sum();
    for _ in 0..n {
        let mut ap = vec![0.0; n];
        for i in 0..n {
            for j in 0..n {
                ap[i] += a[i * n + j] * p[j];
            }
        }
        let p_ap: f64 = p.iter().zip(ap.iter()).map(|(u, v)| u * v).sum();
        let alpha = rs_old / p_ap;
        for i in 0..n {
            x[i] += alpha * p[i];
            r[i] -= alpha * ap[i];
        }
        let rs_new: f64 = r.iter().map(|v| v * v).sum();
        for i in 0..n {
            p[i] = r[i] + rs_new / rs_old * p[i];
        }
        rs_old = rs_new;
    }
    x
}

/// Modified Gram–Schmidt on the columns of a flat n×k matrix.
#[autodiff(forward)]
pub fn gram_schmidt(a: &[f64], n: usize, k: usize) -> Vec<f64> {
    let mut q = a.to_vec();
    for j in 0..k {
        for i in 0..j {
            let mut dot = 0.0;
            for r in 0..n {
                dot += q[r * k + i] * q[r * k + j];
            }
            for r in 0..n {
                q[r * k + j] -= dot * q[r * k + i];
            }
        }
        let mut norm = 0.0;
        for r in 0..n {
            norm += q[r * k + j] * q[r * k + j];
        }
        let norm = norm.sqrt();
        for r in 0..n {
            q[r * k + j] /= norm;
        }
    }
    q
}

/// exp(A) for a 2×2 matrix by a truncated Taylor series.
#[autodiff(forward)]
pub fn expm_2x2(a: [f64; 4]) -> [f64; 4] {
    let mut result = [1.0, 0.0, 0.0, 1.0];
    let mut term = [1.0, 0.0, 0.0, 1.0];
    for k in 1..20 {
        let t = [
            (term[0] * a[0] + term[1] * a[2]) / k as f64,
            (term[0] * a[1] + term[1] * a[3]) / k as f64,
            (term[2] * a[0] + term[3] * a[2]) / k as f64,
            (term[2] * a[1] + term[3] * a[3]) / k as f64,
        ];
        term = t;
        for i in 0..4 {
            result[i] += term[i];
        }
    }
    result
}

crate::cases! {
    det3([[2.0, 0.3, -0.5], [0.1, 1.7, 0.4], [-0.6, 0.2, 1.2]]),
    det3_flat(&[2.0, 0.3, -0.5, 0.1, 1.7, 0.4, -0.6, 0.2, 1.2]),
    trace(&[2.0, 0.3, -0.5, 0.1, 1.7, 0.4, -0.6, 0.2, 1.2], 3),
    frobenius(&[2.0, 0.3, -0.5, 0.1, 1.7, 0.4]),
    quadratic_form(&[0.4, -1.1, 0.7], &[2.0, 0.3, -0.5, 0.3, 1.7, 0.4, -0.5, 0.4, 1.2]),
    matmul(&[1.0, 2.0, 0.5, -1.0, 0.3, 0.7], &[0.4, -1.1, 0.2, 0.9, 1.3, -0.6], 2, 3, 2),
    outer(&[1.0, 2.0, 0.5], &[0.4, -1.1]),
    cramer_2x2([2.0, 0.3, -0.4, 1.5], [1.0, -0.7]),
    inverse_2x2([2.0, 0.3, -0.4, 1.5]),
    cholesky(&[4.0, 1.2, 0.4, 1.2, 3.0, -0.5, 0.4, -0.5, 2.5], 3),
    log_det_spd(&[4.0, 1.2, 0.4, 1.2, 3.0, -0.5, 0.4, -0.5, 2.5], 3),
    gauss_solve(&[1.0, 2.0, 0.5, 3.0, -1.0, 0.4, 0.3, 0.7, 2.0], &[1.0, -0.5, 0.8]),
    power_iteration(&[4.0, 1.2, 0.4, 1.2, 3.0, -0.5, 0.4, -0.5, 2.5], 3),
    jacobi_solve(&[5.0, 1.2, 0.4, 1.2, 4.0, -0.5, 0.4, -0.5, 3.5], &[1.0, -0.5, 0.8]),
    conjugate_gradient(&[4.0, 1.2, 0.4, 1.2, 3.0, -0.5, 0.4, -0.5, 2.5], &[1.0, -0.5, 0.8]),
    gram_schmidt(&[1.0, 0.2, 0.5, 1.1, -0.3, 0.4], 3, 2),
    expm_2x2([0.1, 0.5, -0.3, 0.2]),
}
