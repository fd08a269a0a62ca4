//! The array vocabulary shared by every reading.
//!
//! Generated code names array types only through `Real::{Vec, Ref, Mut}` and these traits,
//! never a concrete array type, so a new reading (a device array, say) brings its own
//! arrays without macro changes. Every operation a derived rule performs on an array is a
//! method of one of these traits, implemented both for the primal reading (`Vec<f64>`,
//! `&[f64]`, `&mut [f64]`, and the same for `f32`) and for
//! [`NDual<S, N>`](crate::NDual) ([`NDualArray`](crate::NDualArray),
//! [`NDualRef`](crate::NDualRef), [`NDualMut`](crate::NDualMut)).
//!
//! | trait | implemented by | what it adds |
//! |---|---|---|
//! | [`ArrayRead<D>`] | anything holding `D`s, views, owned arrays, `[D]`, `[D; K]`, `&T` | `len`, `is_empty`, `get` (gather), `first`, `last` |
//! | [`ArrayWrite<D>`] | mutable views, owned arrays, `[D]`, `&mut T` | `set` (scatter), `swap` |
//! | [`ArrayView<D>`] | `D::Ref`, `D::Mut`, `D::Vec` | `view`, `iter`, `slice`, `split_at`, `to_vec`, `windows`, `chunks` |
//! | [`ArrayViewMut<D>`] | `D::Mut`, `D::Vec` | `view_mut` (reborrow), `elem_mut`, `iter_mut`, `for_each_mut`, `slice_mut`, `split_at_mut`, `chunks_mut`, `copy_from_slice`, `fill`, `reverse` |
//! | [`ArrayRef<'a, D>`] | `D::Ref<'a>` | by-value sub-views that keep the lifetime `'a` |
//! | [`ArrayMut<'a, D>`] | `D::Mut<'a>` | by-value conversions that keep the lifetime `'a` |
//! | [`ArrayOwned<D>`] | `D::Vec` | `from_elem`, `with_capacity`, `push`, `pop`, `extend_from_slice`, `resize`, `truncate`, `clear`, `insert`, `remove`, `reserve` |
//!
//! Element access is by value: an element of an [`NDualArray`](crate::NDualArray) is
//! gathered from two buffers, so no `&D` into an array exists. Writes scatter: through
//! [`ArrayWrite::set`], or through the guard [`ArrayViewMut::elem_mut`] /
//! [`ArrayViewMut::iter_mut`] hand out (a `DerefMut<Target = D>` that writes the element
//! back when dropped; `&mut f64` for the primal reading), so `*v = …` and `*v += …` on the
//! items of `iter_mut()` mean the same on every reading.
//!
//! Method names follow `[T]` and `Vec<T>` where the meaning is the same; on a concrete
//! `&[f64]`, inherent slice methods win method resolution (`x.get(i)` is then
//! `Option<&f64>`), so generic code should call these through a generic reading or by
//! their trait path.

use core::ops::{DerefMut, RangeBounds};

use crate::Real;
use crate::array::iter::{Chunks, ChunksMut, Windows};

/// Read access to an array: length and gather of one element.
///
/// Implemented for every array of a reading and also for plain `[D]`, `[D; K]` and
/// `Vec<D>` of any reading (the forward value of `[f64; K]` is `[D; K]`), and for
/// references to any of them.
pub trait ArrayRead<D> {
    /// Number of elements.
    fn len(&self) -> usize;
    /// `true` when there are no elements.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Element `i` as a value of the reading (gathers its primal and partials).
    /// Panics when `i` is out of bounds, as indexing does.
    fn get(&self, i: usize) -> D;
    /// The first element, if any.
    fn first(&self) -> Option<D> {
        if self.is_empty() {
            None
        } else {
            Some(self.get(0))
        }
    }
    /// The last element, if any.
    fn last(&self) -> Option<D> {
        self.len().checked_sub(1).map(|i| self.get(i))
    }
}

/// Write access: scatter one element.
pub trait ArrayWrite<D>: ArrayRead<D> {
    /// Stores `value` at element `i` (its primal and all its partials).
    /// Panics when `i` is out of bounds, as indexing does.
    fn set(&mut self, i: usize, value: D);
    /// Swaps elements `i` and `j` (primal and partials). Panics when either is out of
    /// bounds.
    #[track_caller]
    fn swap(&mut self, i: usize, j: usize) {
        let a = self.get(i);
        let b = self.get(j);
        self.set(i, b);
        self.set(j, a);
    }
}

/// An array laid out as the reading `D` lays out arrays: its views (`D::Ref`, `D::Mut`)
/// and its owned array (`D::Vec`). Sub-views, iteration and copies.
///
/// Every method that returns a view borrows `self`; to keep the full lifetime of a
/// shared view (to return a sub-slice of an argument, say), use
/// [`ArrayRef::into_slice`].
pub trait ArrayView<D: Real>: ArrayRead<D> {
    /// The iterator of [`iter`](Self::iter): yields the elements by value, in order.
    type Iter<'s>: Iterator<Item = D> + ExactSizeIterator + DoubleEndedIterator + Clone
    where
        Self: 's;

    /// A shared view of the whole array (`&v[..]`).
    fn view(&self) -> D::Ref<'_>;

    /// The elements by value, in order (`x.iter().copied()` for the primal reading).
    fn iter(&self) -> Self::Iter<'_>;

    /// A shared view of the elements in `range` (`&x[a..b]`): no copy. Panics when the
    /// range is out of bounds or decreasing, as slicing does.
    #[track_caller]
    fn slice(&self, range: impl RangeBounds<usize>) -> D::Ref<'_> {
        self.view().into_slice(range)
    }

    /// The views of `..mid` and `mid..`. Panics when `mid > len`.
    #[track_caller]
    fn split_at(&self, mid: usize) -> (D::Ref<'_>, D::Ref<'_>) {
        self.view().into_split_at(mid)
    }

    /// An owned copy of the elements (`x.to_vec()`).
    fn to_vec(&self) -> D::Vec {
        let mut out = D::Vec::with_capacity(self.len());
        out.extend_from_slice(self.view());
        out
    }

    /// Every contiguous window of `size` elements, as views, in order (`x.windows(k)`).
    /// Panics when `size` is zero.
    #[track_caller]
    fn windows(&self, size: usize) -> Windows<'_, D> {
        Windows::new(self.view(), size)
    }

    /// Consecutive views of `size` elements, the last one possibly shorter
    /// (`x.chunks(k)`). Panics when `size` is zero.
    #[track_caller]
    fn chunks(&self, size: usize) -> Chunks<'_, D> {
        Chunks::new(self.view(), size)
    }
}

/// Mutable access to an array of the reading: `D::Mut` and `D::Vec`.
pub trait ArrayViewMut<D: Real>: ArrayView<D> + ArrayWrite<D> {
    /// A mutable handle on one element: `&mut f64` for the primal reading, a guard that
    /// scatters the element back into the array when dropped for split layouts.
    type ElemMut<'s>: DerefMut<Target = D>
    where
        Self: 's;
    /// The iterator of [`iter_mut`](Self::iter_mut).
    type IterMut<'s>: Iterator<Item = Self::ElemMut<'s>> + ExactSizeIterator + DoubleEndedIterator
    where
        Self: 's;

    /// A mutable view of the whole array: the reborrow to pass a `&mut [f64]` argument on
    /// to a callee while keeping it (`&mut *y`).
    fn view_mut(&mut self) -> D::Mut<'_>;

    /// A mutable handle on element `i` (`&mut y[i]`); `*y.elem_mut(i) += r` gathers,
    /// updates and scatters. Panics when `i` is out of bounds.
    fn elem_mut(&mut self, i: usize) -> Self::ElemMut<'_>;

    /// Mutable handles on every element, in order (`y.iter_mut()`): `*v = …` through
    /// them scatters into the array.
    fn iter_mut(&mut self) -> Self::IterMut<'_>;

    /// A mutable view of the elements in `range` (`&mut y[a..b]`): no copy. Panics when
    /// the range is out of bounds or decreasing.
    #[track_caller]
    fn slice_mut(&mut self, range: impl RangeBounds<usize>) -> D::Mut<'_> {
        self.view_mut().into_slice_mut(range)
    }

    /// The mutable views of `..mid` and `mid..`. Panics when `mid > len`.
    #[track_caller]
    fn split_at_mut(&mut self, mid: usize) -> (D::Mut<'_>, D::Mut<'_>) {
        self.view_mut().into_split_at_mut(mid)
    }

    /// Calls `f` on every element in order, writing each element back afterwards.
    fn for_each_mut(&mut self, mut f: impl FnMut(&mut D)) {
        for mut elem in self.iter_mut() {
            f(&mut elem);
        }
    }

    /// Copies every element of `src` (`y.copy_from_slice(x)`). Panics when the lengths
    /// differ.
    fn copy_from_slice(&mut self, src: D::Ref<'_>);

    /// Sets every element to `value`.
    fn fill(&mut self, value: D);

    /// Reverses the order of the elements in place.
    fn reverse(&mut self) {
        let n = self.len();
        for i in 0..n / 2 {
            self.swap(i, n - 1 - i);
        }
    }

    /// Consecutive mutable views of `size` elements, the last one possibly shorter
    /// (`y.chunks_mut(k)`). Panics when `size` is zero.
    #[track_caller]
    fn chunks_mut(&mut self, size: usize) -> ChunksMut<'_, D> {
        ChunksMut::new(self.view_mut(), size)
    }
}

/// A shared view of an array of the reading (`D::Ref<'a>`: `&'a [f64]`,
/// [`NDualRef<'a, S, N>`](crate::NDualRef)): `Copy`, and sub-views that keep `'a`.
pub trait ArrayRef<'a, D: Real>: ArrayView<D> + Copy + core::fmt::Debug + Send + Sync {
    /// The view of the elements in `range`, for the whole lifetime `'a`. Panics when the
    /// range is out of bounds or decreasing.
    fn into_slice(self, range: impl RangeBounds<usize>) -> D::Ref<'a>;
    /// The views of `..mid` and `mid..`, for the whole lifetime `'a`. Panics when
    /// `mid > len`.
    fn into_split_at(self, mid: usize) -> (D::Ref<'a>, D::Ref<'a>);
}

/// A mutable view of an array of the reading (`D::Mut<'a>`: `&'a mut [f64]`,
/// [`NDualMut<'a, S, N>`](crate::NDualMut)): conversions that keep `'a`.
pub trait ArrayMut<'a, D: Real>: ArrayViewMut<D> + core::fmt::Debug + Send + Sync {
    /// The shared view of the same elements, for the whole lifetime `'a`.
    fn into_ref(self) -> D::Ref<'a>;
    /// The mutable view of the elements in `range`, for the whole lifetime `'a`. Panics
    /// when the range is out of bounds or decreasing.
    fn into_slice_mut(self, range: impl RangeBounds<usize>) -> D::Mut<'a>;
    /// The mutable views of `..mid` and `mid..`, for the whole lifetime `'a`. Panics
    /// when `mid > len`.
    fn into_split_at_mut(self, mid: usize) -> (D::Mut<'a>, D::Mut<'a>);
}

/// An owned, growable array of a reading: `Vec<f64>` for the primal reading,
/// [`NDualArray<S, N>`](crate::NDualArray) for `NDual<S, N>`. Growth is amortised O(1)
/// per element, as for `Vec`.
pub trait ArrayOwned<D: Real>:
    ArrayViewMut<D>
    + Clone
    + core::fmt::Debug
    + Default
    + FromIterator<D>
    + Extend<D>
    + IntoIterator<Item = D>
    + Send
    + Sync
    + 'static
{
    /// An array of `len` copies of `value` (`vec![value; len]`).
    fn from_elem(value: D, len: usize) -> Self;
    /// An empty array with room for `capacity` elements.
    fn with_capacity(capacity: usize) -> Self;
    /// Appends one element.
    fn push(&mut self, value: D);
    /// Removes and returns the last element, if any.
    fn pop(&mut self) -> Option<D>;
    /// Appends a copy of every element of `src`.
    fn extend_from_slice(&mut self, src: D::Ref<'_>);
    /// Grows with copies of `value`, or shrinks, to `len` elements.
    fn resize(&mut self, len: usize, value: D);
    /// Keeps the first `len` elements (no effect when there are fewer).
    fn truncate(&mut self, len: usize);
    /// Removes every element, keeping the allocation.
    fn clear(&mut self);
    /// Inserts `value` at `i`, shifting the later elements. Panics when `i > len`.
    fn insert(&mut self, i: usize, value: D);
    /// Removes and returns element `i`, shifting the later elements. Panics when
    /// `i >= len`.
    fn remove(&mut self, i: usize) -> D;
    /// Reserves room for at least `additional` more elements.
    fn reserve(&mut self, additional: usize);
    /// Appends `f(x)` for every `x` of `src` (how drivers lift a slice argument).
    #[inline]
    fn extend_map<T: Copy>(&mut self, src: &[T], mut f: impl FnMut(T) -> D) {
        // A loop of `push` rather than `extend`: through `Extend`, a `Vec<ZDual<f64,
        // 16>>` called `f` out of line and copied each element with `memcpy`. No
        // `reserve` either: drivers call this on a fresh `with_capacity` or a cleared
        // array, and at W2's n = 4096 it made each push slower.
        for &x in src {
            self.push(f(x));
        }
    }
}

impl<D: Copy> ArrayRead<D> for [D] {
    #[inline(always)]
    fn len(&self) -> usize {
        <[D]>::len(self)
    }
    #[inline(always)]
    #[track_caller]
    fn get(&self, i: usize) -> D {
        self[i]
    }
}

impl<D: Copy> ArrayWrite<D> for [D] {
    #[inline(always)]
    #[track_caller]
    fn set(&mut self, i: usize, value: D) {
        self[i] = value;
    }
    #[inline(always)]
    #[track_caller]
    fn swap(&mut self, i: usize, j: usize) {
        <[D]>::swap(self, i, j);
    }
}

impl<D: Copy, const K: usize> ArrayRead<D> for [D; K] {
    #[inline(always)]
    fn len(&self) -> usize {
        K
    }
    #[inline(always)]
    #[track_caller]
    fn get(&self, i: usize) -> D {
        self[i]
    }
}

impl<D: Copy, const K: usize> ArrayWrite<D> for [D; K] {
    #[inline(always)]
    #[track_caller]
    fn set(&mut self, i: usize, value: D) {
        self[i] = value;
    }
    #[inline(always)]
    #[track_caller]
    fn swap(&mut self, i: usize, j: usize) {
        <[D]>::swap(self, i, j);
    }
}

impl<D: Copy> ArrayRead<D> for Vec<D> {
    #[inline(always)]
    fn len(&self) -> usize {
        Vec::len(self)
    }
    #[inline(always)]
    #[track_caller]
    fn get(&self, i: usize) -> D {
        self[i]
    }
}

impl<D: Copy> ArrayWrite<D> for Vec<D> {
    #[inline(always)]
    #[track_caller]
    fn set(&mut self, i: usize, value: D) {
        self[i] = value;
    }
    #[inline(always)]
    #[track_caller]
    fn swap(&mut self, i: usize, j: usize) {
        <[D]>::swap(self, i, j);
    }
}

impl<D, T: ArrayRead<D> + ?Sized> ArrayRead<D> for &T {
    #[inline(always)]
    fn len(&self) -> usize {
        T::len(self)
    }
    #[inline(always)]
    #[track_caller]
    fn get(&self, i: usize) -> D {
        T::get(self, i)
    }
}

impl<D, T: ArrayRead<D> + ?Sized> ArrayRead<D> for &mut T {
    #[inline(always)]
    fn len(&self) -> usize {
        T::len(self)
    }
    #[inline(always)]
    #[track_caller]
    fn get(&self, i: usize) -> D {
        T::get(self, i)
    }
}

impl<D, T: ArrayWrite<D> + ?Sized> ArrayWrite<D> for &mut T {
    #[inline(always)]
    #[track_caller]
    fn set(&mut self, i: usize, value: D) {
        T::set(self, i, value);
    }
    #[inline(always)]
    #[track_caller]
    fn swap(&mut self, i: usize, j: usize) {
        T::swap(self, i, j);
    }
}
