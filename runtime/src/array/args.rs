//! The coercions rustc applies at a call to a function taking `&[f64]` or `&mut [f64]`,
//! for the rules of such functions.
//!
//! In the primal, a `&[f64; 3]`, a `&Vec<f64>` and a `&mut [f64]` are all accepted by a
//! `&[f64]` parameter, and a `&mut [f64; 2]` by a `&mut [f64]` one. The rule of such a
//! function takes its array parameter as `impl SliceArg<D>` (`impl SliceArgMut<D>`) and
//! starts by holding it ([`SliceArg::hold`]) and viewing the holder: the argument may be
//! the reading's view itself (held as it is), a mutable view or owned array (viewed), or
//! a fixed array of the reading's values (`[D; K]`, the forward value of `[f64; K]`).
//!
//! A fixed array has the reading's view layout when the reading's arrays are slices of
//! its values (`f64`, `ZDual`, `Taylor`, …): it is held as a slice, no copy. An
//! element-major reading (`NDual`) keeps values and partials apart, so its holder copies
//! the array into a stack buffer of the same size (no heap) and, for `&mut`, copies it
//! back when the rule returns. The CUDA reading copies into one of its own arrays.

use super::{ArrayOwned, ArrayRead, ArrayReading, ArrayView, ArrayViewMut};
use crate::{NDual, NDualArray, NDualMut, NDualRef};

/// What a rule's `&[f64]` parameter accepts: the reading's shared or mutable view, a
/// reference to its owned array, or a reference to a fixed array of its values.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be passed where the rule takes a shared float slice",
    label = "expected a float slice, `Vec`, fixed-size array or a view of one",
    note = "a `&[f64]` parameter takes `&[f64]`, `&mut [f64]`, `&Vec<f64>` and `&[f64; K]` arguments"
)]
pub trait SliceArg<D: ArrayReading> {
    /// What the rule holds while it runs: the view itself, or a copy.
    type Held: HeldSlice<D>;
    /// Holds the argument for the rule's body.
    fn hold(self) -> Self::Held;
}

/// What a rule's `&mut [f64]` parameter accepts: the reading's mutable view, a mutable
/// reference to its owned array, or to a fixed array of its values.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be passed where the rule takes a mutable float slice",
    label = "expected a mutable float slice, `Vec` or fixed-size array",
    note = "a `&mut [f64]` parameter takes `&mut [f64]`, `&mut Vec<f64>` and `&mut [f64; K]` arguments"
)]
pub trait SliceArgMut<D: ArrayReading> {
    /// What the rule holds while it runs: the view itself, or a copy written back when
    /// it is dropped.
    type Held: HeldSliceMut<D>;
    /// Holds the argument for the rule's body.
    fn hold(self) -> Self::Held;
}

/// A held `&[f64]` argument: the rule's body reads it through [`view`](Self::view).
pub trait HeldSlice<D: ArrayReading> {
    /// The reading's shared view of the argument.
    fn view(&self) -> D::Ref<'_>;
}

/// A held `&mut [f64]` argument: the rule's body writes it through
/// [`view_mut`](Self::view_mut).
pub trait HeldSliceMut<D: ArrayReading> {
    /// The reading's mutable view of the argument.
    fn view_mut(&mut self) -> D::Mut<'_>;
}

impl<'a, D: ArrayReading, const K: usize> SliceArg<D> for &'a [D; K] {
    type Held = D::FixedRef<'a, K>;
    #[inline(always)]
    fn hold(self) -> Self::Held {
        D::hold_fixed(self)
    }
}

impl<'a, D: ArrayReading, const K: usize> SliceArg<D> for &'a mut [D; K] {
    type Held = D::FixedRef<'a, K>;
    #[inline(always)]
    fn hold(self) -> Self::Held {
        D::hold_fixed(self)
    }
}

impl<'a, D: ArrayReading, const K: usize> SliceArgMut<D> for &'a mut [D; K] {
    type Held = D::FixedMut<'a, K>;
    #[inline(always)]
    fn hold(self) -> Self::Held {
        D::hold_fixed_mut(self)
    }
}

impl<'a, D: ArrayReading> SliceArg<D> for &'a [D] {
    type Held = D::SliceHeld<'a>;
    #[inline(always)]
    fn hold(self) -> Self::Held {
        D::hold_slice(self)
    }
}

impl<'a, D: ArrayReading> SliceArg<D> for &'a mut [D] {
    type Held = D::SliceHeld<'a>;
    #[inline(always)]
    fn hold(self) -> Self::Held {
        D::hold_slice(self)
    }
}

impl<'a, D: ArrayReading> SliceArg<D> for &'a Vec<D> {
    type Held = D::SliceHeld<'a>;
    #[inline(always)]
    fn hold(self) -> Self::Held {
        D::hold_slice(self)
    }
}

impl<'a, D: ArrayReading> SliceArgMut<D> for &'a mut [D] {
    type Held = D::SliceHeldMut<'a>;
    #[inline(always)]
    fn hold(self) -> Self::Held {
        D::hold_slice_mut(self)
    }
}

impl<'a, D: ArrayReading> SliceArgMut<D> for &'a mut Vec<D> {
    type Held = D::SliceHeldMut<'a>;
    #[inline(always)]
    fn hold(self) -> Self::Held {
        D::hold_slice_mut(self)
    }
}

/// The holders of a slice-backed reading `T` (its arrays are `Vec<T>`, `&[T]`,
/// `&mut [T]`): its slices themselves.
macro_rules! slice_held {
    ({$($gen:tt)*} $t:ty) => {
        impl<'a, $($gen)*> $crate::array::HeldSlice<$t> for &'a [$t] {
            #[inline(always)]
            fn view(&self) -> &[$t] {
                self
            }
        }
        impl<'a, $($gen)*> $crate::array::HeldSliceMut<$t> for &'a mut [$t] {
            #[inline(always)]
            fn view_mut(&mut self) -> &mut [$t] {
                self
            }
        }
    };
}

impl<'a, S: ArrayReading, const N: usize> SliceArg<NDual<S, N>> for NDualRef<'a, S, N> {
    type Held = Self;
    #[inline(always)]
    fn hold(self) -> Self {
        self
    }
}

impl<'a, S: ArrayReading, const N: usize> SliceArg<NDual<S, N>> for NDualMut<'a, S, N> {
    type Held = NDualRef<'a, S, N>;
    #[inline(always)]
    fn hold(self) -> Self::Held {
        self.into_ref()
    }
}

impl<'a, S: ArrayReading, const N: usize> SliceArg<NDual<S, N>> for &'a NDualArray<S, N> {
    type Held = NDualRef<'a, S, N>;
    #[inline(always)]
    fn hold(self) -> Self::Held {
        ArrayView::view(self)
    }
}

impl<'a, S: ArrayReading, const N: usize> SliceArgMut<NDual<S, N>> for NDualMut<'a, S, N> {
    type Held = Self;
    #[inline(always)]
    fn hold(self) -> Self {
        self
    }
}

impl<'a, S: ArrayReading, const N: usize> SliceArgMut<NDual<S, N>> for &'a mut NDualArray<S, N> {
    type Held = NDualMut<'a, S, N>;
    #[inline(always)]
    fn hold(self) -> Self::Held {
        ArrayViewMut::view_mut(self)
    }
}

impl<S: ArrayReading, const N: usize> HeldSlice<NDual<S, N>> for NDualRef<'_, S, N> {
    #[inline(always)]
    fn view(&self) -> NDualRef<'_, S, N> {
        *self
    }
}

impl<S: ArrayReading, const N: usize> HeldSliceMut<NDual<S, N>> for NDualMut<'_, S, N> {
    #[inline(always)]
    fn view_mut(&mut self) -> NDualMut<'_, S, N> {
        self.reborrow()
    }
}

/// A fixed array of `NDual`s copied into the element-major layout, on the stack: the
/// holder of a `&[NDual<S, N>; K]` passed where a rule takes a slice.
#[derive(Clone, Copy, Debug)]
pub struct NDualFixed<S, const N: usize, const K: usize> {
    primal: [S; K],
    partials: [[S; N]; K],
}

impl<S: ArrayReading, const N: usize, const K: usize> NDualFixed<S, N, K> {
    /// The holder of a `&[NDual<S, N>; K]` ([`ArrayReading::FixedRef`]).
    pub(crate) fn copy_of(a: &[NDual<S, N>; K]) -> Self {
        Self {
            primal: a.map(|d| d.value()),
            partials: a.map(|d| *d.partials()),
        }
    }
}

impl<S: ArrayReading, const N: usize, const K: usize> HeldSlice<NDual<S, N>>
    for NDualFixed<S, N, K>
{
    #[inline]
    fn view(&self) -> NDualRef<'_, S, N> {
        NDualRef::from_parts(&self.primal, self.partials.as_flattened())
            .expect("K values and K × N partials make an element-major array")
    }
}

/// [`NDualFixed`] for a `&mut [NDual<S, N>; K]`: copied back into the array when the
/// rule that holds it returns.
#[derive(Debug)]
pub struct NDualFixedMut<'a, S: ArrayReading, const N: usize, const K: usize> {
    dst: &'a mut [NDual<S, N>; K],
    copy: NDualFixed<S, N, K>,
}

impl<S: ArrayReading, const N: usize, const K: usize> HeldSliceMut<NDual<S, N>>
    for NDualFixedMut<'_, S, N, K>
{
    #[inline]
    fn view_mut(&mut self) -> NDualMut<'_, S, N> {
        let copy = &mut self.copy;
        NDualMut::from_parts(&mut copy.primal, copy.partials.as_flattened_mut())
            .expect("K values and K × N partials make an element-major array")
    }
}

impl<S: ArrayReading, const N: usize, const K: usize> Drop for NDualFixedMut<'_, S, N, K> {
    fn drop(&mut self) {
        for (k, d) in self.dst.iter_mut().enumerate() {
            *d = NDual::new(self.copy.primal[k], self.copy.partials[k]);
        }
    }
}

impl<'a, S: ArrayReading, const N: usize, const K: usize> NDualFixedMut<'a, S, N, K> {
    /// The holder of a `&mut [NDual<S, N>; K]` ([`ArrayReading::FixedMut`]).
    pub(crate) fn of(a: &'a mut [NDual<S, N>; K]) -> Self {
        let copy = NDualFixed::copy_of(a);
        Self { dst: a, copy }
    }
}

/// `SliceHeld` / `SliceHeldMut` and their `hold_slice` / `hold_slice_mut` for a
/// reading whose arrays are not slices of its values: copies in its own array
/// ([`OwnedCopy`], [`OwnedCopyBack`]).
macro_rules! held_by_copy {
    () => {
        type SliceHeld<'a> = $crate::array::OwnedCopy<Self>;
        type SliceHeldMut<'a> = $crate::array::OwnedCopyBack<'a, Self>;

        fn hold_slice(a: &[Self]) -> Self::SliceHeld<'_> {
            $crate::array::OwnedCopy::of(a)
        }
        fn hold_slice_mut(a: &mut [Self]) -> Self::SliceHeldMut<'_> {
            $crate::array::OwnedCopyBack::of(a)
        }
    };
}
pub(crate) use held_by_copy;

/// A slice or fixed array copied into the reading's own owned array: the holder of a
/// `&[D]` for readings whose arrays are not slices of their values (`NDual`'s
/// element-major arrays, the CUDA reading's device arrays).
#[derive(Debug)]
pub struct OwnedCopy<D: ArrayReading>(D::Vec);

impl<D: ArrayReading> OwnedCopy<D> {
    pub(crate) fn of(a: &[D]) -> Self {
        Self::mapped(a, |d| d)
    }

    /// Plain values zero-lifted (a `#[constant]` slice passed where a rule takes one).
    pub(crate) fn constants<F: crate::Scalar>(a: &[F]) -> Self
    where
        D: crate::Reading<F>,
    {
        Self::mapped(a, D::constant)
    }

    fn mapped<T: Copy>(a: &[T], f: impl FnMut(T) -> D) -> Self {
        let mut v = <D::Vec as ArrayOwned<D>>::with_capacity(a.len());
        v.extend_map(a, f);
        Self(v)
    }
}

impl<D: ArrayReading> HeldSlice<D> for OwnedCopy<D> {
    fn view(&self) -> D::Ref<'_> {
        ArrayView::view(&self.0)
    }
}

/// [`OwnedCopy`] for a `&mut [D]` or `&mut [D; K]`, copied back when dropped.
pub struct OwnedCopyBack<'a, D: ArrayReading> {
    dst: &'a mut [D],
    copy: OwnedCopy<D>,
}

impl<'a, D: ArrayReading> OwnedCopyBack<'a, D> {
    pub(crate) fn of(a: &'a mut [D]) -> Self {
        let copy = OwnedCopy::of(a);
        Self { dst: a, copy }
    }
}

impl<D: ArrayReading> HeldSliceMut<D> for OwnedCopyBack<'_, D> {
    fn view_mut(&mut self) -> D::Mut<'_> {
        ArrayViewMut::view_mut(&mut self.copy.0)
    }
}

impl<D: ArrayReading> Drop for OwnedCopyBack<'_, D> {
    fn drop(&mut self) {
        for (k, d) in self.dst.iter_mut().enumerate() {
            *d = ArrayRead::get(&self.copy.0, k);
        }
    }
}

impl<D: ArrayReading> core::fmt::Debug for OwnedCopyBack<'_, D>
where
    D::Vec: core::fmt::Debug,
{
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("OwnedCopyBack")
            .field("copy", &self.copy.0)
            .finish_non_exhaustive()
    }
}
