//! Products on the device through cuBLAS: the value and every lane in one call where
//! the layout allows it, one strided-batched call where it does not.
//!
//! Row-major `C = A B` is column-major `Cᵀ = Bᵀ Aᵀ`, so every product below is issued
//! to cuBLAS with its operands swapped and no transposition.

use std::sync::Arc;

use super::array::{CudaArray, CudaNDualArray};
use super::float::{DeviceFloat, GemmCall};
use super::ops::Operand;
use super::{CudaError, Device};

/// A row-major `(m × k)(k × n)` product, possibly a strided batch, accumulating into
/// `c` when `accumulate`.
#[derive(Clone, Copy)]
struct RowMajor {
    m: usize,
    n: usize,
    k: usize,
    a: u64,
    stride_a: usize,
    b: u64,
    stride_b: usize,
    c: u64,
    stride_c: usize,
    batch: usize,
    accumulate: bool,
}

impl RowMajor {
    fn run<S: DeviceFloat>(self, device: &Device) -> Result<(), CudaError> {
        if self.m == 0 || self.n == 0 || self.batch == 0 {
            return Ok(());
        }
        let limit = i32::MAX as usize;
        if [self.m, self.n, self.k, self.batch]
            .iter()
            .any(|&d| d > limit)
        {
            return Err(CudaError::shape(
                "matmul",
                "a dimension exceeds cuBLAS's 32-bit limit".to_owned(),
            ));
        }
        let call = GemmCall {
            transa: false,
            transb: false,
            m: self.n,
            n: self.m,
            k: self.k,
            a: self.b,
            lda: self.n.max(1),
            stride_a: self.stride_b,
            b: self.a,
            ldb: self.k.max(1),
            stride_b: self.stride_a,
            beta_one: self.accumulate,
            c: self.c,
            ldc: self.n.max(1),
            stride_c: self.stride_c,
            batch: self.batch,
        };
        let handle = *device.blas()?.handle();
        // SAFETY: the callers pass addresses of live buffers on this device holding
        // `batch` matrices at the given strides, of the shapes in `call` (checked by
        // `shapes`); the handle is bound to the device's stream.
        unsafe { S::gemm(handle, &call) }.map_err(|e| CudaError::driver("cuBLAS gemm", e))
    }
}

/// `(m, k, n)` of `a b` with 1-D operands read as a row (left) or a column (right),
/// and the result's shape.
fn shapes(a: &[usize], b: &[usize]) -> Result<(usize, usize, usize, Vec<usize>), CudaError> {
    let (m, k1, left_vec) = match *a {
        [k] => (1, k, true),
        [m, k] => (m, k, false),
        _ => {
            return Err(CudaError::shape(
                "matmul",
                format!("left operand of shape {a:?}"),
            ));
        }
    };
    let (k2, n, right_vec) = match *b {
        [k] => (k, 1, true),
        [k, n] => (k, n, false),
        _ => {
            return Err(CudaError::shape(
                "matmul",
                format!("right operand of shape {b:?}"),
            ));
        }
    };
    if k1 != k2 {
        return Err(CudaError::shape(
            "matmul",
            format!("inner dimensions differ: {a:?} × {b:?}"),
        ));
    }
    let shape = match (left_vec, right_vec) {
        (true, true) => vec![1],
        (true, false) => vec![n],
        (false, true) => vec![m],
        (false, false) => vec![m, n],
    };
    Ok((m, k1, n, shape))
}

/// The matrix product `a b` (row-major; a 1-D left operand is a row, a 1-D right one a
/// column), with its N lanes `ȧ b + a ḃ`.
///
/// - `a` active, `b` constant: the `1 + N` streams of `a` stack into one
///   `((1 + N) m) × k` matrix: **one** GEMM gives the value and every lane (the layer
///   of a network over a batch of points, `H W`).
/// - `a` constant, `b` active: one GEMM when `b` is a vector (its streams form the
///   columns of a `k × (1 + N)` matrix), one strided-batched call otherwise.
/// - both active: the value and `ȧ b` in one GEMM, then `a ḃ` accumulated in one
///   strided-batched call.
///
/// ```no_run
/// use lifted::NDualArray;
/// use lifted::cuda::{CudaArray, CudaNDualArray, Device, matmul};
///
/// let dev = Device::new(0)?;
/// // 1000 points of 3 coordinates, seeded along the three coordinates.
/// let h = NDualArray::<f64, 3>::from_primal_fn(vec![0.5; 3000], |i, k| f64::from(u8::from(i % 3 == k)));
/// let h = CudaNDualArray::from_host_shaped(&dev, &h, &[1000, 3])?;
/// let w = CudaArray::new(&dev, &[0.1; 3 * 64], &[3, 64])?;
/// let z = matmul(&h, &w)?.tanh()?; // 1000 × 64, values and 3 lanes
/// assert_eq!(z.shape(), &[1000, 64]);
/// # Ok::<(), lifted::cuda::CudaError>(())
/// ```
///
/// # Errors
/// [`CudaError::Shape`] for operands that are not 1-D or 2-D or whose inner dimensions
/// differ, or when both are constant; [`CudaError::LibraryMissing`] without cuBLAS;
/// allocation and launch errors.
pub fn matmul<'a, S: DeviceFloat, const N: usize>(
    a: impl Into<Operand<'a, S, N>>,
    b: impl Into<Operand<'a, S, N>>,
) -> Result<CudaNDualArray<S, N>, CudaError> {
    match (a.into(), b.into()) {
        (Operand::Active(a), Operand::Constant(b)) => active_constant(a, b),
        (Operand::Constant(a), Operand::Active(b)) => constant_active(a, b),
        (Operand::Active(a), Operand::Active(b)) => active_active(a, b),
        _ => Err(CudaError::shape(
            "matmul",
            "one operand must be a forward-mode array and neither a scalar (scale with `mul`)",
        )),
    }
}

fn same_device(a: &Arc<Device>, b: &Arc<Device>) -> Result<(), CudaError> {
    if Arc::ptr_eq(a, b) {
        Ok(())
    } else {
        Err(CudaError::shape(
            "matmul",
            "operands live on different devices",
        ))
    }
}

fn active_constant<S: DeviceFloat, const N: usize>(
    a: &CudaNDualArray<S, N>,
    b: &CudaArray<S>,
) -> Result<CudaNDualArray<S, N>, CudaError> {
    same_device(a.device(), b.device())?;
    let (m, k, n, shape) = shapes(a.shape(), b.shape())?;
    let device = a.device().clone();
    let c = CudaNDualArray::<S, N>::uninit(&device, shape)?;
    RowMajor {
        m: (1 + N) * m,
        n,
        k,
        a: a.stream_address(0),
        stride_a: 0,
        b: b.address(),
        stride_b: 0,
        c: c.stream_address(0),
        stride_c: 0,
        batch: 1,
        accumulate: false,
    }
    .run::<S>(&device)?;
    Ok(c)
}

fn constant_active<S: DeviceFloat, const N: usize>(
    a: &CudaArray<S>,
    b: &CudaNDualArray<S, N>,
) -> Result<CudaNDualArray<S, N>, CudaError> {
    same_device(a.device(), b.device())?;
    let (m, k, n, shape) = shapes(a.shape(), b.shape())?;
    let device = b.device().clone();
    let c = CudaNDualArray::<S, N>::uninit(&device, shape)?;
    if n == 1 {
        // The streams of a vector b are the columns of B = [b, ḃ₀, …] (k × (1 + N),
        // column-major), and C = A B is the streams of c: one column-major GEMM with A
        // read transposed (A row-major is Aᵀ column-major).
        let call = GemmCall {
            transa: true,
            transb: false,
            m,
            n: 1 + N,
            k,
            a: a.address(),
            lda: k.max(1),
            stride_a: 0,
            b: b.stream_address(0),
            ldb: k.max(1),
            stride_b: 0,
            beta_one: false,
            c: c.stream_address(0),
            ldc: m.max(1),
            stride_c: 0,
            batch: 1,
        };
        if m == 0 || k > i32::MAX as usize || m > i32::MAX as usize {
            return if m == 0 {
                Ok(c)
            } else {
                Err(CudaError::shape(
                    "matmul",
                    "a dimension exceeds cuBLAS's 32-bit limit",
                ))
            };
        }
        let handle = *device.blas()?.handle();
        // SAFETY: `a` holds m · k values, `b` (1 + N) · k, `c` (1 + N) · m, all live on
        // this device; the handle is bound to its stream.
        unsafe { S::gemm(handle, &call) }.map_err(|e| CudaError::driver("cuBLAS gemm", e))?;
        return Ok(c);
    }
    RowMajor {
        m,
        n,
        k,
        a: a.address(),
        stride_a: 0,
        b: b.stream_address(0),
        stride_b: k * n,
        c: c.stream_address(0),
        stride_c: m * n,
        batch: 1 + N,
        accumulate: false,
    }
    .run::<S>(&device)?;
    Ok(c)
}

fn active_active<S: DeviceFloat, const N: usize>(
    a: &CudaNDualArray<S, N>,
    b: &CudaNDualArray<S, N>,
) -> Result<CudaNDualArray<S, N>, CudaError> {
    same_device(a.device(), b.device())?;
    let (m, k, n, shape) = shapes(a.shape(), b.shape())?;
    let device = a.device().clone();
    let c = CudaNDualArray::<S, N>::uninit(&device, shape)?;
    // Value and ȧ b: every stream of a times b's value.
    RowMajor {
        m: (1 + N) * m,
        n,
        k,
        a: a.stream_address(0),
        stride_a: 0,
        b: b.stream_address(0),
        stride_b: 0,
        c: c.stream_address(0),
        stride_c: 0,
        batch: 1,
        accumulate: false,
    }
    .run::<S>(&device)?;
    // + a ḃ for every lane, a's value shared by the batch.
    RowMajor {
        m,
        n,
        k,
        a: a.stream_address(0),
        stride_a: 0,
        b: b.stream_address(1),
        stride_b: k * n,
        c: c.stream_address(1),
        stride_c: m * n,
        batch: N,
        accumulate: true,
    }
    .run::<S>(&device)?;
    Ok(c)
}
