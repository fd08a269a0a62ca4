//! The one place that calls the GEMM kernel, behind a bounds-checked safe wrapper, and
//! the small dense loops the array primitives share (substitution, factorizations,
//! transposes of tangent blocks). Every loop here is generic over a `Real` element so
//! the same code runs on primal floats (the fast, flat path) and on any reading (the
//! element-wise fallback): the primal of a flat run is bitwise the primal function's.
#![allow(unsafe_code)]

use crate::linalg::LinalgError;
use crate::{Real, Scalar};

/// A primal field with the reading arithmetic (`f64`, `f32`).
pub(crate) trait Float: Scalar + Real {}

impl<T: Scalar + Real> Float for T {}

/// A strided read-only matrix operand: element `(i, j)` at `data[i * rs + j * cs]`.
#[derive(Clone, Copy)]
pub(crate) struct Strided<'a, F> {
    pub data: &'a [F],
    pub rs: usize,
    pub cs: usize,
}

impl<'a, F> Strided<'a, F> {
    pub fn new(data: &'a [F], rs: usize, cs: usize) -> Self {
        Self { data, rs, cs }
    }

    /// The same matrix transposed (strides swapped, no copy).
    pub fn t(self) -> Self {
        Self {
            data: self.data,
            rs: self.cs,
            cs: self.rs,
        }
    }

    /// Whether every element of the `rows × cols` matrix is finite.
    fn all_finite(&self, rows: usize, cols: usize) -> bool
    where
        F: Float,
    {
        (0..rows).all(|i| (0..cols).all(|j| Real::is_finite(self.data[i * self.rs + j * self.cs])))
    }

    fn fits(&self, rows: usize, cols: usize) -> bool {
        rows == 0 || cols == 0 || (rows - 1) * self.rs + (cols - 1) * self.cs < self.data.len()
    }
}

/// `dst (m × n, row stride dst_rs, unit column stride) [+]= a (m × k) · b (k × n)`.
///
/// Panics (an internal invariant, never user input) when an operand does not cover its
/// shape.
pub(crate) fn gemm<F: Float>(
    (m, n, k): (usize, usize, usize),
    dst: &mut [F],
    dst_rs: usize,
    a: Strided<'_, F>,
    b: Strided<'_, F>,
    accumulate: bool,
) {
    if m == 0 || n == 0 {
        return;
    }
    assert!(
        (m - 1) * dst_rs + n <= dst.len() && a.fits(m, k) && b.fits(k, n),
        "gemm operands do not cover their shapes"
    );
    if k == 0 {
        if !accumulate {
            for i in 0..m {
                dst[i * dst_rs..i * dst_rs + n].fill(F::zero());
            }
        }
        return;
    }
    // SAFETY: the assertion above checks that every index the kernel touches,
    // `i * rs + j * cs` over the stated shapes, lies inside the three slices; `dst` is
    // borrowed mutably and cannot alias `a` or `b`; the kernel supports `f32` and `f64`,
    // the only `Scalar` types (the trait is sealed).
    unsafe {
        ::gemm::gemm(
            m,
            n,
            k,
            dst.as_mut_ptr(),
            1,
            dst_rs as isize,
            accumulate,
            a.data.as_ptr(),
            a.cs as isize,
            a.rs as isize,
            b.data.as_ptr(),
            b.cs as isize,
            b.rs as isize,
            F::one(),
            F::one(),
            false,
            false,
            false,
            ::gemm::Parallelism::None,
        );
    }
    clear_upper_vector_state();
}

/// [`gemm`] for a product of a primal matrix `a` and a tangent block `b`, NaN-safe: a
/// GEMM kernel cannot mask lanes, and `∞ · 0` in it would make an untouched lane NaN.
/// The kernel runs as usual; only when its output holds a NaN and `a` holds an
/// infinite or NaN element is the product taken again by a plain loop whose products
/// are strong-zero ([`times_safe`](crate::reading::times_safe)), so that a lane in
/// which the tangent is zero stays exactly zero, as at the scalar readings. A NaN of
/// `∞ · 0` always reaches the output (NaN absorbs every sum), so the output test, which
/// reads the small tangent result rather than the primal matrix, misses none.
pub(crate) fn gemm_lanes<F: Float>(
    (m, n, k): (usize, usize, usize),
    dst: &mut [F],
    dst_rs: usize,
    a: Strided<'_, F>,
    b: Strided<'_, F>,
    accumulate: bool,
) {
    // The masked path needs what an accumulating call added to: one copy of the
    // m × n block (next to the m · n · k products, a small cost), in one allocation.
    if crate::reading::UNCHECKED_LANES {
        return gemm((m, n, k), dst, dst_rs, a, b, accumulate);
    }
    let rows = |dst: &[F]| -> Vec<F> {
        let mut out = Vec::with_capacity(m * n);
        for i in 0..m {
            out.extend_from_slice(&dst[i * dst_rs..i * dst_rs + n]);
        }
        out
    };
    let before = (accumulate && m > 0 && n > 0).then(|| rows(dst));
    gemm((m, n, k), dst, dst_rs, a, b, accumulate);
    let has_nan = (0..m).any(|i| {
        dst[i * dst_rs..i * dst_rs + n]
            .iter()
            .any(|v| Real::is_nan(*v))
    });
    if !has_nan || a.all_finite(m, k) {
        return;
    }
    for i in 0..m {
        for j in 0..n {
            let mut s = F::zero();
            for l in 0..k {
                s += crate::reading::times_safe(
                    a.data[i * a.rs + l * a.cs],
                    b.data[l * b.rs + j * b.cs],
                );
            }
            let old = before.as_ref().map_or(F::zero(), |v| v[i * n + j]);
            dst[i * dst_rs + j] = if accumulate { old + s } else { s };
        }
    }
}

/// The GEMM kernels return with the upper halves of the AVX registers in use; scalar
/// code compiled for baseline x86-64 (libm's `tanh`, the element-wise rules) then pays
/// a state-transition penalty on every SSE instruction — a `tanh` measured ten times
/// slower right after a GEMM. `vzeroupper` after each call keeps the rest fast.
#[inline]
fn clear_upper_vector_state() {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx") {
        // SAFETY: `zeroupper` only requires AVX, which was detected just above.
        unsafe { zeroupper() }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
fn zeroupper() {
    core::arch::x86_64::_mm256_zeroupper();
}

/// `y += alpha · x` over equal-length runs.
#[inline]
pub(crate) fn axpy<T: Real>(alpha: T, x: &[T], y: &mut [T]) {
    for (y, &x) in y.iter_mut().zip(x) {
        *y += alpha * x;
    }
}

/// `y += alpha · x` for a primal `alpha` and a run `x` of tangent lanes, NaN-safe: a
/// zero lane stays zero when `alpha` is infinite or NaN.
#[inline]
pub(crate) fn axpy_lanes<T: Real>(alpha: T, x: &[T], y: &mut [T]) {
    if alpha.is_finite() {
        return axpy(alpha, x, y);
    }
    for (y, &x) in y.iter_mut().zip(x) {
        *y += crate::reading::times_sz(alpha, x);
    }
}

/// The element-major block (`w` values per element) of the transpose of a row-major
/// `rows × cols` matrix whose block is `block`.
pub(crate) fn transpose_block<F: Copy>(block: &[F], rows: usize, cols: usize, w: usize) -> Vec<F> {
    let mut out = Vec::with_capacity(block.len());
    for j in 0..cols {
        for i in 0..rows {
            let at = (i * cols + j) * w;
            out.extend_from_slice(&block[at..at + w]);
        }
    }
    out
}

/// Which triangle a substitution reads.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Triangle {
    Lower,
    Upper,
}

/// Solves `T X = R` in place for `R` of `n` rows of `w` values, `T` read through
/// `t(i, j)` on its triangle (`unit`: the diagonal is taken as one and not read).
/// `Err(i)` when the diagonal element of row `i` is exactly zero.
pub(crate) fn substitute<T: Real>(
    n: usize,
    w: usize,
    triangle: Triangle,
    unit: bool,
    t: impl Fn(usize, usize) -> T,
    r: &mut [T],
) -> Result<(), usize> {
    for step in 0..n {
        let i = match triangle {
            Triangle::Lower => step,
            Triangle::Upper => n - 1 - step,
        };
        let (from, to) = match triangle {
            Triangle::Lower => (0, i),
            Triangle::Upper => (i + 1, n),
        };
        for j in from..to {
            let tij = t(i, j);
            let (ri, rj) = if j < i {
                let (head, tail) = r.split_at_mut(i * w);
                (&mut tail[..w], &head[j * w..j * w + w])
            } else {
                let (head, tail) = r.split_at_mut(j * w);
                (&mut head[i * w..i * w + w], &tail[..w])
            };
            axpy(-tij, rj, ri);
        }
        if !unit {
            let d = t(i, i);
            if d == T::zero() {
                return Err(i);
            }
            for v in &mut r[i * w..i * w + w] {
                *v /= d;
            }
        }
    }
    Ok(())
}

/// LU factorization with partial pivoting of the row-major `n × n` matrix `a`, in
/// place (`L` unit lower below the diagonal, `U` on and above). Returns the row order:
/// row `i` of `P A` is row `perm[i]` of `A`. Pivots are chosen on primal magnitudes.
pub(crate) fn lu_in_place<T: Real>(a: &mut [T], n: usize) -> Result<Vec<usize>, LinalgError> {
    let mut perm: Vec<usize> = (0..n).collect();
    for k in 0..n {
        let mut p = k;
        for i in k + 1..n {
            if a[i * n + k].abs() > a[p * n + k].abs() {
                p = i;
            }
        }
        if a[p * n + k] == T::zero() || a[p * n + k].is_nan() {
            return Err(LinalgError::Singular { op: "lu", pivot: k });
        }
        if p != k {
            for j in 0..n {
                a.swap(k * n + j, p * n + j);
            }
            perm.swap(k, p);
        }
        let pivot = a[k * n + k];
        let (top, rest) = a.split_at_mut((k + 1) * n);
        let row_k = &top[k * n + k + 1..k * n + n];
        for row in rest.chunks_exact_mut(n) {
            let l = row[k] / pivot;
            row[k] = l;
            axpy(-l, row_k, &mut row[k + 1..]);
        }
    }
    Ok(perm)
}

/// Cholesky factorization `A = L Lᵀ` of the symmetric positive definite row-major
/// `n × n` matrix `a`, in place: only the lower triangle is read, `L` overwrites it and
/// the strict upper triangle is zeroed.
pub(crate) fn cholesky_in_place<T: Real>(a: &mut [T], n: usize) -> Result<(), LinalgError> {
    for j in 0..n {
        let mut d = a[j * n + j];
        for k in 0..j {
            d -= a[j * n + k] * a[j * n + k];
        }
        // NaN fails too: not `d <= 0`.
        if d.partial_cmp(&T::zero()) != Some(core::cmp::Ordering::Greater) {
            return Err(LinalgError::NotPositiveDefinite { pivot: j });
        }
        let l = d.sqrt();
        a[j * n + j] = l;
        for i in j + 1..n {
            let mut s = a[i * n + j];
            for k in 0..j {
                s -= a[i * n + k] * a[j * n + k];
            }
            a[i * n + j] = s / l;
        }
        for k in j + 1..n {
            a[j * n + k] = T::zero();
        }
    }
    Ok(())
}
