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
#[derive(Clone, Copy, Debug)]
pub(crate) struct RowMajor {
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pub a: u64,
    pub stride_a: usize,
    pub b: u64,
    pub stride_b: usize,
    pub c: u64,
    pub stride_c: usize,
    pub batch: usize,
    pub accumulate: bool,
}

impl RowMajor {
    /// One product `c = a b`.
    pub(crate) fn one(m: usize, n: usize, k: usize, a: u64, b: u64, c: u64) -> Self {
        Self::shared_left(m, n, k, a, b, c, 1, false)
    }

    /// `batch` products `c_i (+)= a b_i` sharing `a`; `b_i` and `c_i` follow each
    /// other in memory.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn shared_left(
        m: usize,
        n: usize,
        k: usize,
        a: u64,
        b: u64,
        c: u64,
        batch: usize,
        accumulate: bool,
    ) -> Self {
        Self {
            m,
            n,
            k,
            a,
            stride_a: 0,
            b,
            stride_b: k * n,
            c,
            stride_c: m * n,
            batch,
            accumulate,
        }
    }

    /// The column-major cuBLAS call computing it: `Cᵀ = Bᵀ Aᵀ`, operands swapped.
    pub(crate) fn call(self) -> GemmCall {
        GemmCall {
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
        }
    }

    pub(crate) fn run<S: DeviceFloat>(self, device: &Device) -> Result<(), CudaError> {
        run_call::<S>(device, &self.call())
    }
}

/// Issues `call` on the device's cuBLAS handle, refusing dimensions past `int`. An
/// empty product issues nothing: its result is empty, or zeros from the start when
/// only the inner dimension is empty (see [`product`]).
fn run_call<S: DeviceFloat>(device: &Device, call: &GemmCall) -> Result<(), CudaError> {
    if call.m == 0 || call.n == 0 || call.k == 0 || call.batch == 0 {
        return Ok(());
    }
    let limit = i32::MAX as usize;
    if [
        call.m, call.n, call.k, call.batch, call.lda, call.ldb, call.ldc,
    ]
    .iter()
    .any(|&d| d > limit)
    {
        return Err(CudaError::shape(
            "matmul",
            "a dimension exceeds cuBLAS's 32-bit limit",
        ));
    }
    let handle = *device.blas()?.handle();
    // cuBLAS runs in the calling thread's current context, which nothing else here
    // guarantees is this device's.
    device
        .stream()
        .context()
        .bind_to_thread()
        .map_err(|e| CudaError::driver("cuCtxSetCurrent", e))?;
    // SAFETY: the callers pass addresses of live buffers on this device holding
    // `batch` matrices of the shapes, leading dimensions and strides in `call` (the
    // host tests below check these layouts against a reference GEMM); the handle is
    // bound to the device's stream.
    unsafe { S::gemm(handle, call) }.map_err(|e| CudaError::driver("cuBLAS gemm", e))
}

/// `C = A B` for a constant row-major `m × k` matrix `A` and the `1 + N` streams of a
/// vector (columns of the column-major `k × (1 + N)` matrix they form): one GEMM
/// with `A` read transposed (row-major `A` is column-major `Aᵀ`).
pub(crate) fn vector_call(m: usize, k: usize, streams: usize, a: u64, b: u64, c: u64) -> GemmCall {
    GemmCall {
        transa: true,
        transb: false,
        m,
        n: streams,
        k,
        a,
        lda: k.max(1),
        stride_a: 0,
        b,
        ldb: k.max(1),
        stride_b: 0,
        beta_one: false,
        c,
        ldc: m.max(1),
        stride_c: 0,
        batch: 1,
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
    let (a, b) = (a.into(), b.into());
    matmul_shaped(a, a.shape(), b, b.shape())
}

/// [`matmul`] reading the operands as arrays of the given shapes (each shape's product
/// must be the operand's length).
pub(crate) fn matmul_shaped<S: DeviceFloat, const N: usize>(
    a: Operand<'_, S, N>,
    a_shape: &[usize],
    b: Operand<'_, S, N>,
    b_shape: &[usize],
) -> Result<CudaNDualArray<S, N>, CudaError> {
    if a_shape.iter().product::<usize>() != a.len() || b_shape.iter().product::<usize>() != b.len()
    {
        return Err(CudaError::shape(
            "matmul",
            format!(
                "shapes {a_shape:?} and {b_shape:?} for operands of lengths {} and {}",
                a.len(),
                b.len()
            ),
        ));
    }
    match (a, b) {
        (Operand::Active(a), Operand::Constant(b)) => active_constant(a, a_shape, b, b_shape),
        (Operand::Constant(a), Operand::Active(b)) => constant_active(a, a_shape, b, b_shape),
        (Operand::Active(a), Operand::Active(b)) => active_active(a, a_shape, b, b_shape),
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

/// The result array of a product with inner dimension `k`, which the GEMM fills, or
/// zeros for `k == 0`, where no GEMM runs.
fn product<S: DeviceFloat, const N: usize>(
    device: &Arc<Device>,
    shape: Vec<usize>,
    k: usize,
) -> Result<CudaNDualArray<S, N>, CudaError> {
    if k == 0 {
        CudaNDualArray::zeroed(device, shape)
    } else {
        CudaNDualArray::uninit(device, shape)
    }
}

fn active_constant<S: DeviceFloat, const N: usize>(
    a: &CudaNDualArray<S, N>,
    a_shape: &[usize],
    b: &CudaArray<S>,
    b_shape: &[usize],
) -> Result<CudaNDualArray<S, N>, CudaError> {
    same_device(a.device(), b.device())?;
    let (m, k, n, shape) = shapes(a_shape, b_shape)?;
    let device = a.device().clone();
    let c = product::<S, N>(&device, shape, k)?;
    RowMajor::one(
        (1 + N) * m,
        n,
        k,
        a.stream_address(0),
        b.address(),
        c.stream_address(0),
    )
    .run::<S>(&device)?;
    Ok(c)
}

fn constant_active<S: DeviceFloat, const N: usize>(
    a: &CudaArray<S>,
    a_shape: &[usize],
    b: &CudaNDualArray<S, N>,
    b_shape: &[usize],
) -> Result<CudaNDualArray<S, N>, CudaError> {
    same_device(a.device(), b.device())?;
    let (m, k, n, shape) = shapes(a_shape, b_shape)?;
    let device = b.device().clone();
    let c = product::<S, N>(&device, shape, k)?;
    if n == 1 {
        // The streams of a vector b are the columns of B = [b, ḃ₀, …], and C = A B is
        // the streams of c.
        let call = vector_call(
            m,
            k,
            1 + N,
            a.address(),
            b.stream_address(0),
            c.stream_address(0),
        );
        run_call::<S>(&device, &call)?;
        return Ok(c);
    }
    let (a, b0, c0) = (a.address(), b.stream_address(0), c.stream_address(0));
    RowMajor::shared_left(m, n, k, a, b0, c0, 1 + N, false).run::<S>(&device)?;
    Ok(c)
}

fn active_active<S: DeviceFloat, const N: usize>(
    a: &CudaNDualArray<S, N>,
    a_shape: &[usize],
    b: &CudaNDualArray<S, N>,
    b_shape: &[usize],
) -> Result<CudaNDualArray<S, N>, CudaError> {
    same_device(a.device(), b.device())?;
    let (m, k, n, shape) = shapes(a_shape, b_shape)?;
    let device = a.device().clone();
    let c = product::<S, N>(&device, shape, k)?;
    let (a0, b0, c0) = (
        a.stream_address(0),
        b.stream_address(0),
        c.stream_address(0),
    );
    // Value and ȧ b: every stream of a times b's value.
    RowMajor::one((1 + N) * m, n, k, a0, b0, c0).run::<S>(&device)?;
    // + a ḃ for every lane, a's value shared by the batch.
    let (b1, c1) = (b.stream_address(1), c.stream_address(1));
    RowMajor::shared_left(m, n, k, a0, b1, c1, N, true).run::<S>(&device)?;
    Ok(c)
}

#[cfg(test)]
mod tests {
    //! The layouts of every product, checked on the host: a reference of cuBLAS's
    //! column-major `gemm` / `gemmStridedBatched` semantics runs the calls the device
    //! would get, over one host "memory" whose addresses are byte offsets.
    use super::*;

    /// `C = op(A) op(B) (+ C)` per batch, column-major, as cuBLAS defines it.
    fn cublas(mem: &mut [f64], c: &GemmCall) {
        let at = |addr: u64| (addr / 8) as usize;
        for batch in 0..c.batch {
            let (a0, b0, c0) = (
                at(c.a) + batch * c.stride_a,
                at(c.b) + batch * c.stride_b,
                at(c.c) + batch * c.stride_c,
            );
            for j in 0..c.n {
                for i in 0..c.m {
                    let mut s = 0.0;
                    for l in 0..c.k {
                        let a = if c.transa {
                            mem[a0 + l + i * c.lda]
                        } else {
                            mem[a0 + i + l * c.lda]
                        };
                        let b = if c.transb {
                            mem[b0 + j + l * c.ldb]
                        } else {
                            mem[b0 + l + j * c.ldb]
                        };
                        s += a * b;
                    }
                    let dst = &mut mem[c0 + i + j * c.ldc];
                    *dst = if c.beta_one { *dst + s } else { s };
                }
            }
        }
    }

    /// Row-major `a (m × k) · b (k × n)`.
    fn product(a: &[f64], b: &[f64], m: usize, k: usize, n: usize) -> Vec<f64> {
        (0..m * n)
            .map(|ij| (0..k).map(|l| a[ij / n * k + l] * b[l * n + ij % n]).sum())
            .collect()
    }

    /// A host memory holding `parts` one after another, and their addresses.
    fn memory(parts: &[&[f64]]) -> (Vec<f64>, Vec<u64>) {
        let mut mem = Vec::new();
        let mut addr = Vec::new();
        for p in parts {
            addr.push((mem.len() * 8) as u64);
            mem.extend_from_slice(p);
        }
        (mem, addr)
    }

    fn values(len: usize, seed: usize) -> Vec<f64> {
        (0..len)
            .map(|i| ((i * 7 + seed * 13) % 11) as f64 - 5.0)
            .collect()
    }

    fn close(got: &[f64], want: &[f64]) {
        assert_eq!(got.len(), want.len());
        for (g, w) in got.iter().zip(want) {
            assert!((g - w).abs() < 1e-9, "{got:?}\n{want:?}");
        }
    }

    #[test]
    fn stacked_streams_times_a_constant_is_one_row_major_product() {
        // 1 + N = 3 streams of a 4 × 5 matrix, times a constant 5 × 2.
        let (s, m, k, n) = (3, 4, 5, 2);
        let (a, b) = (values(s * m * k, 1), values(k * n, 2));
        let (mut mem, addr) = memory(&[&a, &b, &vec![f64::NAN; s * m * n]]);
        let rm = RowMajor::one(s * m, n, k, addr[0], addr[1], addr[2]);
        cublas(&mut mem, &rm.call());
        let c0 = (addr[2] / 8) as usize;
        for st in 0..s {
            let want = product(&a[st * m * k..(st + 1) * m * k], &b, m, k, n);
            close(&mem[c0 + st * m * n..c0 + (st + 1) * m * n], &want);
        }
    }

    #[test]
    fn a_shared_matrix_times_every_stream_is_one_batched_call() {
        let (s, m, k, n) = (4, 3, 5, 2);
        let (a, b) = (values(m * k, 3), values(s * k * n, 4));
        let (mut mem, addr) = memory(&[&a, &b, &vec![1.0; s * m * n]]);
        let rm = RowMajor::shared_left(m, n, k, addr[0], addr[1], addr[2], s, true);
        cublas(&mut mem, &rm.call());
        let c0 = (addr[2] / 8) as usize;
        for st in 0..s {
            let want: Vec<f64> = product(&a, &b[st * k * n..(st + 1) * k * n], m, k, n)
                .iter()
                .map(|x| x + 1.0)
                .collect();
            close(&mem[c0 + st * m * n..c0 + (st + 1) * m * n], &want);
        }
    }

    #[test]
    fn a_constant_matrix_times_the_streams_of_a_vector_is_one_gemm() {
        let (s, m, k) = (5, 4, 3);
        let (a, x) = (values(m * k, 5), values(s * k, 6));
        let (mut mem, addr) = memory(&[&a, &x, &vec![f64::NAN; s * m]]);
        cublas(&mut mem, &vector_call(m, k, s, addr[0], addr[1], addr[2]));
        let c0 = (addr[2] / 8) as usize;
        for st in 0..s {
            let want = product(&a, &x[st * k..(st + 1) * k], m, k, 1);
            close(&mem[c0 + st * m..c0 + (st + 1) * m], &want);
        }
    }

    #[test]
    fn shapes_read_vectors_as_rows_and_columns() {
        assert_eq!(shapes(&[3, 4], &[4, 5]).unwrap(), (3, 4, 5, vec![3, 5]));
        assert_eq!(shapes(&[3, 4], &[4]).unwrap(), (3, 4, 1, vec![3]));
        assert_eq!(shapes(&[4], &[4, 5]).unwrap(), (1, 4, 5, vec![5]));
        assert_eq!(shapes(&[4], &[4]).unwrap(), (1, 4, 1, vec![1]));
        assert!(matches!(
            shapes(&[3, 4], &[5, 2]),
            Err(CudaError::Shape { .. })
        ));
        assert!(matches!(
            shapes(&[2, 3, 4], &[4]),
            Err(CudaError::Shape { .. })
        ));
    }
}
