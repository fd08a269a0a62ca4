//! Matrix–vector and matrix–matrix products.
//!
//! With `C = A B`: `Ċ = A Ḃ + Ȧ B`. In the element-major block a row-major `n × p`
//! matrix's tangent is an `n × (p·N)` row-major matrix, so `A Ḃ` for all N lanes is one
//! GEMM of shape `m × n × (p·N)`; `Ȧ B` is, row by row of `A`, `Bᵀ Ȧᵢ` with `Ȧᵢ` the
//! `n × N` block of row `i` — one GEMM per row of `A`, each covering every lane.

use crate::array::Array;
use crate::array::ArrayReading;
use crate::array::from_flat;
use crate::array::offload_array;
use crate::array::{ArrayOp, MatArg};
use crate::array::{Flat, Operand};
use crate::linalg::kernel::{Float, Strided, axpy_lanes, gemm, gemm_lanes, transpose_block};
use crate::linalg::operand::{Mat, shape_check};

/// A matrix operand in flat form: primal data, optional tangent block, shape, strides.
#[derive(Clone, Copy)]
pub(crate) struct FlatMat<'a, F> {
    pub primal: &'a [F],
    pub tangent: Option<&'a [F]>,
    pub rows: usize,
    pub cols: usize,
    pub rs: usize,
    pub cs: usize,
    pub transposed: bool,
}

impl<'a, F: Copy> FlatMat<'a, F> {
    pub fn of<A>(m: &Mat<A>, flat: Flat<'a, F>) -> Self {
        let (rs, cs) = m.strides();
        Self {
            primal: flat.primal,
            tangent: flat.tangent,
            rows: m.rows(),
            cols: m.cols(),
            rs,
            cs,
            transposed: m.is_transposed(),
        }
    }

    pub fn strided(&self) -> Strided<'a, F> {
        Strided::new(self.primal, self.rs, self.cs)
    }

    /// The tangent block in logical row-major order (copied only for a transposed view).
    pub fn tangent_rows(&self, w: usize) -> Option<std::borrow::Cow<'a, [F]>> {
        let t = self.tangent?;
        Some(if self.transposed {
            std::borrow::Cow::Owned(transpose_block(t, self.cols, self.rows, w))
        } else {
            std::borrow::Cow::Borrowed(t)
        })
    }
}

/// `A x` for an `m × n` matrix `A` and a vector of length `n`.
///
/// # Panics
/// When `x.len() != a.cols()`.
#[track_caller]
pub fn matvec<A, X>(a: Mat<A>, x: X) -> <<A as Array>::Elem as ArrayReading>::Vec
where
    A: Operand<<A as Array>::Elem>,
    X: Operand<<A as Array>::Elem>,
    <A as Array>::Elem: ArrayReading,
{
    matvec::frule::<<A as Array>::Elem>(a, x)
}

/// The rule of [`matvec()`](fn@matvec).
pub mod matvec {
    use super::*;

    /// `A x` at reading `D`: the primal by one GEMV, `A Ẋ` for all lanes by one GEMM,
    /// `Ȧ x` by one pass over `Ȧ`'s block.
    #[track_caller]
    pub fn frule<D: ArrayReading>(a: Mat<impl Operand<D>>, x: impl Operand<D>) -> D::Vec {
        let (m, n) = a.shape();
        shape_check(x.len() == n, "matvec", || {
            format!("a {m} × {n} matrix times a vector of length {}", x.len())
        });
        if let Some(y) = offload_array(ArrayOp::Matvec(MatArg::of(&a), &x)) {
            return y;
        }
        if let (Some(w), Some(af), Some(xf)) = (D::flat_width(), a.data().flat(), x.flat()) {
            let (y, yt) = flat(FlatMat::of(&a, af), xf, w);
            return from_flat::<D>(y, yt);
        }
        (0..m)
            .map(|i| {
                let mut s = D::zero();
                for j in 0..n {
                    s += a.at::<D>(i, j) * x.get(j);
                }
                s
            })
            .collect()
    }

    pub(crate) fn flat<F: Float>(a: FlatMat<'_, F>, x: Flat<'_, F>, w: usize) -> (Vec<F>, Vec<F>) {
        let (m, n) = (a.rows, a.cols);
        let mut y = vec![F::zero(); m];
        gemm(
            (m, 1, n),
            &mut y,
            1,
            a.strided(),
            Strided::new(x.primal, 1, 1),
            false,
        );
        let mut yt = vec![F::zero(); m * w];
        if w == 0 {
            return (y, yt);
        }
        if let Some(xt) = x.tangent {
            gemm_lanes(
                (m, w, n),
                &mut yt,
                w,
                a.strided(),
                Strided::new(xt, w, 1),
                false,
            );
        }
        if let Some(at) = a.tangent {
            // Walk Ȧ's block in storage order: element (r, c) of the data is (r, c) of A,
            // or (c, r) for a transposed view.
            let (rows, cols) = if a.transposed { (n, m) } else { (m, n) };
            for r in 0..rows {
                for c in 0..cols {
                    let (i, j) = if a.transposed { (c, r) } else { (r, c) };
                    let s = (r * cols + c) * w;
                    axpy_lanes(x.primal[j], &at[s..s + w], &mut yt[i * w..i * w + w]);
                }
            }
        }
        (y, yt)
    }
}

/// `A B` for an `m × n` matrix `A` and an `n × p` matrix `B`, as a row-major `m × p`
/// array.
///
/// # Panics
/// When `a.cols() != b.rows()`.
#[track_caller]
pub fn matmul<A, B>(a: Mat<A>, b: Mat<B>) -> <<A as Array>::Elem as ArrayReading>::Vec
where
    A: Operand<<A as Array>::Elem>,
    B: Operand<<A as Array>::Elem>,
    <A as Array>::Elem: ArrayReading,
{
    matmul::frule::<<A as Array>::Elem>(a, b)
}

/// The rule of [`matmul()`](fn@matmul).
pub mod matmul {
    use super::*;

    /// `A B` at reading `D`: the primal by one GEMM, `A Ḃ` for all lanes by one GEMM,
    /// `Ȧ B` by one GEMM per row of `A`.
    #[track_caller]
    pub fn frule<D: ArrayReading>(a: Mat<impl Operand<D>>, b: Mat<impl Operand<D>>) -> D::Vec {
        let ((m, n), (nb, p)) = (a.shape(), b.shape());
        shape_check(n == nb, "matmul", || {
            format!("a {m} × {n} matrix times a {nb} × {p} matrix")
        });
        if let Some(c) = offload_array(ArrayOp::Matmul(MatArg::of(&a), MatArg::of(&b))) {
            return c;
        }
        if let (Some(w), Some(af), Some(bf)) = (D::flat_width(), a.data().flat(), b.data().flat()) {
            let (c, ct) = flat(FlatMat::of(&a, af), FlatMat::of(&b, bf), w);
            return from_flat::<D>(c, ct);
        }
        let mut out = Vec::with_capacity(m * p);
        for i in 0..m {
            for j in 0..p {
                let mut s = D::zero();
                for l in 0..n {
                    s += a.at::<D>(i, l) * b.at::<D>(l, j);
                }
                out.push(s);
            }
        }
        out.into_iter().collect()
    }

    pub(crate) fn flat<F: Float>(
        a: FlatMat<'_, F>,
        b: FlatMat<'_, F>,
        w: usize,
    ) -> (Vec<F>, Vec<F>) {
        let (m, n, p) = (a.rows, a.cols, b.cols);
        let mut c = vec![F::zero(); m * p];
        gemm((m, p, n), &mut c, p, a.strided(), b.strided(), false);
        let mut ct = vec![F::zero(); m * p * w];
        if w == 0 {
            return (c, ct);
        }
        if let Some(bt) = b.tangent_rows(w) {
            gemm_lanes(
                (m, p * w, n),
                &mut ct,
                p * w,
                a.strided(),
                Strided::new(&bt, p * w, 1),
                false,
            );
        }
        if let Some(at) = a.tangent_rows(w) {
            add_left_tangent(&at, b.strided(), (m, n, p), w, &mut ct);
        }
        (c, ct)
    }
}

/// `Ċ += Ȧ B` for Ȧ's logical row-major block: row `i` of `Ċ` (a `p × w` block) gains
/// `Bᵀ Ȧᵢ`, one GEMM per row covering every lane.
pub(crate) fn add_left_tangent<F: Float>(
    at: &[F],
    b: Strided<'_, F>,
    (m, n, p): (usize, usize, usize),
    w: usize,
    ct: &mut [F],
) {
    for i in 0..m {
        gemm_lanes(
            (p, w, n),
            &mut ct[i * p * w..(i + 1) * p * w],
            w,
            b.t(),
            Strided::new(&at[i * n * w..(i + 1) * n * w], w, 1),
            true,
        );
    }
}
