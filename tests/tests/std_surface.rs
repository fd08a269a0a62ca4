//! More of std's slice, `Vec` and iterator surface on lifted arrays, written as people
//! write it: `split_at`, `reverse`, `copy_from_slice`, `into_iter` on an owned `Vec`,
//! `zip` with a prefix sub-slice, `min_by` / `max_by`, `position`, `any`, `all`,
//! `filter_map`, `f64::hypot(*a, *b)`, `x + &y` and a local `&f64`.
//!
//! Each rule runs at every first- and second-order reading a user reaches through the
//! drivers: `check_rule` (the dense reading at widths 1, 2, 3, 8 and 16 against finite
//! differences, the primal reading bit for bit), the gradient driver at the dense and
//! the zero-skipping reading at chunks 1, 2, 3 and 16 against a closed form, the
//! Hessian driver (the nested dense reading) and the Hessian-diagonal driver (the
//! diagonal jet) against finite differences of that closed form.

#![allow(clippy::op_ref, clippy::useless_vec, clippy::needless_borrow)]

use lifted::drivers::{Driver, PassReading};
use lifted::{FRule, autodiff};

#[path = "support/check.rs"]
mod check;

/// Σ aᵢ bᵢ over the two halves of `x`.
#[autodiff(forward)]
pub fn halves(x: &[f64]) -> f64 {
    let (a, b) = x.split_at(x.len() / 2);
    a.iter().zip(b).map(|(p, q)| p * q).sum::<f64>()
}

/// The reversed vector weighted by position: Σ (i + 1) x_{n−1−i}.
#[autodiff(forward)]
pub fn reversed(x: &[f64]) -> f64 {
    let mut v = x.to_vec();
    v.reverse();
    v.iter()
        .enumerate()
        .map(|(i, a)| a * (i as f64 + 1.0))
        .sum()
}

/// `copy_from_slice` into a local buffer, then a product of the copies.
#[autodiff(forward)]
pub fn copied_window(x: &[f64]) -> f64 {
    let mut buf = vec![0.0; 3];
    buf[..2].copy_from_slice(&x[1..3]);
    buf[2] = x[0];
    buf[0] * buf[1] + buf[2].sin()
}

/// An owned `Vec` consumed by `into_iter`.
#[autodiff(forward)]
pub fn owned_sines(x: Vec<f64>) -> f64 {
    x.into_iter().map(|v| v.sin()).sum()
}

/// Σ x_{i+1} x_i through `x[1..].iter().zip(&x[..n - 1])`.
#[autodiff(forward)]
pub fn shifted_products(x: &[f64]) -> f64 {
    let n = x.len();
    x[1..].iter().zip(&x[..n - 1]).map(|(a, b)| a * b).sum()
}

/// The smallest and the largest element, by `partial_cmp` and by `total_cmp`.
#[autodiff(forward)]
pub fn spread(x: &[f64]) -> f64 {
    let lo = x.iter().min_by(|a, b| a.partial_cmp(b).unwrap()).unwrap();
    let hi = x.iter().max_by(|a, b| a.total_cmp(b)).unwrap();
    hi - lo
}

/// The first positive element times the first element, guarded by `all` and `any`.
#[autodiff(forward)]
pub fn first_positive(x: &[f64]) -> f64 {
    if x.iter().all(|v| *v > -10.0) && x.iter().any(|&v| v > 0.0) {
        let i = x.iter().position(|&v| v > 0.0).unwrap();
        x[i] * x[0]
    } else {
        0.0
    }
}

/// Σ ln xᵢ over the positive elements, by `filter_map`.
#[autodiff(forward)]
pub fn log_positive(x: &[f64]) -> f64 {
    x.iter()
        .filter_map(|&v| if v > 0.0 { Some(v.ln()) } else { None })
        .sum()
}

/// Σ hypot(xᵢ, yᵢ), the float function called on dereferenced items.
#[autodiff(forward)]
pub fn hypot_pairs(x: &[f64], y: &[f64]) -> f64 {
    x.iter().zip(y).map(|(a, b)| f64::hypot(*a, *b)).sum()
}

/// `x + &y` and arithmetic through a local `&f64`.
#[autodiff(forward)]
pub fn through_references(x: &f64, y: f64) -> f64 {
    let r = &y;
    x + &y + x * r + r * r
}

/// References to elements bound to locals, used with and without `*`.
#[autodiff(forward)]
pub fn element_references(x: &[f64]) -> f64 {
    let r = &x[0];
    let s = &x[1];
    r * s + *r * 2.0 + (&x[2]).sin()
}

/// Σ a b over the pairs of `x` by `as_chunks`, plus the element left over, squared.
#[autodiff(forward)]
pub fn pair_products(x: &[f64]) -> f64 {
    let (pairs, rest) = x.as_chunks::<2>();
    let mut s = 0.0;
    for &[a, b] in pairs {
        s += a * b;
    }
    let t: f64 = pairs.iter().map(|[a, _]| a * a).sum();
    s + t + rest.iter().map(|r| r * r).sum::<f64>()
}

/// Σ (c₀ c₁ − c₂) over the triples of `x`, by `as_chunks`'s chunks taken by value.
#[autodiff(forward)]
pub fn triple_sums(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for c in x.as_chunks::<3>().0 {
        s += c[0] * c[1] - c[2];
    }
    s
}

/// Each pair `[a, b]` of a copy of `x` becomes `[a b, b]` through `as_chunks_mut`, the
/// rest its sine; then the copy is summed.
#[autodiff(forward)]
pub fn pairs_in_place(x: &[f64]) -> f64 {
    let mut v = x.to_vec();
    let (pairs, rest) = v.as_chunks_mut::<2>();
    for p in pairs.iter_mut() {
        p[0] *= p[1];
    }
    for r in rest.iter_mut() {
        *r = r.sin();
    }
    v.iter().sum()
}

/// `x` rotated left by one through `concat`, weighted by position, plus v₀ v₁.
#[autodiff(forward)]
pub fn rotated(x: &[f64]) -> f64 {
    let v = [&x[1..], &x[..1]].concat();
    v.iter()
        .enumerate()
        .map(|(i, a)| a * (i as f64 + 1.0))
        .sum::<f64>()
        + v[0] * v[1]
}

/// Rows built from `x` and joined again by `concat`: Σ vᵢ² over the rows' elements.
#[autodiff(forward)]
pub fn joined_rows(x: &[f64]) -> f64 {
    let rows = vec![x[..2].to_vec(), x[2..].to_vec()];
    let flat = rows.concat();
    flat.iter().map(|v| v * v).sum()
}

const X: [f64; 6] = [0.7, -1.3, 2.1, 0.4, -0.2, 1.6];

/// Central finite differences of a closed-form gradient: the Hessian's oracle.
fn fd_jacobian(grad: &dyn Fn(&[f64]) -> Vec<f64>, x: &[f64]) -> Vec<Vec<f64>> {
    let h = 1e-6;
    (0..x.len())
        .map(|j| {
            let (mut up, mut down) = (x.to_vec(), x.to_vec());
            up[j] += h;
            down[j] -= h;
            let (gu, gd) = (grad(&up), grad(&down));
            gu.iter()
                .zip(&gd)
                .map(|(u, d)| (u - d) / (2.0 * h))
                .collect()
        })
        .collect()
}

fn assert_close(got: f64, want: f64, tol: f64, what: &str) {
    assert!(
        (got - want).abs() <= tol * want.abs().max(1.0),
        "{what}: {got} vs {want}"
    );
}

/// A one-slice rule at every reading: `check_rule`, the gradient at the dense and the
/// zero-skipping reading and four chunks against `grad`, the Hessian and its diagonal
/// against finite differences of `grad`.
fn at_every_reading<R>(rule: R, x: &[f64], grad: &dyn Fn(&[f64]) -> Vec<f64>)
where
    R: FRule<Float = f64, Args = (Vec<f64>,), Output = f64>,
{
    check::check(rule, (x.to_vec(),));
    let want = grad(x);
    for chunk in [1, 2, 3, 16] {
        for reading in [PassReading::Dense, PassReading::ZeroSkipping] {
            let driver = Driver::new(rule).reading(reading).width(chunk);
            let (_, g) = driver.gradient((x,)).expect("gradient");
            assert_eq!(g.len(), want.len());
            for (j, (&g, &w)) in g.iter().zip(&want).enumerate() {
                assert_close(g, w, 1e-13, &format!("{reading:?} chunk {chunk}: ∂/∂x{j}"));
            }
        }
    }
    let (_, _, hess) = lifted::hessian(rule, (x,)).expect("hessian");
    let fd = fd_jacobian(grad, x);
    for (i, row) in fd.iter().enumerate() {
        for (j, &w) in row.iter().enumerate() {
            assert_close(hess[(i, j)], w, 1e-6, &format!("∂²/∂x{i}∂x{j}"));
        }
    }
    let (_, diag) = lifted::hessian_diag(rule, (x,)).expect("hessian_diag");
    for (j, row) in fd.iter().enumerate() {
        assert_close(diag[(0, j)], row[j], 1e-6, &format!("diagonal ∂²/∂x{j}²"));
    }
}

#[test]
fn split_at_pairs_the_halves() {
    at_every_reading(halves::Rule, &X, &|x| {
        let h = x.len() / 2;
        (0..x.len())
            .map(|j| if j < h { x[j + h] } else { x[j - h] })
            .collect()
    });
    assert_eq!(halves(&X), X[0] * X[3] + X[1] * X[4] + X[2] * X[5]);
}

#[test]
fn reverse_moves_the_tangents_with_the_values() {
    at_every_reading(reversed::Rule, &X, &|x| {
        let n = x.len();
        (0..n).map(|j| (n - j) as f64).collect()
    });
}

#[test]
fn copy_from_slice_copies_the_tangents() {
    at_every_reading(copied_window::Rule, &X, &|x| {
        let mut g = vec![0.0; x.len()];
        g[0] = x[0].cos();
        g[1] = x[2];
        g[2] = x[1];
        g
    });
}

#[test]
fn into_iter_consumes_an_owned_vec() {
    at_every_reading(owned_sines::Rule, &X, &|x| {
        x.iter().map(|v| v.cos()).collect()
    });
}

#[test]
fn zip_with_a_prefix_sub_slice() {
    at_every_reading(shifted_products::Rule, &X, &|x| {
        let n = x.len();
        (0..n)
            .map(|j| {
                let left = if j > 0 { x[j - 1] } else { 0.0 };
                let right = if j + 1 < n { x[j + 1] } else { 0.0 };
                left + right
            })
            .collect()
    });
}

#[test]
fn min_by_and_max_by_follow_the_primal_order() {
    at_every_reading(spread::Rule, &X, &|x| {
        let lo = (0..x.len()).min_by(|&a, &b| x[a].total_cmp(&x[b])).unwrap();
        let hi = (0..x.len()).max_by(|&a, &b| x[a].total_cmp(&x[b])).unwrap();
        let mut g = vec![0.0; x.len()];
        g[hi] += 1.0;
        g[lo] -= 1.0;
        g
    });
}

#[test]
fn position_any_and_all_branch_on_primals() {
    let negative_first = [-0.5, -1.0, 0.8, 2.0];
    at_every_reading(first_positive::Rule, &negative_first, &|x| {
        let i = x.iter().position(|&v| v > 0.0).unwrap();
        let mut g = vec![0.0; x.len()];
        g[i] += x[0];
        g[0] += x[i];
        g
    });
    // No positive element: the constant branch, a zero gradient.
    at_every_reading(first_positive::Rule, &[-1.0, -2.0], &|x| vec![0.0; x.len()]);
}

#[test]
fn filter_map_keeps_the_tangents_of_what_it_keeps() {
    at_every_reading(log_positive::Rule, &X, &|x| {
        x.iter()
            .map(|&v| if v > 0.0 { 1.0 / v } else { 0.0 })
            .collect()
    });
}

#[test]
fn hypot_of_dereferenced_items() {
    let y = [0.3, 0.9, -1.1, 2.0, 0.5, -0.6];
    let grad = lifted::gradient(hypot_pairs::Rule, (&X[..], &y[..]))
        .expect("gradient")
        .1;
    for j in 0..X.len() {
        let r = X[j].hypot(y[j]);
        assert_close(grad[j], X[j] / r, 1e-14, "∂/∂x");
        assert_close(grad[X.len() + j], y[j] / r, 1e-14, "∂/∂y");
    }
    check::check(hypot_pairs::Rule, (X.to_vec(), y.to_vec()));
}

#[test]
fn references_add_and_multiply_without_deref() {
    let (x, y) = (1.5, -0.75);
    assert_eq!(through_references(&x, y), x + y + x * y + y * y);
    let (_, g) = lifted::gradient(through_references::Rule, (&x, y)).expect("gradient");
    assert_close(g[0], 1.0 + y, 1e-15, "∂/∂x");
    assert_close(g[1], 1.0 + x + 2.0 * y, 1e-15, "∂/∂y");
    check::check(through_references::Rule, (x, y));
}

#[test]
fn element_references_read_as_values() {
    at_every_reading(element_references::Rule, &X, &|x| {
        let mut g = vec![0.0; x.len()];
        g[0] = x[1] + 2.0;
        g[1] = x[0];
        g[2] = x[2].cos();
        g
    });
}

/// A point mass, for references to structs next to references to floats.
#[derive(Clone, Debug, lifted::Lift)]
pub struct Mass {
    /// Position.
    pub x: f64,
    /// Mass.
    pub m: f64,
}

/// `let q = &p;` and `let r = &b;` of structs stay references (a struct need not be
/// `Copy`), while `let s = &k;` of a float reads its value.
#[autodiff(forward)]
pub fn struct_references(p: &Mass, k: f64) -> f64 {
    let q = &p;
    let b = p.clone();
    let r = &b;
    let s = &k;
    q.x * r.m + s * p.x + b.x
}

#[test]
fn references_to_structs_stay_references() {
    let p = Mass { x: 1.5, m: 2.0 };
    let k = 0.5;
    assert_eq!(struct_references(&p, k), p.x * p.m + k * p.x + p.x);
    let (_, g) = lifted::gradient(struct_references::Rule, (&p, k)).expect("gradient");
    // Columns: x, m, k.
    assert_eq!(g, vec![p.m + k + 1.0, p.x, p.x]);
}

/// `X` and one more element, so that `as_chunks::<2>` leaves one over.
const X7: [f64; 7] = [0.7, -1.3, 2.1, 0.4, -0.2, 1.6, -0.9];

#[test]
fn as_chunks_pairs_and_rest() {
    at_every_reading(pair_products::Rule, &X7, &|x| {
        let mut g = vec![0.0; x.len()];
        for k in 0..3 {
            g[2 * k] = x[2 * k + 1] + 2.0 * x[2 * k];
            g[2 * k + 1] = x[2 * k];
        }
        g[6] = 2.0 * x[6];
        g
    });
    at_every_reading(triple_sums::Rule, &X7, &|x| {
        let mut g = vec![0.0; x.len()];
        for k in 0..2 {
            g[3 * k] = x[3 * k + 1];
            g[3 * k + 1] = x[3 * k];
            g[3 * k + 2] = -1.0;
        }
        g
    });
}

#[test]
fn as_chunks_mut_writes_back() {
    at_every_reading(pairs_in_place::Rule, &X7, &|x| {
        let mut g = vec![0.0; x.len()];
        for k in 0..3 {
            g[2 * k] = x[2 * k + 1];
            g[2 * k + 1] = x[2 * k] + 1.0;
        }
        g[6] = x[6].cos();
        g
    });
    let want: f64 = (0..3)
        .map(|k| X7[2 * k] * X7[2 * k + 1] + X7[2 * k + 1])
        .sum::<f64>()
        + X7[6].sin();
    assert!((pairs_in_place(&X7) - want).abs() < 1e-14);
}

#[test]
fn concat_joins_views_and_rows() {
    at_every_reading(rotated::Rule, &X, &|x| {
        let n = x.len();
        let mut g: Vec<f64> = (0..n).map(|j| j as f64).collect();
        g[0] = n as f64;
        g[1] += x[2];
        g[2] += x[1];
        g
    });
    at_every_reading(joined_rows::Rule, &X, &|x| {
        x.iter().map(|v| 2.0 * v).collect()
    });
}
