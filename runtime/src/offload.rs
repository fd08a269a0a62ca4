//! Whole-array operations a reading may run somewhere else.
//!
//! The array primitives ([`crate::linalg`]'s products and reductions, the functions of
//! [`crate::elementwise`]) offer each call to their reading's [`ArrayReading::array_op`](crate::array::ArrayReading::array_op) before
//! running it on the host. Every host reading declines (the default), so nothing changes
//! for them; the CUDA reading (`lifted::cuda::DeviceDual`) takes the call when an operand
//! already lives on a device and runs it there as one kernel or cuBLAS call. This is
//! what lets one derived rule, unchanged, run on host arrays and on device arrays.
//!
//! Operands are type-erased ([`Erased`]) because a primitive's operands have many types
//! (plain slices, `Vec`s, views and arrays of the reading) that the reading's hook
//! cannot name; `any` lets the hook recognise its own arrays.

use core::any::Any;

use crate::Real;
use crate::linalg::{Field, Flat, Mat, Operand};
use crate::reading::ops::{Binary, Ternary, Unary};

/// An array operand of a primitive, type-erased.
pub trait Erased<D: Real> {
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
    /// The operand itself when it is an array type a reading may recognise.
    fn any(&self) -> Option<&dyn Any>;
}

impl<D: Real, T: Operand<D>> Erased<D> for T {
    fn len(&self) -> usize {
        crate::linalg::Array::len(self)
    }
    fn get(&self, i: usize) -> D {
        Operand::get(self, i)
    }
    fn flat(&self) -> Option<Flat<'_, Field<D>>> {
        Operand::flat(self)
    }
    fn any(&self) -> Option<&dyn Any> {
        Operand::__any(self)
    }
}

/// A matrix operand: its data and its row-major shape (after any transpose).
pub struct MatArg<'a, D: Real> {
    /// The elements, row-major in the stored (untransposed) order.
    pub data: &'a dyn Erased<D>,
    /// Rows of the matrix as used (after the transpose).
    pub rows: usize,
    /// Columns of the matrix as used.
    pub cols: usize,
    /// `true` when the data holds the transpose.
    pub transposed: bool,
}

impl<'a, D: Real> MatArg<'a, D> {
    /// The erased view of a [`Mat`].
    pub fn of<A: Operand<D>>(m: &'a Mat<A>) -> Self {
        let (rows, cols) = m.shape();
        Self {
            data: m.data(),
            rows,
            cols,
            transposed: m.is_transposed(),
        }
    }
}

/// One whole-array operation, as a primitive offers it to its reading.
pub enum ArrayOp<'a, D: Real> {
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
