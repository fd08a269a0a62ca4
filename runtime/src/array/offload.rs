//! Whole-array operations a reading may run somewhere else.
//!
//! The array primitives ([`crate::linalg`]'s products and reductions, the functions of
//! [`crate::elementwise`]) offer each call to their reading's [`ArrayReading::array_op`] before
//! running it on the host. Every host reading declines (the default), so nothing changes
//! for them; the CUDA reading (`lifted::cuda::DeviceDual`) takes the call when an operand
//! already lives on a device and runs it there as one kernel or cuBLAS call. This is
//! what lets one derived rule, unchanged, run on host arrays and on device arrays.
//!
//! Operands are erased to [`Erased`] because a primitive's operands have many types
//! (plain slices, `Vec`s, views and arrays of the reading) that the reading's hook
//! cannot name; [`Erased::placement`] tells the hook which are its own arrays.

use crate::array::{ArrayReading, Field, Flat, Operand, Placement};
use crate::reading::ops::{Binary, Ternary, Unary};

/// An array operand of a primitive, type-erased.
pub trait Erased<D: ArrayReading> {
    /// Number of elements.
    fn len(&self) -> usize;
    /// `true` when there are no elements.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Element `i` as a value of the reading.
    fn get(&self, i: usize) -> D;
    /// See [`Operand::flat`].
    fn flat(&self) -> Option<Flat<'_, Field<D>>>;
    /// See [`Operand::placement`].
    fn placement(&self) -> Placement<'_, D>;
}

impl<D: ArrayReading, T: Operand<D>> Erased<D> for T {
    fn len(&self) -> usize {
        crate::array::Array::len(self)
    }
    fn get(&self, i: usize) -> D {
        Operand::get(self, i)
    }
    fn flat(&self) -> Option<Flat<'_, Field<D>>> {
        Operand::flat(self)
    }
    fn placement(&self) -> Placement<'_, D> {
        Operand::placement(self)
    }
}

/// A matrix operand: its data and its row-major shape (after any transpose).
pub struct MatArg<'a, D: ArrayReading> {
    /// The elements, row-major in the stored (untransposed) order.
    pub data: &'a dyn Erased<D>,
    /// Rows of the matrix as used (after the transpose).
    pub rows: usize,
    /// Columns of the matrix as used.
    pub cols: usize,
    /// `true` when the data holds the transpose.
    pub transposed: bool,
}

/// One whole-array operation, as a primitive offers it to its reading.
pub enum ArrayOp<'a, D: ArrayReading> {
    /// `op(x)` element-wise.
    Unary(Unary, &'a dyn Erased<D>),
    /// `x.powi(n)` element-wise.
    Powi(&'a dyn Erased<D>, i32),
    /// `op(a, b)` element-wise; a shorter operand repeats (its length divides the
    /// other's: a scalar, or a row over a row-major matrix).
    Binary(Binary, &'a dyn Erased<D>, &'a dyn Erased<D>),
    /// `op(a, b, c)` element-wise, broadcasting as [`ArrayOp::Binary`].
    Ternary(
        Ternary,
        &'a dyn Erased<D>,
        &'a dyn Erased<D>,
        &'a dyn Erased<D>,
    ),
    /// The matrix product.
    Matmul(MatArg<'a, D>, MatArg<'a, D>),
    /// The matrix–vector product.
    Matvec(MatArg<'a, D>, &'a dyn Erased<D>),
    /// `Σ xᵢ`.
    Sum(&'a dyn Erased<D>),
    /// `Σ xᵢ yᵢ`.
    Dot(&'a dyn Erased<D>, &'a dyn Erased<D>),
}

/// What a reading returns for an [`ArrayOp`] it takes: an array of its owned array
/// type `V`, or a value `D`.
pub enum ArrayOut<V, D> {
    /// An array result (element-wise ops, products).
    Array(V),
    /// A scalar result (reductions).
    Scalar(D),
}

/// Offers an array-valued operation to `D` (see [`ArrayReading::array_op`]); `None` when
/// the reading declines.
pub(crate) fn offload_array<D: ArrayReading>(op: ArrayOp<'_, D>) -> Option<D::Vec> {
    match D::array_op(op)? {
        ArrayOut::Array(v) => Some(v),
        ArrayOut::Scalar(_) => None,
    }
}

/// Offers a scalar-valued operation (a reduction) to `D`.
pub(crate) fn offload_scalar<D: ArrayReading>(op: ArrayOp<'_, D>) -> Option<D> {
    match D::array_op(op)? {
        ArrayOut::Scalar(s) => Some(s),
        ArrayOut::Array(_) => None,
    }
}

/// Builds an array of the reading from its primal and its element-major tangent block.
pub(crate) fn from_flat<D: ArrayReading>(primal: Vec<D::Field>, tangent: Vec<D::Field>) -> D::Vec {
    D::from_flat(primal, tangent).expect("flat results are built only at flat readings")
}

/// Builds a scalar of the reading from its primal and tangent components.
pub(crate) fn scalar_from_flat<D: ArrayReading>(primal: D::Field, tangent: &[D::Field]) -> D {
    D::scalar_from_flat(primal, tangent).expect("flat results are built only at flat readings")
}
