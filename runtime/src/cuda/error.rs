//! What can go wrong on the device side, as values: no driver, no device, no NVRTC,
//! a kernel that does not compile, memory, launches, mismatched shapes.

use std::fmt;

/// An error of the CUDA backend. Every fallible device operation returns it; nothing in
/// [`lifted::cuda`](crate::cuda) panics on a missing driver or a bad shape.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum CudaError {
    /// A CUDA library could not be loaded (`libcuda.so` for the driver, `libnvrtc.so`,
    /// `libcublas.so`): not installed, or not on the loader's path.
    LibraryMissing {
        /// Which library: `"driver"`, `"nvrtc"` or `"cublas"`.
        library: &'static str,
        /// What to do about it.
        hint: &'static str,
    },
    /// The driver loaded but has no device with this ordinal.
    NoDevice {
        /// The ordinal asked for.
        ordinal: usize,
        /// How many devices the driver reports.
        count: usize,
    },
    /// A kernel source failed to compile with NVRTC.
    Compile {
        /// The translation unit that failed (e.g. `"elementwise f64"`).
        unit: String,
        /// NVRTC's log.
        log: String,
    },
    /// A device allocation failed.
    OutOfMemory {
        /// Bytes asked for.
        bytes: usize,
    },
    /// A call into the driver, NVRTC or cuBLAS failed (launch failure, illegal access, …).
    Driver {
        /// What was being done.
        op: &'static str,
        /// The library's own message.
        detail: String,
    },
    /// Operands whose shapes do not fit the operation.
    Shape {
        /// The operation.
        op: &'static str,
        /// What was wrong, with the shapes.
        detail: String,
    },
}

impl CudaError {
    /// A [`CudaError::Shape`] for `op`.
    pub(crate) fn shape(op: &'static str, detail: impl Into<String>) -> Self {
        Self::Shape {
            op,
            detail: detail.into(),
        }
    }

    /// A [`CudaError::Driver`] for `op` from any displayable library error.
    pub(crate) fn driver(op: &'static str, err: impl fmt::Debug) -> Self {
        let detail = format!("{err:?}");
        if detail.contains("OUT_OF_MEMORY") {
            return Self::OutOfMemory { bytes: 0 };
        }
        Self::Driver { op, detail }
    }
}

impl fmt::Display for CudaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::LibraryMissing { library, hint } => {
                write!(f, "the CUDA {library} library could not be loaded: {hint}")
            }
            Self::NoDevice { ordinal, count } => write!(
                f,
                "no CUDA device {ordinal}: the driver reports {count} device(s)"
            ),
            Self::Compile { unit, log } => {
                write!(f, "NVRTC failed to compile the {unit} kernels:\n{log}")
            }
            Self::OutOfMemory { bytes: 0 } => write!(f, "the device is out of memory"),
            Self::OutOfMemory { bytes } => {
                write!(f, "the device is out of memory (asked for {bytes} bytes)")
            }
            Self::Driver { op, detail } => write!(f, "CUDA call failed in {op}: {detail}"),
            Self::Shape { op, detail } => write!(f, "shape mismatch in {op}: {detail}"),
        }
    }
}

impl std::error::Error for CudaError {}
