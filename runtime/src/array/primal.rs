//! The slice-backed arrays: `Vec<T>`, `&[T]`, `&mut [T]` for the primal readings `f64`
//! and `f32` (with their flat view) and for every [`SliceReading`]: `Taylor<S, K>`,
//! `DiagJet<S, N>`, `HyperDual<S>`, `ZDual<S, N>` and readings written elsewhere (each
//! value is one contiguous `Copy` value, so an array of them needs no split layout; for
//! `ZDual` one is possible later, see its docs). Each trait method is the slice or `Vec` method
//! of the same name, so running a rule at the primal reading runs exactly the primal's
//! operations.

use core::iter::Copied;
use core::ops::{Bound, RangeBounds};
use core::slice;

use crate::array::{
    Array, ArrayChunks, ArrayChunksMut, ArrayMut, ArrayOwned, ArrayReading, ArrayRef, ArrayView,
    ArrayViewMut, Field, Flat, Operand, OwnedArray, OwnedOperand,
};
use crate::{DiagJet, HyperDual, Real, Taylor, ZDual};

/// A range as the `(Bound, Bound)` pair slices can be indexed by (std's own bounds
/// checks and panic messages then apply).
#[inline(always)]
fn bounds(range: impl RangeBounds<usize>) -> (Bound<usize>, Bound<usize>) {
    (range.start_bound().cloned(), range.end_bound().cloned())
}

/// `ArrayView<$f>` for one of `&[f]`, `&mut [f]`, `Vec<f>`: a view of `self` as a slice.
macro_rules! primal_view {
    ({$($gen:tt)*} $f:ty, $ty:ty) => {
        impl<$($gen)*> ArrayView<$f> for $ty {
            type Iter<'s>
                = Copied<slice::Iter<'s, $f>>
            where
                Self: 's;
            #[inline(always)]
            fn view(&self) -> &[$f] {
                self
            }
            #[inline(always)]
            fn iter(&self) -> Self::Iter<'_> {
                <[$f]>::iter(self).copied()
            }
            #[inline(always)]
            #[track_caller]
            fn slice(&self, range: impl RangeBounds<usize>) -> &[$f] {
                &self[bounds(range)]
            }
            #[inline]
            fn to_vec(&self) -> Vec<$f> {
                <[$f]>::to_vec(self)
            }
            #[inline]
            fn as_chunks<const K: usize>(&self) -> (ArrayChunks<'_, $f, K>, &[$f]) {
                let (chunks, rest) = <[$f]>::as_chunks::<K>(self);
                (ArrayChunks::borrowed(chunks), rest)
            }
        }
    };
}

/// `ArrayViewMut<$f>` for one of `&mut [f]`, `Vec<f>`: a view of `self` as a mutable slice.
macro_rules! primal_view_mut {
    ({$($gen:tt)*} $f:ty, $ty:ty) => {
        impl<$($gen)*> ArrayViewMut<$f> for $ty {
            type ElemMut<'s>
                = &'s mut $f
            where
                Self: 's;
            type IterMut<'s>
                = slice::IterMut<'s, $f>
            where
                Self: 's;
            #[inline(always)]
            fn view_mut(&mut self) -> &mut [$f] {
                self
            }
            #[inline(always)]
            #[track_caller]
            fn elem_mut(&mut self, i: usize) -> &mut $f {
                &mut self[i]
            }
            #[inline(always)]
            fn iter_mut(&mut self) -> slice::IterMut<'_, $f> {
                <[$f]>::iter_mut(self)
            }
            #[inline(always)]
            #[track_caller]
            fn slice_mut(&mut self, range: impl RangeBounds<usize>) -> &mut [$f] {
                &mut self[bounds(range)]
            }
            #[inline]
            fn for_each_mut(&mut self, f: impl FnMut(&mut $f)) {
                <[$f]>::iter_mut(self).for_each(f);
            }
            #[inline]
            #[track_caller]
            fn copy_from_slice(&mut self, src: &[$f]) {
                <[$f]>::copy_from_slice(self, src);
            }
            #[inline]
            fn fill(&mut self, value: $f) {
                <[$f]>::fill(self, value);
            }
            #[inline]
            fn reverse(&mut self) {
                <[$f]>::reverse(self);
            }
            #[inline]
            fn as_chunks_mut<const K: usize>(
                &mut self,
            ) -> (ArrayChunksMut<'_, $f, K>, &mut [$f]) {
                let (chunks, rest) = <[$f]>::as_chunks_mut::<K>(self);
                (ArrayChunksMut::borrowed(chunks), rest)
            }
            #[inline]
            fn sort_by(&mut self, compare: impl FnMut(&$f, &$f) -> core::cmp::Ordering) {
                <[$f]>::sort_by(self, compare);
            }
            #[inline]
            fn sort_unstable_by(
                &mut self,
                compare: impl FnMut(&$f, &$f) -> core::cmp::Ordering,
            ) {
                <[$f]>::sort_unstable_by(self, compare);
            }
        }
    };
}

macro_rules! primal_arrays {
    ({$($gen:tt)*} $f:ty) => {
        primal_view!({'a, $($gen)*} $f, &'a [$f]);
        primal_view!({'a, $($gen)*} $f, &'a mut [$f]);
        primal_view!({$($gen)*} $f, Vec<$f>);
        primal_view_mut!({'a, $($gen)*} $f, &'a mut [$f]);
        primal_view_mut!({$($gen)*} $f, Vec<$f>);

        impl<'a, $($gen)*> ArrayRef<'a, $f> for &'a [$f] {
            #[inline(always)]
            #[track_caller]
            fn into_slice(self, range: impl RangeBounds<usize>) -> &'a [$f] {
                &self[bounds(range)]
            }
            #[inline(always)]
            #[track_caller]
            fn into_split_at(self, mid: usize) -> (&'a [$f], &'a [$f]) {
                <[$f]>::split_at(self, mid)
            }
        }

        impl<'a, $($gen)*> ArrayMut<'a, $f> for &'a mut [$f] {
            #[inline(always)]
            fn into_ref(self) -> &'a [$f] {
                self
            }
            #[inline(always)]
            #[track_caller]
            fn into_slice_mut(self, range: impl RangeBounds<usize>) -> &'a mut [$f] {
                &mut self[bounds(range)]
            }
            #[inline(always)]
            #[track_caller]
            fn into_split_at_mut(self, mid: usize) -> (&'a mut [$f], &'a mut [$f]) {
                <[$f]>::split_at_mut(self, mid)
            }
        }

        impl<$($gen)*> ArrayOwned<$f> for Vec<$f> {
            #[inline]
            fn from_elem(value: $f, len: usize) -> Self {
                vec![value; len]
            }
            #[inline]
            fn with_capacity(capacity: usize) -> Self {
                Vec::with_capacity(capacity)
            }
            #[inline(always)]
            fn push(&mut self, value: $f) {
                Vec::push(self, value);
            }
            #[inline(always)]
            fn pop(&mut self) -> Option<$f> {
                Vec::pop(self)
            }
            #[inline]
            fn extend_from_slice(&mut self, src: &[$f]) {
                Vec::extend_from_slice(self, src);
            }
            #[inline]
            fn resize(&mut self, len: usize, value: $f) {
                Vec::resize(self, len, value);
            }
            #[inline]
            fn truncate(&mut self, len: usize) {
                Vec::truncate(self, len);
            }
            #[inline]
            fn clear(&mut self) {
                Vec::clear(self);
            }
            #[inline]
            #[track_caller]
            fn insert(&mut self, i: usize, value: $f) {
                Vec::insert(self, i, value);
            }
            #[inline]
            #[track_caller]
            fn remove(&mut self, i: usize) -> $f {
                Vec::remove(self, i)
            }
            #[inline]
            fn reserve(&mut self, additional: usize) {
                Vec::reserve(self, additional);
            }
        }
    };
}

/// `ArrayReading` for a slice-backed reading: its arrays are `Vec`s and slices of it;
/// the primal readings add the flat view (the slice itself, no tangent block).
macro_rules! slice_reading {
    ({$($gen:tt)*} $t:ty $(, $($hooks:tt)*)?) => {
        slice_held!({$($gen)*} $t);
        impl<$($gen)*> ArrayReading for $t {
            type Vec = Vec<$t>;
            type Ref<'a> = &'a [$t];
            type Mut<'a> = &'a mut [$t];
            type FixedRef<'a, const K: usize> = &'a [$t];
            type FixedMut<'a, const K: usize> = &'a mut [$t];
            type SliceHeld<'a> = &'a [$t];
            type SliceHeldMut<'a> = &'a mut [$t];
            #[inline(always)]
            fn hold_slice(a: &[$t]) -> &[$t] {
                a
            }
            #[inline(always)]
            fn hold_slice_mut(a: &mut [$t]) -> &mut [$t] {
                a
            }
            #[inline(always)]
            fn hold_fixed<const K: usize>(a: &[$t; K]) -> &[$t] {
                a
            }
            #[inline(always)]
            fn hold_fixed_mut<const K: usize>(a: &mut [$t; K]) -> &mut [$t] {
                a
            }
            $($($hooks)*)?
        }
    };
}

/// The primal field's flat view of itself.
macro_rules! primal_reading {
    ($f:ident) => {
        primal_arrays!({} $f);
        slice_reading!({} $f,
        fn flat_width() -> Option<usize> {
            Some(0)
        }
        fn as_flat(s: &[Self]) -> Option<&[$f]> {
            Some(s)
        }
        fn vec_from_flat(v: Vec<$f>) -> Option<Vec<Self>> {
            Some(v)
        }
        fn flat_ref<'a>(r: <Self as ArrayReading>::Ref<'a>) -> Option<(&'a [$f], &'a [$f])> {
            Some((r, &[]))
        }
        fn flat_vec(v: &Vec<$f>) -> Option<(&[$f], &[$f])> {
            Some((v, &[]))
        }
        fn scalar_from_flat(primal: $f, _tangent: &[$f]) -> Option<$f> {
            Some(primal)
        }
        fn from_flat(primal: Vec<$f>, _block: Vec<$f>) -> Option<Vec<$f>> {
            Some(primal)
        }
        );
    };
}

primal_reading!(f64);
primal_reading!(f32);

/// A reading whose arrays are `Vec<Self>`, `&[Self]` and `&mut [Self]`: each value is one
/// contiguous `Copy` value, so an array of them needs no split layout.
///
/// Implementing it (one line, no methods) gives a reading all its arrays: its
/// [`ArrayReading`] (no flat view and no offload: the primitives run element-wise), the
/// view traits on its slices and `Vec`s, and the operand traits the array primitives
/// take. `Taylor`, `DiagJet`, `HyperDual` and `ZDual` are slice readings; the book's
/// "How to add a reading" shows one written outside this crate.
pub trait SliceReading: Real {}

impl<S: Real, const K: usize> SliceReading for Taylor<S, K> {}
impl<S: Real, const N: usize> SliceReading for DiagJet<S, N> {}
impl<S: Real> SliceReading for HyperDual<S> {}
impl<S: Real, const N: usize> SliceReading for ZDual<S, N> {}

primal_arrays!({T: SliceReading} T);
slice_reading!({T: SliceReading} T);

impl<T: SliceReading> Array for &[T] {
    type Elem = T;
    fn len(&self) -> usize {
        <[T]>::len(self)
    }
}

impl<T: SliceReading> Operand<T> for &[T] {
    #[inline]
    fn get(&self, i: usize) -> T {
        self[i]
    }
    fn flat(&self) -> Option<Flat<'_, Field<T>>> {
        None
    }
}

impl<T: SliceReading> OwnedArray for Vec<T> {
    type Elem = T;
    fn len(&self) -> usize {
        Vec::len(self)
    }
}

impl<T: SliceReading> OwnedOperand<T> for Vec<T> {
    #[inline]
    fn get(&self, i: usize) -> T {
        self[i]
    }
    fn flat(&self) -> Option<Flat<'_, Field<T>>> {
        None
    }
}
