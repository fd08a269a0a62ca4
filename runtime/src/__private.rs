//! Items generated code reaches through absolute paths (`::lifted::__private::…`).
//! Not part of the public API: names here may change without notice.

pub use crate::array::{
    ArrayOwned, ArrayRead, ArrayView, ArrayViewMut, ArrayWrite, HeldSlice, HeldSliceMut, SliceArg,
    SliceArgMut, concat,
};
pub use crate::instantiate::{AtWidth, WidthTable};
#[cfg(feature = "ndarray")]
pub use crate::linalg::nd::{NdConst, NdDot};
pub use crate::lowering::{
    ConstSlice, FieldArray, FieldFixed, FieldNative, FieldView, KeepOperand, LiftOperand, Operand,
};
pub use crate::param::containers::{lift_each, primal_of_each, relift_each, visit_each};
pub use crate::param::{Param, ParamElem};
pub use crate::reading::convert::{IntoReading, ToPrimal};
pub use crate::rule::{Constant, FRule};
pub use crate::{Reading, Real};
pub use core::clone::Clone;
pub use core::default::Default;
pub use core::fmt::Debug;
pub use core::marker::Copy;
pub use core::marker::PhantomData;
#[cfg(feature = "ndarray")]
pub use ndarray;
pub use std::vec::Vec;

/// `T` itself, named through the reading `D`: the type of a `#[constant]` field in the
/// dual struct of a type whose floats are all constant, so that the struct mentions
/// its reading parameter without a marker field that struct literals would have to
/// fill.
pub trait Keep<D> {
    /// `T`.
    type Type;
}

impl<T, D> Keep<D> for T {
    type Type = T;
}
