//! Sparse Jacobians: the sparsity pattern found by running the rule once at the
//! [`Pattern`] reading, the columns colored so that no two of one color share a row,
//! and one seed per color through the ordinary `NDual` passes.

mod coloring;
#[cfg(any(feature = "sprs", feature = "nalgebra-sparse"))]
mod convert;
mod detect;
mod jacobian;
mod pattern;
pub(crate) mod trace;

pub use coloring::{Coloring, ColoringOrder, color_columns};
#[cfg(feature = "nalgebra-sparse")]
pub use convert::to_nalgebra;
#[cfg(feature = "sprs")]
pub use convert::to_sprs;
pub use detect::{PatternMode, sparsity};
pub use jacobian::{SparseJacobian, SparseOptions, WithJacobian, sparse_jacobian};
pub use pattern::Pattern;

/// The faer version whose sparse matrices the Jacobians come in (its `sparse` module
/// holds them), re-exported so that a user's faer is the same one.
pub use faer;
