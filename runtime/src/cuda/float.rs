//! The scalar fields a device array can hold, and their cuBLAS entry points.

use std::os::raw::{c_int, c_longlong};

use cudarc::cublas::{result, sys};
use cudarc::driver::{DeviceRepr, ValidAsZeroBits};

use super::kernels::Precision;
use crate::Real;

/// One column-major GEMM `C = α op(A) op(B) + β C` (cuBLAS's convention), or a strided
/// batch of them, on raw device pointers.
#[derive(Clone, Copy, Debug)]
pub(crate) struct GemmCall {
    pub transa: bool,
    pub transb: bool,
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pub a: u64,
    pub lda: usize,
    pub stride_a: usize,
    pub b: u64,
    pub ldb: usize,
    pub stride_b: usize,
    pub beta_one: bool,
    pub c: u64,
    pub ldc: usize,
    pub stride_c: usize,
    pub batch: usize,
}

/// `f32` or `f64` on the device: a field with kernels compiled for it and a cuBLAS GEMM.
pub trait DeviceFloat:
    Real<Field = Self>
    + crate::array::ArrayReading
    + crate::Scalar
    + DeviceRepr
    + ValidAsZeroBits
    + Copy
    + Send
    + Sync
    + 'static
{
    /// Which kernels serve this field.
    const PRECISION: Precision;

    /// A quiet NaN (poisons result buffers in checks).
    fn nan() -> Self;

    /// Runs `call` on `handle`'s stream.
    ///
    /// # Safety
    /// Every pointer must address a live device buffer large enough for the shapes,
    /// leading dimensions and strides of `call`.
    #[doc(hidden)]
    // Implemented here for f32 and f64 only; the call description stays crate-private.
    #[allow(private_interfaces)]
    unsafe fn gemm(handle: sys::cublasHandle_t, call: &GemmCall)
    -> Result<(), result::CublasError>;
}

/// Converts a dimension to cuBLAS's `int`, which the callers have checked fits.
fn int(x: usize) -> c_int {
    c_int::try_from(x).unwrap_or(c_int::MAX)
}

/// Converts a stride to cuBLAS's `long long`.
fn long(x: usize) -> c_longlong {
    c_longlong::try_from(x).unwrap_or(c_longlong::MAX)
}

/// cuBLAS's transpose flag.
fn op(t: bool) -> sys::cublasOperation_t {
    if t {
        sys::cublasOperation_t::CUBLAS_OP_T
    } else {
        sys::cublasOperation_t::CUBLAS_OP_N
    }
}

macro_rules! device_float {
    ($t:ty, $p:ident, $gemm:ident, $batched:ident) => {
        impl DeviceFloat for $t {
            const PRECISION: Precision = Precision::$p;

            fn nan() -> Self {
                <$t>::NAN
            }

            #[allow(private_interfaces)]
            unsafe fn gemm(
                handle: sys::cublasHandle_t,
                c: &GemmCall,
            ) -> Result<(), result::CublasError> {
                let alpha: $t = 1.0;
                let beta: $t = if c.beta_one { 1.0 } else { 0.0 };
                if c.batch == 1 {
                    // SAFETY: the caller guarantees the pointers and shapes.
                    unsafe {
                        result::$gemm(
                            handle,
                            op(c.transa),
                            op(c.transb),
                            int(c.m),
                            int(c.n),
                            int(c.k),
                            &alpha,
                            c.a as *const $t,
                            int(c.lda),
                            c.b as *const $t,
                            int(c.ldb),
                            &beta,
                            c.c as *mut $t,
                            int(c.ldc),
                        )
                    }
                } else {
                    // SAFETY: the caller guarantees the pointers, shapes and strides.
                    unsafe {
                        result::$batched(
                            handle,
                            op(c.transa),
                            op(c.transb),
                            int(c.m),
                            int(c.n),
                            int(c.k),
                            &alpha,
                            c.a as *const $t,
                            int(c.lda),
                            long(c.stride_a),
                            c.b as *const $t,
                            int(c.ldb),
                            long(c.stride_b),
                            &beta,
                            c.c as *mut $t,
                            int(c.ldc),
                            long(c.stride_c),
                            int(c.batch),
                        )
                    }
                }
            }
        }
    };
}

device_float!(f32, F32, sgemm, sgemm_strided_batched);
device_float!(f64, F64, dgemm, dgemm_strided_batched);
