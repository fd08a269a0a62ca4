//! Conversions the generated code uses where Rust syntax alone cannot say what a
//! value is: `e as f64` (an integer becomes a zero-lifted value, a lifted value stays
//! as it is) and `e as usize` or a comparison (a lifted value gives its primal).

use crate::Reading;
use crate::reading::convert::{IntoReading, ToPrimal};

macro_rules! int_conversions {
    ($($t:ty),*) => {$(
        impl<D: Reading<f64>> IntoReading<f64, D> for $t {
            #[inline(always)]
            fn into_reading(self) -> D {
                D::constant(self as f64)
            }
        }
        impl<D: Reading<f32>> IntoReading<f32, D> for $t {
            #[inline(always)]
            fn into_reading(self) -> D {
                D::constant(self as f32)
            }
        }
        impl ToPrimal for $t {
            type Primal = $t;
            #[inline(always)]
            fn to_primal(self) -> $t {
                self
            }
        }
    )*};
}

int_conversions!(
    i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize
);

macro_rules! float_conversions {
    ($f:ident) => {
        impl<D: Reading<$f>> IntoReading<$f, D> for $f {
            #[inline(always)]
            fn into_reading(self) -> D {
                D::constant(self)
            }
        }
        impl ToPrimal for $f {
            type Primal = $f;
            #[inline(always)]
            fn to_primal(self) -> $f {
                self
            }
        }
    };
}

float_conversions!(f64);
float_conversions!(f32);

impl ToPrimal for bool {
    type Primal = bool;
    #[inline(always)]
    fn to_primal(self) -> bool {
        self
    }
}

/// An operand whose type the macro cannot see: a field of a lifted struct (`p.m`,
/// `p.pos[0]`), which is a value of the reading unless the field is `#[constant]`.
/// `(&Operand::<D, _>::new(e)).operand()` picks by type, at compile time: a plain
/// float is zero-lifted to `D`, anything else passes through.
///
/// The choice is autoref-based method resolution: the by-value impls for plain floats
/// are tried before the by-reference impl that keeps the value. Inside a rule generic
/// over `D` a field of type `D` never unifies with `f64`, so it keeps its value.
pub struct Operand<D, T>(T, core::marker::PhantomData<fn() -> D>);

impl<D, T> Operand<D, T> {
    /// Wraps an operand.
    #[inline(always)]
    pub fn new(value: T) -> Self {
        Self(value, core::marker::PhantomData)
    }
}

/// Zero-lifts a plain float operand (see [`Operand`]).
pub trait LiftOperand<D> {
    /// The operand as a value of the reading.
    fn operand(self) -> D;
}

impl<D: Reading<f64>> LiftOperand<D> for Operand<D, f64> {
    #[inline(always)]
    fn operand(self) -> D {
        D::constant(self.0)
    }
}

impl<D: Reading<f32>> LiftOperand<D> for Operand<D, f32> {
    #[inline(always)]
    fn operand(self) -> D {
        D::constant(self.0)
    }
}

impl<D: Reading<f64>> LiftOperand<D> for Operand<D, &f64> {
    #[inline(always)]
    fn operand(self) -> D {
        D::constant(*self.0)
    }
}

impl<D: Reading<f32>> LiftOperand<D> for Operand<D, &f32> {
    #[inline(always)]
    fn operand(self) -> D {
        D::constant(*self.0)
    }
}

/// Keeps an operand that is not a plain float (see [`Operand`]).
pub trait KeepOperand<T> {
    /// The operand itself.
    fn operand(self) -> T;
}

impl<D, T: Clone> KeepOperand<T> for &Operand<D, T> {
    #[inline(always)]
    fn operand(self) -> T {
        self.0.clone()
    }
}
/// The primal of a borrowed value (a `&f64` parameter is `&D` in the rule).
impl<T: ToPrimal + Copy> ToPrimal for &T {
    type Primal = T::Primal;
    #[inline(always)]
    fn to_primal(self) -> T::Primal {
        (*self).to_primal()
    }
}

/// Element-wise, for fixed arrays of lifted values.
impl<T: ToPrimal, const K: usize> ToPrimal for [T; K] {
    type Primal = [T::Primal; K];
    #[inline(always)]
    fn to_primal(self) -> Self::Primal {
        self.map(ToPrimal::to_primal)
    }
}

macro_rules! tuple_to_primal {
    ($($t:ident $i:tt),+) => {
        /// Element-wise, for tuples of lifted values.
        impl<$($t: ToPrimal),+> ToPrimal for ($($t,)+) {
            type Primal = ($($t::Primal,)+);
            #[inline(always)]
            fn to_primal(self) -> Self::Primal {
                ($(self.$i.to_primal(),)+)
            }
        }
    };
}

tuple_to_primal!(A 0);
tuple_to_primal!(A 0, B 1);
tuple_to_primal!(A 0, B 1, C 2);
tuple_to_primal!(A 0, B 1, C 2, D 3);

/// `p.w.len()`, `p.w.iter()` on a field of a lifted struct, whose type the macro
/// cannot see: a `Vec` field holds the reading's array, a fixed-array field `[D; K]`, a
/// `#[constant]` field whatever it was (`Vec<f64>`, `Vec<usize>`, `String`).
/// `(&FieldArray(&p.w)).len()` picks by type, in this order (autoref-based method
/// resolution): an array of the reading ([`FieldView`], elements by value), a fixed
/// array ([`FieldFixed`], elements by value), anything that is a slice ([`FieldNative`],
/// what the primal's methods return).
pub struct FieldArray<'a, T: ?Sized>(pub &'a T);

// A shared reference whatever `T` is (derived impls would ask `T: Copy`).
impl<T: ?Sized> Clone for FieldArray<'_, T> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: ?Sized> Copy for FieldArray<'_, T> {}

/// The slice methods of a field that is an array of the reading (see [`FieldArray`]).
// `self` is a shared reference already: the autoref levels pick the impl.
#[allow(clippy::wrong_self_convention)]
pub trait FieldView<'a, D> {
    /// The iterator.
    type Iter: Iterator<Item = D>;
    /// Number of elements.
    fn len(self) -> usize;
    /// Whether there are none.
    fn is_empty(self) -> bool;
    /// The first element.
    fn first(self) -> Option<D>;
    /// The last element.
    fn last(self) -> Option<D>;
    /// Element `i`, if in bounds.
    fn get(self, i: usize) -> Option<D>;
    /// The elements by value.
    fn iter(self) -> Self::Iter;
}

impl<'a, D: crate::array::ArrayReading, T: crate::array::ArrayView<D> + ?Sized> FieldView<'a, D>
    for &FieldArray<'a, T>
{
    type Iter = T::Iter<'a>;
    #[inline(always)]
    fn len(self) -> usize {
        crate::array::ArrayRead::len(self.0)
    }
    #[inline(always)]
    fn is_empty(self) -> bool {
        crate::array::ArrayRead::is_empty(self.0)
    }
    #[inline(always)]
    fn first(self) -> Option<D> {
        crate::array::ArrayRead::first(self.0)
    }
    #[inline(always)]
    fn last(self) -> Option<D> {
        crate::array::ArrayRead::last(self.0)
    }
    #[inline(always)]
    fn get(self, i: usize) -> Option<D> {
        crate::array::ArrayRead::checked_get(self.0, i)
    }
    #[inline(always)]
    fn iter(self) -> T::Iter<'a> {
        self.0.iter()
    }
}

/// The slice methods of a fixed-array field (see [`FieldArray`]): elements by value.
// `self` is a shared reference already: the autoref levels pick the impl.
#[allow(clippy::wrong_self_convention)]
pub trait FieldFixed<'a, D> {
    /// The iterator.
    type Iter: Iterator<Item = D>;
    /// Number of elements.
    fn len(self) -> usize;
    /// Whether there are none.
    fn is_empty(self) -> bool;
    /// The first element.
    fn first(self) -> Option<D>;
    /// The last element.
    fn last(self) -> Option<D>;
    /// Element `i`, if in bounds.
    fn get(self, i: usize) -> Option<D>;
    /// The elements by value.
    fn iter(self) -> Self::Iter;
}

impl<'a, D: Copy + 'a, const K: usize> FieldFixed<'a, D> for &&FieldArray<'a, [D; K]> {
    type Iter = core::iter::Copied<core::slice::Iter<'a, D>>;
    #[inline(always)]
    fn len(self) -> usize {
        K
    }
    #[inline(always)]
    fn is_empty(self) -> bool {
        K == 0
    }
    #[inline(always)]
    fn first(self) -> Option<D> {
        self.0.first().copied()
    }
    #[inline(always)]
    fn last(self) -> Option<D> {
        self.0.last().copied()
    }
    #[inline(always)]
    fn get(self, i: usize) -> Option<D> {
        self.0.get(i).copied()
    }
    #[inline(always)]
    fn iter(self) -> Self::Iter {
        self.0.iter().copied()
    }
}

/// The slice methods of any other field that is a slice (see [`FieldArray`]): what
/// the primal's own methods return.
// `self` is a shared reference already: the autoref levels pick the impl.
#[allow(clippy::wrong_self_convention)]
pub trait FieldNative<'a, E: 'a> {
    /// Number of elements.
    fn len(self) -> usize;
    /// Whether there are none.
    fn is_empty(self) -> bool;
    /// The first element.
    fn first(self) -> Option<&'a E>;
    /// The last element.
    fn last(self) -> Option<&'a E>;
    /// Element `i`, if in bounds.
    fn get(self, i: usize) -> Option<&'a E>;
    /// The elements by reference.
    fn iter(self) -> core::slice::Iter<'a, E>;
}

impl<'a, E: 'a, T: AsRef<[E]> + ?Sized> FieldNative<'a, E> for FieldArray<'a, T> {
    #[inline(always)]
    fn len(self) -> usize {
        self.0.as_ref().len()
    }
    #[inline(always)]
    fn is_empty(self) -> bool {
        self.0.as_ref().is_empty()
    }
    #[inline(always)]
    fn first(self) -> Option<&'a E> {
        self.0.as_ref().first()
    }
    #[inline(always)]
    fn last(self) -> Option<&'a E> {
        self.0.as_ref().last()
    }
    #[inline(always)]
    fn get(self, i: usize) -> Option<&'a E> {
        self.0.as_ref().get(i)
    }
    #[inline(always)]
    fn iter(self) -> core::slice::Iter<'a, E> {
        self.0.as_ref().iter()
    }
}

/// A `#[constant]` array argument (`xs`, `&xs[a..b]`) passed to a rule: where the
/// rule takes `&[f64]`, its values zero-lifted into the reading's array; where it takes
/// a `#[constant] &[f64]` (as `impl AsRef<[f64]>`), the slice; where it is an array
/// primitive (`elementwise`, `linalg`), the operand as it is.
#[derive(Clone, Copy, Debug)]
pub struct ConstSlice<T>(pub T);

impl<F, T: AsRef<[F]>> AsRef<[F]> for ConstSlice<T> {
    fn as_ref(&self) -> &[F] {
        self.0.as_ref()
    }
}

impl<T: ConstFloats, D: Reading<T::Float>> crate::array::SliceArg<D> for ConstSlice<T> {
    type Held = crate::array::OwnedCopy<D>;
    fn hold(self) -> Self::Held {
        crate::array::OwnedCopy::constants(self.0.floats())
    }
}

/// The plain floats a [`ConstSlice`] can hold: slices and `Vec`s of `f64` or `f32`,
/// by reference.
pub trait ConstFloats {
    /// `f64` or `f32`.
    type Float: crate::Scalar;
    /// The values.
    fn floats(&self) -> &[Self::Float];
}

macro_rules! const_floats {
    ($($f:ty),*) => {$(
        impl ConstFloats for &[$f] {
            type Float = $f;
            fn floats(&self) -> &[$f] {
                self
            }
        }
        impl ConstFloats for &&[$f] {
            type Float = $f;
            fn floats(&self) -> &[$f] {
                self
            }
        }
        impl ConstFloats for &Vec<$f> {
            type Float = $f;
            fn floats(&self) -> &[$f] {
                self
            }
        }
        impl<const K: usize> ConstFloats for &[$f; K] {
            type Float = $f;
            fn floats(&self) -> &[$f] {
                &self[..]
            }
        }
    )*};
}
const_floats!(f64, f32);

impl<T: crate::array::Array> crate::array::Array for ConstSlice<T> {
    type Elem = T::Elem;
    fn len(&self) -> usize {
        self.0.len()
    }
}

impl<T: crate::array::Operand<D>, D: crate::array::ArrayReading> crate::array::Operand<D>
    for ConstSlice<T>
{
    #[inline]
    fn get(&self, i: usize) -> D {
        self.0.get(i)
    }
    fn flat(&self) -> Option<crate::array::Flat<'_, crate::array::Field<D>>> {
        self.0.flat()
    }
    fn placement(&self) -> crate::array::Placement<'_, D> {
        self.0.placement()
    }
}
