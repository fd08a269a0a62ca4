//! LU (partial pivoting) and Cholesky factorizations, factored once per call and reused
//! for every lane: with `A x = b`, `ẋ = A⁻¹ (ḃ − Ȧ x)` is one multi-right-hand-side
//! solve over the `n × N` tangent block; `(A⁻¹)˙ = −A⁻¹ Ȧ A⁻¹` and
//! `(ln |det A|)˙ = tr(A⁻¹ Ȧ)` likewise cover all lanes at once.

use num_traits::{One as _, Zero as _};
use std::borrow::Cow;

use crate::Real;
use crate::array::Array;
use crate::array::ArrayReading;
use crate::array::{Field, Operand};
use crate::array::{from_flat, scalar_from_flat};
use crate::linalg::LinalgError;
use crate::linalg::kernel::{
    Float, Strided, Triangle, axpy_lanes, cholesky_in_place, gemm_lanes, lu_in_place, substitute,
};
use crate::linalg::operand::{Mat, shape_check};
use crate::linalg::product::{FlatMat, add_left_tangent};
use crate::linalg::triangular::square_with_rhs;

/// The factors and, at flat readings, the tangent of the factored matrix; at other
/// readings the factors are values of the reading.
#[derive(Clone, Debug)]
enum Factors<D: ArrayReading> {
    Flat {
        primal: Vec<Field<D>>,
        /// `Ȧ` in logical row-major element-major order; `None` for a constant matrix.
        tangent: Option<Vec<Field<D>>>,
        width: usize,
    },
    Generic(Vec<D>),
}

#[track_caller]
fn square<A>(op: &'static str, a: &Mat<A>) -> usize {
    let (r, c) = a.shape();
    shape_check(r == c, op, || format!("a {r} × {c} matrix is not square"));
    r
}

/// The factors of `A` at reading `D`: `factor` runs on the primal (flat readings) or on
/// the reading's values; `symmetrize` completes a tangent read from one triangle.
fn factor<D: ArrayReading, E>(
    a: &Mat<impl Operand<D>>,
    n: usize,
    symmetric: bool,
    factor_f: impl FnOnce(&mut [Field<D>]) -> Result<E, LinalgError>,
    factor_d: impl FnOnce(&mut [D]) -> Result<E, LinalgError>,
) -> Result<(Factors<D>, E), LinalgError> {
    if let (Some(w), Some(af)) = (D::flat_width(), a.data().flat()) {
        let m = FlatMat::of(a, af);
        let mut primal = Vec::with_capacity(n * n);
        for i in 0..n {
            for j in 0..n {
                primal.push(m.primal[i * m.rs + j * m.cs]);
            }
        }
        let extra = factor_f(&mut primal)?;
        let tangent = m.tangent_rows(w).map(Cow::into_owned).map(|mut t| {
            if symmetric {
                for i in 0..n {
                    for j in i + 1..n {
                        let (lo, up) = ((j * n + i) * w, (i * n + j) * w);
                        t.copy_within(lo..lo + w, up);
                    }
                }
            }
            t
        });
        let factors = Factors::Flat {
            primal,
            tangent,
            width: w,
        };
        return Ok((factors, extra));
    }
    let mut elems = a.elems::<D>();
    let extra = factor_d(&mut elems)?;
    Ok((Factors::Generic(elems), extra))
}

/// `r −= Ȧ x` row by row (`r` is `n × w`, `Ȧ` logical row-major element-major).
fn sub_tangent_times<F: Float>(at: &[F], x: &[F], n: usize, w: usize, r: &mut [F]) {
    for (i, ri) in r.chunks_exact_mut(w).enumerate().take(n) {
        for (j, &xj) in x.iter().enumerate().take(n) {
            let s = (i * n + j) * w;
            axpy_lanes(-xj, &at[s..s + w], ri);
        }
    }
}

/// `t[k] = scale · Σᵢⱼ X[j, i] Ȧ[i, j, k]`: `scale · tr(X Ȧ)` for every lane.
fn trace_product<F: Float>(x: &[F], at: &[F], n: usize, w: usize, scale: F) -> Vec<F> {
    let mut t = vec![F::zero(); w];
    for i in 0..n {
        for j in 0..n {
            let s = (i * n + j) * w;
            axpy_lanes(x[j * n + i], &at[s..s + w], &mut t);
        }
    }
    t.iter_mut().for_each(|v| *v *= scale);
    t
}

/// An LU factorization `P A = L U` with partial pivoting, made by [`lu()`](fn@lu): solve,
/// inverse, determinant and log-determinant, all reusing the factors (and, for their
/// derivatives, sharing one factorization across every tangent lane).
#[derive(Clone, Debug)]
pub struct Lu<D: ArrayReading> {
    n: usize,
    perm: Vec<usize>,
    factors: Factors<D>,
}

/// Factors the square matrix `A` (`P A = L U`, partial pivoting on magnitudes).
///
/// # Errors
/// [`LinalgError::Singular`] when a pivot is exactly zero (or NaN).
///
/// # Panics
/// When `A` is not square.
#[track_caller]
pub fn lu<A>(a: Mat<A>) -> Result<Lu<<A as Array>::Elem>, LinalgError>
where
    A: Operand<<A as Array>::Elem>,
    <A as Array>::Elem: ArrayReading,
{
    lu::frule::<<A as Array>::Elem>(a)
}

/// The rule of [`lu()`](fn@lu).
pub mod lu {
    use super::*;

    /// The factorization at reading `D`: the primal factored once; the tangent of `A`
    /// kept for the rules of the methods.
    #[track_caller]
    pub fn frule<D: ArrayReading>(a: Mat<impl Operand<D>>) -> Result<Lu<D>, LinalgError> {
        let n = square("lu", &a);
        let (factors, perm) = factor(&a, n, false, |p| lu_in_place(p, n), |p| lu_in_place(p, n))?;
        Ok(Lu { n, perm, factors })
    }
}

/// Solves `L U x = P b` in place on `n × w` rows (`x` arrives as `P b`).
fn lu_substitute<T: Real>(lu: &[T], n: usize, w: usize, x: &mut [T]) {
    let at = |i: usize, j: usize| lu[i * n + j];
    let lower = substitute(n, w, Triangle::Lower, true, at, x);
    let upper = substitute(n, w, Triangle::Upper, false, at, x);
    debug_assert!(lower.is_ok() && upper.is_ok(), "pivots are non-zero");
}

/// The rows of `m` (`n × w`) in the order `perm` (as they are without one).
fn reorder<T: Copy>(m: &[T], perm: Option<&[usize]>, w: usize) -> Vec<T> {
    let Some(perm) = perm else {
        return m.to_vec();
    };
    let mut out = Vec::with_capacity(m.len());
    for &p in perm {
        out.extend_from_slice(&m[p * w..p * w + w]);
    }
    out
}

/// Solving with a factorization's factors, on primal values or on the reading's.
trait Substitution {
    /// Solves in place on `n × w` rows already in the factorization's row order.
    fn apply<T: Real>(factors: &[T], n: usize, w: usize, x: &mut [T]);
}

struct LuSubstitution;

impl Substitution for LuSubstitution {
    fn apply<T: Real>(factors: &[T], n: usize, w: usize, x: &mut [T]) {
        lu_substitute(factors, n, w, x);
    }
}

struct CholeskySubstitution;

impl Substitution for CholeskySubstitution {
    fn apply<T: Real>(factors: &[T], n: usize, w: usize, x: &mut [T]) {
        cholesky_substitute(factors, n, w, x);
    }
}

/// `A⁻¹` (row-major) from the factors of `A`, on primal values or the reading's: the
/// identity, in the factorization's row order, solved for.
fn inverse_from<T: Real, S: Substitution>(
    factors: &[T],
    perm: Option<&[usize]>,
    n: usize,
) -> Vec<T> {
    let mut x = vec![T::zero(); n * n];
    for i in 0..n {
        x[i * n + perm.map_or(i, |p| p[i])] = T::one();
    }
    S::apply(factors, n, n, &mut x);
    x
}

/// `A⁻¹ b` from the factors of `A`: the primal solve, then `ẋ = A⁻¹ (ḃ − Ȧ x)` for
/// every lane in one substitution over the `n × N` block.
#[track_caller]
fn factored_solve<D: ArrayReading, S: Substitution>(
    op: &'static str,
    factors: &Factors<D>,
    perm: Option<&[usize]>,
    n: usize,
    b: impl Operand<D>,
) -> D::Vec {
    shape_check(b.len() == n, op, || {
        format!(
            "a {n} × {n} factorization with a right-hand side of length {}",
            b.len()
        )
    });
    match (factors, b.flat()) {
        (
            Factors::Flat {
                primal,
                tangent,
                width,
            },
            Some(bf),
        ) => {
            let w = *width;
            let mut x = reorder(bf.primal, perm, 1);
            S::apply(primal, n, 1, &mut x);
            let mut r = bf
                .tangent
                .map_or_else(|| vec![Field::<D>::zero(); n * w], <[_]>::to_vec);
            if w > 0 {
                if let Some(at) = tangent {
                    sub_tangent_times(at, &x, n, w, &mut r);
                }
                r = reorder(&r, perm, w);
                S::apply(primal, n, w, &mut r);
            }
            from_flat::<D>(x, r)
        }
        (Factors::Generic(f), _) => {
            let mut x: Vec<D> = (0..n).map(|i| b.get(perm.map_or(i, |p| p[i]))).collect();
            S::apply(f, n, 1, &mut x);
            x.into_iter().collect()
        }
        (Factors::Flat { .. }, None) => unreachable!("flat factors exist only at flat readings"),
    }
}

impl<D: ArrayReading> Lu<D> {
    /// The size `n` of the factored `n × n` matrix.
    pub fn size(&self) -> usize {
        self.n
    }

    /// `A⁻¹ b`.
    ///
    /// # Panics
    /// When `b.len()` differs from the size.
    #[track_caller]
    pub fn solve(&self, b: impl Operand<D>) -> D::Vec {
        factored_solve::<D, LuSubstitution>("Lu::solve", &self.factors, Some(&self.perm), self.n, b)
    }

    /// The primal inverse, row-major.
    /// `A⁻¹`, row-major `n × n`. Its tangent `−A⁻¹ Ȧ A⁻¹` takes two products covering
    /// every lane.
    pub fn inverse(&self) -> D::Vec {
        let n = self.n;
        match &self.factors {
            Factors::Flat {
                primal,
                tangent,
                width,
            } => {
                let w = *width;
                let x = inverse_from::<_, LuSubstitution>(primal, Some(&self.perm), n);
                let mut xt = vec![Field::<D>::zero(); n * n * w];
                if let (Some(at), true) = (tangent, w > 0) {
                    let mut g = vec![Field::<D>::zero(); n * n * w];
                    let xs = Strided::new(&x[..], n, 1);
                    add_left_tangent(at, xs, (n, n, n), w, &mut g);
                    gemm_lanes(
                        (n, n * w, n),
                        &mut xt,
                        n * w,
                        xs,
                        Strided::new(&g, n * w, 1),
                        false,
                    );
                    xt.iter_mut().for_each(|v| *v = -*v);
                }
                from_flat::<D>(x, xt)
            }
            Factors::Generic(lu) => inverse_from::<_, LuSubstitution>(lu, Some(&self.perm), n)
                .into_iter()
                .collect(),
        }
    }

    fn sign(&self) -> Field<D> {
        let mut seen = vec![false; self.n];
        let mut odd = false;
        for start in 0..self.n {
            let mut len = 0;
            let mut i = start;
            while !seen[i] {
                seen[i] = true;
                i = self.perm[i];
                len += 1;
            }
            if len > 0 && len % 2 == 0 {
                odd = !odd;
            }
        }
        if odd {
            -Field::<D>::one()
        } else {
            Field::<D>::one()
        }
    }

    /// `det A`. Its tangent is `det A · tr(A⁻¹ Ȧ)`.
    pub fn det(&self) -> D {
        let n = self.n;
        match &self.factors {
            Factors::Flat {
                primal,
                tangent,
                width,
            } => {
                let mut d = self.sign();
                for i in 0..n {
                    d *= primal[i * n + i];
                }
                let t = self.trace_term(primal, tangent.as_deref(), *width, d);
                scalar_from_flat::<D>(d, &t)
            }
            Factors::Generic(lu) => {
                let mut d = D::cst(crate::Scalar::to_f64(self.sign()));
                for i in 0..n {
                    d *= lu[i * n + i];
                }
                d
            }
        }
    }

    /// `ln |det A|`. Its tangent is `tr(A⁻¹ Ȧ)`.
    pub fn ln_abs_det(&self) -> D {
        let n = self.n;
        match &self.factors {
            Factors::Flat {
                primal,
                tangent,
                width,
            } => {
                let mut v = Field::<D>::zero();
                for i in 0..n {
                    v += primal[i * n + i].abs().ln();
                }
                let t = self.trace_term(primal, tangent.as_deref(), *width, Field::<D>::one());
                scalar_from_flat::<D>(v, &t)
            }
            Factors::Generic(lu) => {
                let mut v = D::zero();
                for i in 0..n {
                    v += lu[i * n + i].abs().ln();
                }
                v
            }
        }
    }

    /// `scale · tr(A⁻¹ Ȧ)` per lane (zero without a tangent).
    fn trace_term(
        &self,
        lu: &[Field<D>],
        tangent: Option<&[Field<D>]>,
        w: usize,
        scale: Field<D>,
    ) -> Vec<Field<D>> {
        match tangent {
            Some(at) if w > 0 => {
                let x = inverse_from::<_, LuSubstitution>(lu, Some(&self.perm), self.n);
                trace_product(&x, at, self.n, w, scale)
            }
            _ => vec![Field::<D>::zero(); w],
        }
    }
}

/// A Cholesky factorization `A = L Lᵀ` of a symmetric positive definite matrix, made
/// by [`cholesky()`](fn@cholesky). Only the lower triangle of `A` is read, so the
/// derivative is taken with respect to it (the upper triangle mirrors it).
#[derive(Clone, Debug)]
pub struct Cholesky<D: ArrayReading> {
    n: usize,
    factors: Factors<D>,
}

/// Factors the symmetric positive definite matrix `A = L Lᵀ` (lower triangle read).
///
/// # Errors
/// [`LinalgError::NotPositiveDefinite`] when a pivot is not positive.
///
/// # Panics
/// When `A` is not square.
#[track_caller]
pub fn cholesky<A>(a: Mat<A>) -> Result<Cholesky<<A as Array>::Elem>, LinalgError>
where
    A: Operand<<A as Array>::Elem>,
    <A as Array>::Elem: ArrayReading,
{
    cholesky::frule::<<A as Array>::Elem>(a)
}

/// The rule of [`cholesky()`](fn@cholesky).
pub mod cholesky {
    use super::*;

    /// The factorization at reading `D`.
    #[track_caller]
    pub fn frule<D: ArrayReading>(a: Mat<impl Operand<D>>) -> Result<Cholesky<D>, LinalgError> {
        let n = square("cholesky", &a);
        let (factors, ()) = factor(
            &a,
            n,
            true,
            |p| cholesky_in_place(p, n),
            |p| cholesky_in_place(p, n),
        )?;
        Ok(Cholesky { n, factors })
    }
}

/// Solves `L Lᵀ x = b` in place on `n × w` rows.
fn cholesky_substitute<T: Real>(l: &[T], n: usize, w: usize, x: &mut [T]) {
    let lower = substitute(n, w, Triangle::Lower, false, |i, j| l[i * n + j], x);
    let upper = substitute(n, w, Triangle::Upper, false, |i, j| l[j * n + i], x);
    debug_assert!(lower.is_ok() && upper.is_ok(), "pivots are positive");
}

impl<D: ArrayReading> Cholesky<D> {
    /// The size `n` of the factored `n × n` matrix.
    pub fn size(&self) -> usize {
        self.n
    }

    /// `A⁻¹ b`.
    ///
    /// # Panics
    /// When `b.len()` differs from the size.
    #[track_caller]
    pub fn solve(&self, b: impl Operand<D>) -> D::Vec {
        factored_solve::<D, CholeskySubstitution>("Cholesky::solve", &self.factors, None, self.n, b)
    }

    /// `ln det A = 2 Σ ln Lᵢᵢ`. Its tangent is `tr(A⁻¹ Ȧ)`.
    pub fn ln_det(&self) -> D {
        let n = self.n;
        match &self.factors {
            Factors::Flat {
                primal,
                tangent,
                width,
            } => {
                let mut v = Field::<D>::zero();
                for i in 0..n {
                    v += primal[i * n + i].ln();
                }
                v = v + v;
                let t = match (tangent, *width > 0) {
                    (Some(at), true) => {
                        let x = inverse_from::<_, CholeskySubstitution>(primal, None, n);
                        trace_product(&x, at, n, *width, Field::<D>::one())
                    }
                    _ => vec![Field::<D>::zero(); *width],
                };
                scalar_from_flat::<D>(v, &t)
            }
            Factors::Generic(l) => {
                let mut v = D::zero();
                for i in 0..n {
                    v += l[i * n + i].ln();
                }
                v + v
            }
        }
    }
}

/// Solves `A x = b` by LU with partial pivoting.
///
/// # Errors
/// [`LinalgError::Singular`] when `A` is exactly singular.
///
/// # Panics
/// When `A` is not square or `b.len()` differs from its size.
#[track_caller]
pub fn solve<A, B>(
    a: Mat<A>,
    b: B,
) -> Result<<<A as Array>::Elem as ArrayReading>::Vec, LinalgError>
where
    A: Operand<<A as Array>::Elem>,
    B: Operand<<A as Array>::Elem>,
    <A as Array>::Elem: ArrayReading,
{
    solve::frule::<<A as Array>::Elem>(a, b)
}

/// The rule of [`solve()`](fn@solve).
pub mod solve {
    use super::*;

    /// `A⁻¹ b` at reading `D`: one factorization, one multi-right-hand-side solve for
    /// all lanes.
    #[track_caller]
    pub fn frule<D: ArrayReading>(
        a: Mat<impl Operand<D>>,
        b: impl Operand<D>,
    ) -> Result<D::Vec, LinalgError> {
        square_with_rhs("solve", &a, b.len());
        Ok(lu::frule::<D>(a)?.solve(b))
    }
}

/// `A⁻¹`, row-major, by LU with partial pivoting.
///
/// # Errors
/// [`LinalgError::Singular`] when `A` is exactly singular.
///
/// # Panics
/// When `A` is not square.
#[track_caller]
pub fn inverse<A>(a: Mat<A>) -> Result<<<A as Array>::Elem as ArrayReading>::Vec, LinalgError>
where
    A: Operand<<A as Array>::Elem>,
    <A as Array>::Elem: ArrayReading,
{
    inverse::frule::<<A as Array>::Elem>(a)
}

/// The rule of [`inverse()`](fn@inverse).
pub mod inverse {
    use super::*;

    /// `A⁻¹` at reading `D`.
    #[track_caller]
    pub fn frule<D: ArrayReading>(a: Mat<impl Operand<D>>) -> Result<D::Vec, LinalgError> {
        Ok(lu::frule::<D>(a)?.inverse())
    }
}
