//! The CUDA backend (feature `cuda`): forward-mode arrays on NVIDIA GPUs.
//!
//! - [`Device`]: one GPU — its context, stream, cuBLAS handle and the kernels, compiled
//!   with NVRTC the first time they are needed and cached for the device's lifetime.
//! - [`CudaNDualArray<S, N>`]: a device array and N tangent lanes in the **lane-major**
//!   layout (partial `k` of element `i` at `k * len + i`, every lane contiguous), the
//!   layout kernels coalesce on and cuBLAS takes as one matrix. Host arrays are
//!   element-major ([`NDualArray`](crate::NDualArray)); the transfers convert.
//! - Element-wise rules for the scalar rule set (value once, all N lanes per element,
//!   strong zero kept), broadcasting of scalars and rows, reductions, and products whose
//!   lanes all go through one cuBLAS call.
//!
//! Everything loads at run time: a build with the feature needs no CUDA, and on a
//! machine without a driver every entry point returns [`CudaError::LibraryMissing`]
//! instead of failing to link or panicking.
mod array;
mod blas;
mod device;
mod error;
mod float;
// The kernel sources, their launch, NVRTC and the host references are public for the
// test suite's kernel checks and `scripts/gpu-check.sh`, not as API.
#[doc(hidden)]
pub mod kernels;
#[doc(hidden)]
pub mod launch;
mod layout;
#[doc(hidden)]
pub mod nvrtc;
mod ops;
pub mod pinn;
mod reading;
#[doc(hidden)]
pub mod reference;

pub use array::{CudaArray, CudaNDualArray};
pub use blas::matmul;
pub use device::Device;
pub use error::CudaError;
pub use float::DeviceFloat;
pub use layout::{element_to_lane_major, lane_to_element_major};
pub use ops::{Operand, binary, dot, powi, sum, ternary, unary};
pub use pinn::DeviceNetwork;
pub use reading::{
    DeviceDual, DeviceElemMut, DeviceIter, DeviceIterMut, DeviceMut, DeviceRef, DeviceVec,
};
