//! What the array primitives accept: plain slices (constants of the computation) and the
//! arrays of a reading (`NDualRef`, `&NDualArray`, slices of `Taylor`, …), and where an
//! operand lives ([`Placement`]), so a reading that runs whole-array operations
//! elsewhere can find its own arrays among the operands without a downcast.

use crate::array::ArrayReading;
use crate::{Real, Scalar};

/// The primal field (`f64` or `f32`) of a reading.
pub type Field<D> = <D as Real>::Field;

/// A one-dimensional array argument of a primitive: its length and element type.
pub trait Array {
    /// The element type: the primal field for plain slices, the reading for lifted
    /// arrays. The primal functions of [`crate::linalg`] run at this reading.
    type Elem;
    /// Number of elements.
    fn len(&self) -> usize;
    /// `true` when there are no elements.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// An array argument of a primitive running at reading `D`: a plain slice (a constant:
/// zero tangent, never materialised) or an array of the reading.
pub trait Operand<D: ArrayReading>: Array + Copy {
    /// Element `i` as a value of the reading (constants zero-lifted).
    fn get(&self, i: usize) -> D;
    /// The primal slice and, for arrays of a flat reading, the element-major tangent
    /// block (`None`: the operand is a constant). `None` altogether when the reading has
    /// no flat view (nested duals, Taylor): the primitive then runs element-wise.
    #[doc(hidden)]
    fn flat(&self) -> Option<Flat<'_, Field<D>>>;
    /// Where the operand lives. Host memory for every operand but the ones a reading
    /// keeps elsewhere (see [`Placement`]).
    fn placement(&self) -> Placement<'_, D> {
        Placement::Host
    }
}

/// The flat view of an operand: its primal values and, unless it is a constant, its
/// element-major tangent block.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Flat<'a, F> {
    pub primal: &'a [F],
    pub tangent: Option<&'a [F]>,
}

/// Where an operand of a primitive running at reading `D` lives, as the reading's
/// [`array_op`](ArrayReading::array_op) sees it.
///
/// A reading that runs whole-array operations elsewhere (the CUDA reading, on a device)
/// recognises its own owned arrays ([`Own`](Self::Own): `D::Vec` is its type, so no
/// downcast is needed) and the field's constant arrays kept elsewhere
/// ([`Constant`](Self::Constant)); everything else is read through
/// [`Operand::get`] and [`Operand::flat`].
pub enum Placement<'a, D: ArrayReading> {
    /// In host memory only.
    Host,
    /// A whole owned array of the reading, which may also live elsewhere.
    Own(&'a D::Vec),
    /// A constant array of the field that lives elsewhere (a device array).
    Constant(&'a <D::Field as ResidentField>::Constant),
}

impl<D: ArrayReading> Clone for Placement<'_, D> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<D: ArrayReading> Copy for Placement<'_, D> {}

/// The constant arrays of a primal field that live outside host memory, as operands hand
/// them to the readings that use them in place ([`Placement::Constant`]).
///
/// `Constant` is the device array `lifted::cuda::CudaArray<F>` when the `cuda` feature is
/// on (the impl lives with that type), and `Infallible` (no such array) without it.
pub trait ResidentField: Scalar {
    /// The field's constant array kept elsewhere.
    type Constant: 'static;
}

#[cfg(not(feature = "cuda"))]
impl<F: Scalar> ResidentField for F {
    type Constant = core::convert::Infallible;
}

macro_rules! constant_operands {
    ($f:ty) => {
        impl Array for &[$f] {
            type Elem = $f;
            fn len(&self) -> usize {
                <[$f]>::len(self)
            }
        }
        impl<D: ArrayReading<Field = $f>> Operand<D> for &[$f] {
            #[inline]
            fn get(&self, i: usize) -> D {
                D::cst(Scalar::to_f64(self[i]))
            }
            fn flat(&self) -> Option<Flat<'_, $f>> {
                Some(Flat {
                    primal: self,
                    tangent: None,
                })
            }
        }
        impl OwnedArray for Vec<$f> {
            type Elem = $f;
            fn len(&self) -> usize {
                Vec::len(self)
            }
        }
        impl<D: ArrayReading<Field = $f>> OwnedOperand<D> for Vec<$f> {
            #[inline]
            fn get(&self, i: usize) -> D {
                D::cst(Scalar::to_f64(self[i]))
            }
            fn flat(&self) -> Option<Flat<'_, $f>> {
                Some(Flat {
                    primal: self,
                    tangent: None,
                })
            }
        }
    };
}

constant_operands!(f64);
constant_operands!(f32);

/// An owned array type (`Vec<f64>`, `NDualArray`, …): a reference to it is an
/// [`Array`].
pub trait OwnedArray {
    /// The element type.
    type Elem;
    /// Number of elements.
    fn len(&self) -> usize;
    /// `true` when there are no elements.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// An owned array whose references are [`Operand`]s at reading `D`: every reading's
/// owned array is one, so `&v` of a lifted local `Vec` is an operand in any rule.
pub trait OwnedOperand<D: ArrayReading>: OwnedArray {
    /// Element `i` as a value of the reading.
    fn get(&self, i: usize) -> D;
    /// See [`Operand::flat`].
    #[doc(hidden)]
    fn flat(&self) -> Option<Flat<'_, Field<D>>>;
    /// See [`Operand::placement`].
    fn placement(&self) -> Placement<'_, D> {
        Placement::Host
    }
}

impl<A: OwnedArray> Array for &A {
    type Elem = A::Elem;
    fn len(&self) -> usize {
        A::len(self)
    }
}

impl<D: ArrayReading, A: OwnedOperand<D>> Operand<D> for &A {
    #[inline]
    fn get(&self, i: usize) -> D {
        A::get(self, i)
    }
    fn flat(&self) -> Option<Flat<'_, Field<D>>> {
        A::flat(self)
    }
    fn placement(&self) -> Placement<'_, D> {
        A::placement(self)
    }
}
