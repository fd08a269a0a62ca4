//! `as_chunks::<K>()` / `as_chunks_mut::<K>()` on the arrays of a reading: the whole
//! chunks as a slice of `[D; K]`, borrowed where the reading's arrays are slices of `D`
//! (the primal readings, `Taylor`, `DiagJet`, `ZDual`, …) and gathered into a copy where
//! they keep values and partials apart (`NDual`), written back when the mutable copy is
//! dropped.

use core::fmt;
use core::ops::{Deref, DerefMut};

use crate::array::ArrayReading;
use crate::array::access::{ArrayRead, ArrayWrite};

/// The whole chunks of [`ArrayView::as_chunks`](crate::array::ArrayView::as_chunks): it
/// dereferences to `[[D; K]]`, as the primal's `&[[f64; K]]`, so `c.len()`,
/// `c.iter()`, `c[i][j]` and `for &[a, b] in &c` read as they do on a slice.
pub struct ArrayChunks<'a, D, const K: usize>(Store<'a, D, K>);

enum Store<'a, D, const K: usize> {
    Borrowed(&'a [[D; K]]),
    Gathered(Vec<[D; K]>),
}

impl<'a, D: Copy, const K: usize> ArrayChunks<'a, D, K> {
    /// The chunks of an array whose elements are `D`s side by side: no copy.
    #[inline]
    pub fn borrowed(chunks: &'a [[D; K]]) -> Self {
        Self(Store::Borrowed(chunks))
    }

    /// The whole chunks of `view`, gathered element by element. Panics when `K` is 0.
    #[track_caller]
    pub fn gathered(view: &impl ArrayRead<D>) -> Self {
        Self(Store::Gathered(gather(view)))
    }
}

/// The `len / K` whole chunks of `view`, element by element. Panics when `K` is 0.
#[track_caller]
fn gather<D: Copy, const K: usize>(view: &impl ArrayRead<D>) -> Vec<[D; K]> {
    assert!(K != 0, "chunk size must be non-zero");
    (0..view.len() / K)
        .map(|c| core::array::from_fn(|j| view.get(c * K + j)))
        .collect()
}

impl<D, const K: usize> Deref for ArrayChunks<'_, D, K> {
    type Target = [[D; K]];
    #[inline]
    fn deref(&self) -> &[[D; K]] {
        match &self.0 {
            Store::Borrowed(c) => c,
            Store::Gathered(c) => c,
        }
    }
}

impl<'c, D, const K: usize> IntoIterator for &'c ArrayChunks<'_, D, K> {
    type Item = &'c [D; K];
    type IntoIter = core::slice::Iter<'c, [D; K]>;
    #[inline]
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// `for c in x.as_chunks::<K>().0`: the chunks by value.
impl<'a, D: Copy, const K: usize> IntoIterator for ArrayChunks<'a, D, K> {
    type Item = [D; K];
    type IntoIter = IntoChunks<'a, D, K>;
    fn into_iter(self) -> IntoChunks<'a, D, K> {
        IntoChunks(match self.0 {
            Store::Borrowed(c) => IntoStore::Borrowed(c.iter()),
            Store::Gathered(c) => IntoStore::Gathered(c.into_iter()),
        })
    }
}

/// The chunks of an [`ArrayChunks`] by value, in order.
pub struct IntoChunks<'a, D, const K: usize>(IntoStore<'a, D, K>);

enum IntoStore<'a, D, const K: usize> {
    Borrowed(core::slice::Iter<'a, [D; K]>),
    Gathered(std::vec::IntoIter<[D; K]>),
}

impl<D: Copy, const K: usize> Iterator for IntoChunks<'_, D, K> {
    type Item = [D; K];
    #[inline]
    fn next(&mut self) -> Option<[D; K]> {
        match &mut self.0 {
            IntoStore::Borrowed(i) => i.next().copied(),
            IntoStore::Gathered(i) => i.next(),
        }
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        match &self.0 {
            IntoStore::Borrowed(i) => i.size_hint(),
            IntoStore::Gathered(i) => i.size_hint(),
        }
    }
}

impl<D: Copy, const K: usize> ExactSizeIterator for IntoChunks<'_, D, K> {}

impl<D: fmt::Debug, const K: usize> fmt::Debug for ArrayChunks<'_, D, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// The whole chunks of
/// [`ArrayViewMut::as_chunks_mut`](crate::array::ArrayViewMut::as_chunks_mut): it
/// dereferences to `[[D; K]]` mutably. A gathered copy is written back into the array
/// when this is dropped, so writes through it land at the end of its scope.
pub struct ArrayChunksMut<'a, D: ArrayReading, const K: usize>(StoreMut<'a, D, K>);

enum StoreMut<'a, D: ArrayReading, const K: usize> {
    Borrowed(&'a mut [[D; K]]),
    Gathered(D::Mut<'a>, Vec<[D; K]>),
}

impl<'a, D: ArrayReading, const K: usize> ArrayChunksMut<'a, D, K> {
    /// The chunks of an array whose elements are `D`s side by side: no copy.
    #[inline]
    pub fn borrowed(chunks: &'a mut [[D; K]]) -> Self {
        Self(StoreMut::Borrowed(chunks))
    }

    /// The chunks of `head` (a whole number of them), gathered now and scattered back
    /// when this is dropped. Panics when `K` is 0.
    #[track_caller]
    pub fn gathered(head: D::Mut<'a>) -> Self {
        let chunks = gather(&head);
        Self(StoreMut::Gathered(head, chunks))
    }
}

impl<D: ArrayReading, const K: usize> Deref for ArrayChunksMut<'_, D, K> {
    type Target = [[D; K]];
    #[inline]
    fn deref(&self) -> &[[D; K]] {
        match &self.0 {
            StoreMut::Borrowed(c) => c,
            StoreMut::Gathered(_, c) => c,
        }
    }
}

impl<D: ArrayReading, const K: usize> DerefMut for ArrayChunksMut<'_, D, K> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [[D; K]] {
        match &mut self.0 {
            StoreMut::Borrowed(c) => c,
            StoreMut::Gathered(_, c) => c,
        }
    }
}

impl<D: ArrayReading, const K: usize> Drop for ArrayChunksMut<'_, D, K> {
    fn drop(&mut self) {
        if let StoreMut::Gathered(head, chunks) = &mut self.0 {
            for (i, &v) in chunks.as_flattened().iter().enumerate() {
                head.set(i, v);
            }
        }
    }
}

impl<'c, D: ArrayReading, const K: usize> IntoIterator for &'c mut ArrayChunksMut<'_, D, K> {
    type Item = &'c mut [D; K];
    type IntoIter = core::slice::IterMut<'c, [D; K]>;
    #[inline]
    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

impl<'c, D: ArrayReading, const K: usize> IntoIterator for &'c ArrayChunksMut<'_, D, K> {
    type Item = &'c [D; K];
    type IntoIter = core::slice::Iter<'c, [D; K]>;
    #[inline]
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<D: ArrayReading + fmt::Debug, const K: usize> fmt::Debug for ArrayChunksMut<'_, D, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}
