//! The CUDA reading: derived rules running on device arrays, unchanged.
//!
//! [`DeviceDual<S, N>`] is a reading like `NDual<S, N>` — its scalars are `NDual`s on
//! the host, every scalar rule is `NDual`'s — whose arrays are [`DeviceVec`]s. The
//! array primitives offer whole-array work to the reading ([`ArrayOp`](crate::array::ArrayOp)), and this
//! one runs it on the GPU whenever an operand already lives there:
//!
//! | primitive | on the device |
//! |---|---|
//! | [`elementwise`](crate::elementwise) unary functions, `powi` | one kernel: value and all N lanes |
//! | [`elementwise`](crate::elementwise) binary functions (broadcasting) | one kernel |
//! | [`linalg::matmul`](crate::linalg::matmul), [`linalg::matvec`](crate::linalg::matvec) | one cuBLAS GEMM over all streams (active × constant), or the batched forms |
//! | [`linalg::sum`](crate::linalg::sum), [`linalg::dot`](crate::linalg::dot) | one deterministic two-pass reduction |
//!
//! Constant operands (`#[constant]` slices: weights, biases) are uploaded for the call.
//! Transposed matrix views and operands on no device run on the host. Element access
//! works everywhere through a host copy (see [`DeviceVec`]).

mod array;
mod offload;
mod scalar;

pub use array::{DeviceElemMut, DeviceIter, DeviceIterMut, DeviceMut, DeviceRef, DeviceVec};
pub use scalar::DeviceDual;
