//! The view traits of the arrays of a reading ([`ArrayView`], [`ArrayViewMut`],
//! [`ArrayRef`], [`ArrayMut`], [`ArrayOwned`]) and their chunk iterators.

use core::cmp::Ordering;
use core::fmt;
use core::iter::FusedIterator;
use core::ops::{DerefMut, RangeBounds};

use crate::array::access::{ArrayRead, ArrayWrite};
use crate::array::{ArrayChunks, ArrayChunksMut, ArrayReading};

/// An array laid out as the reading `D` lays out arrays: its views (`D::Ref`, `D::Mut`)
/// and its owned array (`D::Vec`). Sub-views, iteration and copies.
///
/// Every method that returns a view borrows `self`; to keep the full lifetime of a
/// shared view (to return a sub-slice of an argument, say), use
/// [`ArrayRef::into_slice`].
pub trait ArrayView<D: ArrayReading>: ArrayRead<D> {
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

    /// Consecutive views of exactly `size` elements; the `len % size` elements at the
    /// end are left out (`x.chunks_exact(k)`). Panics when `size` is zero.
    #[track_caller]
    fn chunks_exact(&self, size: usize) -> Chunks<'_, D> {
        assert!(size != 0, "chunk size must be non-zero");
        let whole = self.len() - self.len() % size;
        Chunks::new(self.view().into_slice(..whole), size)
    }

    /// The `len / K` whole chunks of `K` elements, as a slice of `[D; K]`, and the
    /// `len % K` elements left (`x.as_chunks::<K>()`). Readings whose arrays are slices
    /// of `D` borrow the chunks; `NDual`'s split layout gathers them into a copy.
    /// Panics when `K` is zero.
    #[track_caller]
    fn as_chunks<const K: usize>(&self) -> (ArrayChunks<'_, D, K>, D::Ref<'_>) {
        assert!(K != 0, "chunk size must be non-zero");
        let (head, rest) = self.split_at(self.len() - self.len() % K);
        (ArrayChunks::gathered(&head), rest)
    }
}

/// Mutable access to an array of the reading: `D::Mut` and `D::Vec`.
pub trait ArrayViewMut<D: ArrayReading>: ArrayView<D> + ArrayWrite<D> {
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

    /// Sorts by `compare`, which sees the elements (primal and partials; compare the
    /// primals, with `partial_cmp` or `total_cmp`): the elements move whole, so the
    /// tangents follow the permutation the primals take. Stable.
    fn sort_by(&mut self, mut compare: impl FnMut(&D, &D) -> Ordering) {
        let elems: Vec<D> = (0..self.len()).map(|i| self.get(i)).collect();
        let mut order: Vec<usize> = (0..elems.len()).collect();
        order.sort_by(|&i, &j| compare(&elems[i], &elems[j]));
        for (k, &i) in order.iter().enumerate() {
            self.set(k, elems[i]);
        }
    }

    /// [`sort_by`](Self::sort_by), which a reading may do unstably (the primal reading
    /// does, as `slice::sort_unstable_by`).
    fn sort_unstable_by(&mut self, compare: impl FnMut(&D, &D) -> Ordering) {
        self.sort_by(compare);
    }

    /// Consecutive mutable views of `size` elements, the last one possibly shorter
    /// (`y.chunks_mut(k)`). Panics when `size` is zero.
    #[track_caller]
    fn chunks_mut(&mut self, size: usize) -> ChunksMut<'_, D> {
        ChunksMut::new(self.view_mut(), size)
    }

    /// The whole chunks of `K` elements as a mutable slice of `[D; K]`, and a mutable
    /// view of the `len % K` elements left (`y.as_chunks_mut::<K>()`). For `NDual`'s
    /// split layout the chunks are a copy, written back when it is dropped. Panics when
    /// `K` is zero.
    #[track_caller]
    fn as_chunks_mut<const K: usize>(&mut self) -> (ArrayChunksMut<'_, D, K>, D::Mut<'_>) {
        assert!(K != 0, "chunk size must be non-zero");
        let whole = self.len() - self.len() % K;
        let (head, rest) = self.split_at_mut(whole);
        (ArrayChunksMut::gathered(head), rest)
    }
}

/// A shared view of an array of the reading (`D::Ref<'a>`: `&'a [f64]`,
/// [`NDualRef<'a, S, N>`](crate::NDualRef)): `Copy`, and sub-views that keep `'a`.
pub trait ArrayRef<'a, D: ArrayReading>:
    ArrayView<D> + Copy + core::fmt::Debug + Send + Sync
{
    /// The view of the elements in `range`, for the whole lifetime `'a`. Panics when the
    /// range is out of bounds or decreasing.
    fn into_slice(self, range: impl RangeBounds<usize>) -> D::Ref<'a>;
    /// The views of `..mid` and `mid..`, for the whole lifetime `'a`. Panics when
    /// `mid > len`.
    fn into_split_at(self, mid: usize) -> (D::Ref<'a>, D::Ref<'a>);
}

/// A mutable view of an array of the reading (`D::Mut<'a>`: `&'a mut [f64]`,
/// [`NDualMut<'a, S, N>`](crate::NDualMut)): conversions that keep `'a`.
pub trait ArrayMut<'a, D: ArrayReading>: ArrayViewMut<D> + core::fmt::Debug + Send + Sync {
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
pub trait ArrayOwned<D: ArrayReading>:
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
    /// Gives the array `f(x)`'s values for the `x` of `src`, in order, keeping its
    /// partials: the array holds `src.len()` elements made by an `f` whose partials do
    /// not depend on `x` (a plan's seeds). The default makes every element again.
    #[doc(hidden)]
    #[inline]
    fn refill_values<T: Copy>(&mut self, src: &[T], f: impl FnMut(T) -> D) {
        self.clear();
        self.extend_map(src, f);
    }
}

/// The arrays of `parts` one after the other, in one owned array (`[a, b].concat()`,
/// `rows.concat()`).
pub fn concat<D: ArrayReading, A: ArrayView<D>>(parts: &[A]) -> D::Vec {
    let mut out = D::Vec::with_capacity(parts.iter().map(ArrayRead::len).sum());
    for p in parts {
        out.extend_from_slice(p.view());
    }
    out
}

/// Every contiguous window of `size` elements of an array of reading `D`, as shared
/// views (`D::Ref<'a>`: `&'a [f64]`, [`NDualRef`](crate::NDualRef)), in order. Made by
/// [`ArrayView::windows`](crate::array::ArrayView::windows).
pub struct Windows<'a, D: ArrayReading> {
    view: D::Ref<'a>,
    size: usize,
}

impl<'a, D: ArrayReading> Windows<'a, D> {
    /// The windows of `view`. Panics when `size` is zero.
    #[track_caller]
    pub fn new(view: D::Ref<'a>, size: usize) -> Self {
        assert!(size != 0, "window size must be non-zero");
        Self { view, size }
    }
}

impl<'a, D: ArrayReading> Iterator for Windows<'a, D> {
    type Item = D::Ref<'a>;
    #[inline]
    fn next(&mut self) -> Option<D::Ref<'a>> {
        if self.view.len() < self.size {
            return None;
        }
        let window = self.view.into_slice(..self.size);
        self.view = self.view.into_slice(1..);
        Some(window)
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.view.len() + 1).saturating_sub(self.size);
        (n, Some(n))
    }
}

impl<D: ArrayReading> DoubleEndedIterator for Windows<'_, D> {
    #[inline]
    fn next_back(&mut self) -> Option<Self::Item> {
        let len = self.view.len();
        if len < self.size {
            return None;
        }
        let window = self.view.into_slice(len - self.size..);
        self.view = self.view.into_slice(..len - 1);
        Some(window)
    }
}

impl<D: ArrayReading> ExactSizeIterator for Windows<'_, D> {}
impl<D: ArrayReading> FusedIterator for Windows<'_, D> {}

impl<D: ArrayReading> Clone for Windows<'_, D> {
    fn clone(&self) -> Self {
        Self {
            view: self.view,
            size: self.size,
        }
    }
}

impl<D: ArrayReading> fmt::Debug for Windows<'_, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Windows")
            .field("view", &self.view)
            .field("size", &self.size)
            .finish()
    }
}

/// Consecutive shared views of `size` elements of an array of reading `D`, the last one
/// possibly shorter. Made by [`ArrayView::chunks`](crate::array::ArrayView::chunks).
pub struct Chunks<'a, D: ArrayReading> {
    view: D::Ref<'a>,
    size: usize,
}

impl<'a, D: ArrayReading> Chunks<'a, D> {
    /// The chunks of `view`. Panics when `size` is zero.
    #[track_caller]
    pub fn new(view: D::Ref<'a>, size: usize) -> Self {
        assert!(size != 0, "chunk size must be non-zero");
        Self { view, size }
    }
}

impl<'a, D: ArrayReading> Iterator for Chunks<'a, D> {
    type Item = D::Ref<'a>;
    #[inline]
    fn next(&mut self) -> Option<D::Ref<'a>> {
        if self.view.is_empty() {
            return None;
        }
        let n = self.size.min(self.view.len());
        let (chunk, rest) = self.view.into_split_at(n);
        self.view = rest;
        Some(chunk)
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.view.len().div_ceil(self.size);
        (n, Some(n))
    }
}

impl<D: ArrayReading> DoubleEndedIterator for Chunks<'_, D> {
    #[inline]
    fn next_back(&mut self) -> Option<Self::Item> {
        let len = self.view.len();
        if len == 0 {
            return None;
        }
        let n = match len % self.size {
            0 => self.size,
            r => r,
        };
        let (rest, chunk) = self.view.into_split_at(len - n);
        self.view = rest;
        Some(chunk)
    }
}

impl<D: ArrayReading> ExactSizeIterator for Chunks<'_, D> {}
impl<D: ArrayReading> FusedIterator for Chunks<'_, D> {}

impl<D: ArrayReading> Clone for Chunks<'_, D> {
    fn clone(&self) -> Self {
        Self {
            view: self.view,
            size: self.size,
        }
    }
}

impl<D: ArrayReading> fmt::Debug for Chunks<'_, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Chunks")
            .field("view", &self.view)
            .field("size", &self.size)
            .finish()
    }
}

/// Consecutive mutable views of `size` elements of an array of reading `D`, the last one
/// possibly shorter. Made by
/// [`ArrayViewMut::chunks_mut`](crate::array::ArrayViewMut::chunks_mut).
pub struct ChunksMut<'a, D: ArrayReading> {
    view: Option<D::Mut<'a>>,
    size: usize,
}

impl<'a, D: ArrayReading> ChunksMut<'a, D> {
    /// The chunks of `view`. Panics when `size` is zero.
    #[track_caller]
    pub fn new(view: D::Mut<'a>, size: usize) -> Self {
        assert!(size != 0, "chunk size must be non-zero");
        Self {
            view: Some(view),
            size,
        }
    }

    fn remaining(&self) -> usize {
        self.view.as_ref().map_or(0, ArrayRead::len)
    }
}

impl<'a, D: ArrayReading> Iterator for ChunksMut<'a, D> {
    type Item = D::Mut<'a>;
    #[inline]
    fn next(&mut self) -> Option<D::Mut<'a>> {
        let view = self.view.take()?;
        if view.is_empty() {
            return None;
        }
        let n = self.size.min(view.len());
        let (chunk, rest) = view.into_split_at_mut(n);
        self.view = Some(rest);
        Some(chunk)
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.remaining().div_ceil(self.size);
        (n, Some(n))
    }
}

impl<D: ArrayReading> DoubleEndedIterator for ChunksMut<'_, D> {
    #[inline]
    fn next_back(&mut self) -> Option<Self::Item> {
        let view = self.view.take()?;
        let len = view.len();
        if len == 0 {
            return None;
        }
        let n = match len % self.size {
            0 => self.size,
            r => r,
        };
        let (rest, chunk) = view.into_split_at_mut(len - n);
        self.view = Some(rest);
        Some(chunk)
    }
}

impl<D: ArrayReading> ExactSizeIterator for ChunksMut<'_, D> {}
impl<D: ArrayReading> FusedIterator for ChunksMut<'_, D> {}

impl<D: ArrayReading> fmt::Debug for ChunksMut<'_, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ChunksMut")
            .field("view", &self.view)
            .field("size", &self.size)
            .finish()
    }
}
