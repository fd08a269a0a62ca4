//! Triangular solves `T x = b`: the primal by substitution, then
//! `ẋ = T⁻¹ (ḃ − Ṫ x)` for all lanes by one substitution over the `n × N` block of
//! right-hand sides.

use crate::array::Array;
use crate::array::ArrayReading;
use crate::array::from_flat;
use crate::array::{Flat, Operand};
use crate::linalg::LinalgError;
use crate::linalg::kernel::{Float, Triangle, axpy_lanes, substitute};
use crate::linalg::operand::{Mat, shape_check};
use crate::linalg::product::FlatMat;

/// Solves `L x = b` for a lower-triangular `L` (only its lower triangle is read; use
/// `m.t()` to solve with the transpose of an upper-triangular `m`).
///
/// # Errors
/// [`LinalgError::Singular`] when a diagonal element is exactly zero.
///
/// # Panics
/// When `L` is not square or `b.len()` differs from its size.
#[track_caller]
pub fn solve_lower<A, B>(
    l: Mat<A>,
    b: B,
) -> Result<<<A as Array>::Elem as ArrayReading>::Vec, LinalgError>
where
    A: Operand<<A as Array>::Elem>,
    B: Operand<<A as Array>::Elem>,
    <A as Array>::Elem: ArrayReading,
{
    solve_lower::frule::<<A as Array>::Elem>(l, b)
}

/// The rule of [`solve_lower()`](fn@solve_lower).
pub mod solve_lower {
    use super::*;

    /// `L⁻¹ b` at reading `D`.
    #[track_caller]
    pub fn frule<D: ArrayReading>(
        l: Mat<impl Operand<D>>,
        b: impl Operand<D>,
    ) -> Result<D::Vec, LinalgError> {
        solve_triangular("solve_lower", Triangle::Lower, l, b)
    }
}

/// Solves `U x = b` for an upper-triangular `U` (only its upper triangle is read).
///
/// # Errors
/// [`LinalgError::Singular`] when a diagonal element is exactly zero.
///
/// # Panics
/// When `U` is not square or `b.len()` differs from its size.
#[track_caller]
pub fn solve_upper<A, B>(
    u: Mat<A>,
    b: B,
) -> Result<<<A as Array>::Elem as ArrayReading>::Vec, LinalgError>
where
    A: Operand<<A as Array>::Elem>,
    B: Operand<<A as Array>::Elem>,
    <A as Array>::Elem: ArrayReading,
{
    solve_upper::frule::<<A as Array>::Elem>(u, b)
}

/// The rule of [`solve_upper()`](fn@solve_upper).
pub mod solve_upper {
    use super::*;

    /// `U⁻¹ b` at reading `D`.
    #[track_caller]
    pub fn frule<D: ArrayReading>(
        u: Mat<impl Operand<D>>,
        b: impl Operand<D>,
    ) -> Result<D::Vec, LinalgError> {
        solve_triangular("solve_upper", Triangle::Upper, u, b)
    }
}

/// Checks that `a` is square and `b` has its size; returns the size.
#[track_caller]
pub(crate) fn square_with_rhs<A>(op: &'static str, a: &Mat<A>, b_len: usize) -> usize {
    let (r, c) = a.shape();
    shape_check(r == c && b_len == r, op, || {
        format!("a {r} × {c} matrix with a right-hand side of length {b_len}")
    });
    r
}

#[track_caller]
fn solve_triangular<D: ArrayReading>(
    op: &'static str,
    triangle: Triangle,
    t: Mat<impl Operand<D>>,
    b: impl Operand<D>,
) -> Result<D::Vec, LinalgError> {
    let n = square_with_rhs(op, &t, b.len());
    let singular = |pivot| LinalgError::Singular { op, pivot };
    if let (Some(w), Some(tf), Some(bf)) = (D::flat_width(), t.data().flat(), b.flat()) {
        let tm = FlatMat::of(&t, tf);
        let (x, xt) = flat_triangular(triangle, &tm, bf, w).map_err(singular)?;
        return Ok(from_flat::<D>(x, xt));
    }
    let mut x: Vec<D> = (0..n).map(|i| b.get(i)).collect();
    substitute(n, 1, triangle, false, |i, j| t.at::<D>(i, j), &mut x).map_err(singular)?;
    Ok(x.into_iter().collect())
}

fn flat_triangular<F: Float>(
    triangle: Triangle,
    t: &FlatMat<'_, F>,
    b: Flat<'_, F>,
    w: usize,
) -> Result<(Vec<F>, Vec<F>), usize> {
    let n = t.rows;
    let at = |i: usize, j: usize| t.primal[i * t.rs + j * t.cs];
    let mut x = b.primal.to_vec();
    substitute(n, 1, triangle, false, at, &mut x)?;
    let mut r = match b.tangent {
        Some(bt) => bt.to_vec(),
        None => vec![F::zero(); n * w],
    };
    if w == 0 {
        return Ok((x, r));
    }
    if let Some(tt) = t.tangent {
        // r −= Ṫ x over the triangle (diagonal included).
        for i in 0..n {
            let (from, to) = match triangle {
                Triangle::Lower => (0, i + 1),
                Triangle::Upper => (i, n),
            };
            for (j, &xj) in x.iter().enumerate().take(to).skip(from) {
                let s = (i * t.rs + j * t.cs) * w;
                axpy_lanes(-xj, &tt[s..s + w], &mut r[i * w..i * w + w]);
            }
        }
    }
    substitute(n, w, triangle, false, at, &mut r)?;
    Ok((x, r))
}
