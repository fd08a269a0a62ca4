//! Arrays of float arrays as parameters: `&[Vec<f64>]`, `&Vec<Vec<f64>>`, `Vec<[f64; K]>`
//! and `&mut [Vec<f64>]`, with `m[i][j]` reads, writes and compound assignment, row
//! methods (`m[i].len()`, `m[i].iter()`), rows iterated (`for row in a`) and rows passed
//! on as slices (`dot(&a[i], x)`). Each rule is checked by `check_rule` (finite
//! differences, the primal reading bit for bit) and against its closed form.

// The functions are written as people write them, index loops and all.
#![allow(
    clippy::needless_range_loop,
    clippy::ptr_arg,
    clippy::assign_op_pattern
)]

use lifted::autodiff;

#[path = "support/check.rs"]
mod check;

/// Σᵢ xᵢ yᵢ.
#[autodiff(forward)]
fn dot(x: &[f64], y: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += x[i] * y[i];
    }
    s
}

/// xᵀ A x with `A` as rows, both differentiated.
#[autodiff(forward)]
fn quadratic_form(a: &Vec<Vec<f64>>, x: &[f64]) -> f64 {
    let n = x.len();
    let mut s = 0.0;
    for i in 0..n {
        for j in 0..a[i].len() {
            s += x[i] * a[i][j] * x[j];
        }
    }
    s
}

/// Σᵢ (A x)ᵢ², the rows iterated and each row's product a call with the row as a slice.
#[autodiff(forward)]
fn residual_norm(a: &[Vec<f64>], x: &[f64]) -> f64 {
    let mut s = 0.0;
    for row in a {
        let r: f64 = row.iter().zip(x.iter()).map(|(p, q)| p * q).sum();
        s += r * r;
    }
    let mut t = 0.0;
    for i in 0..a.len() {
        t += dot(&a[i], x);
    }
    s + t
}

/// The polygon's area by the shoelace formula, its vertices as `[x, y]` pairs.
#[autodiff(forward)]
fn shoelace(p: Vec<[f64; 2]>) -> f64 {
    let n = p.len();
    let mut s = 0.0;
    for i in 0..n {
        let j = (i + 1) % n;
        s += p[i][0] * p[j][1] - p[j][0] * p[i][1];
    }
    0.5 * s.abs()
}

/// Scales each row of `m` in place by `k`, then adds one to the diagonal.
#[autodiff(forward)]
fn scale_rows(m: &mut [Vec<f64>], k: f64) {
    for i in 0..m.len() {
        for j in 0..m[i].len() {
            m[i][j] = k * m[i][j];
        }
        m[i][i] += 1.0;
    }
}

#[test]
fn nested_parameters() {
    let a = vec![
        vec![1.0, 2.0, 0.5],
        vec![-1.0, 0.25, 3.0],
        vec![0.5, 0.5, -2.0],
    ];
    let x = vec![0.3, -0.7, 1.1];
    check::check(quadratic_form::Rule, (a.clone(), x.clone()));
    check::check(residual_norm::Rule, (a.clone(), x.clone()));
    // ∂(xᵀAx)/∂x = (A + Aᵀ) x; ∂/∂aᵢⱼ = xᵢ xⱼ. The gradient is a's entries row by row,
    // then x's.
    let (_, g) = lifted::gradient(quadratic_form::Rule, (a.clone(), x.clone())).unwrap();
    assert_eq!(g.len(), 12);
    for i in 0..3 {
        for j in 0..3 {
            assert!((g[3 * i + j] - x[i] * x[j]).abs() < 1e-15);
        }
        let want: f64 = (0..3).map(|j| (a[i][j] + a[j][i]) * x[j]).sum();
        assert!((g[9 + i] - want).abs() < 1e-14);
    }
    let p = vec![[0.0, 0.0], [2.0, 0.0], [2.0, 1.0], [0.0, 1.0]];
    check::check(shoelace::Rule, (p.clone(),));
    let (area, g) = lifted::gradient(shoelace::Rule, (p.clone(),)).unwrap();
    assert_eq!(area, 2.0);
    // ∂A/∂x₂ (vertex (2, 1)) = ½ (y₃ − y₁) = ½.
    assert_eq!(g[4], 0.5);
    check::check(scale_rows::Rule, (a.clone(), 2.0));
    let mut args = (a.clone(), 2.0);
    let mut dir = (vec![vec![0.0; 3]; 3], 1.0);
    lifted::jvp_mut(scale_rows::Rule, &mut args, &mut dir).unwrap();
    assert_eq!(args.0[1][2], 6.0);
    assert_eq!(args.0[1][1], 1.5);
    // Along k: ∂(k mᵢⱼ)/∂k = mᵢⱼ.
    assert_eq!(dir.0[1][2], 3.0);
}
