//! Iterators over arrays of a reading.
//!
//! [`Iter`], [`IterMut`] (with its element guard [`ElemMut`]) and [`IntoIter`] walk an
//! element-major array, gathering (and scattering back) one element at a time.
//! [`Windows`], [`Chunks`] and [`ChunksMut`] are written once for every reading, over its
//! view types `D::Ref` / `D::Mut`.

use core::fmt;
use core::iter::{FusedIterator, Zip};
use core::ops::{Deref, DerefMut};
use core::slice;

use crate::array::{ArrayMut, ArrayRead, ArrayRef};
use crate::{NDual, Real};

/// The elements of an element-major array by value (gathered), in order.
#[derive(Clone, Debug)]
pub struct Iter<'a, S, const N: usize> {
    /// The primal zipped with its blocks of N partials (`N > 0`): std's zip of two
    /// slices checks one index per element, where walking the primal and the partials
    /// block separately checks both.
    elems: Zip<slice::Iter<'a, S>, slice::Iter<'a, [S; N]>>,
    /// The primal alone when `N = 0` (there are no blocks to zip with); empty otherwise.
    primal: slice::Iter<'a, S>,
}

impl<'a, S, const N: usize> Iter<'a, S, N> {
    /// Over a primal slice and its partials block (`N * primal.len()` values).
    #[inline]
    pub(crate) fn new(primal: &'a [S], partials: &'a [S]) -> Self {
        if N == 0 {
            Self {
                elems: [].iter().zip([].iter()),
                primal: primal.iter(),
            }
        } else {
            Self {
                elems: primal.iter().zip(partials.as_chunks::<N>().0),
                primal: [].iter(),
            }
        }
    }
}

impl<S: Real, const N: usize> Iterator for Iter<'_, S, N> {
    type Item = NDual<S, N>;
    #[inline]
    fn next(&mut self) -> Option<NDual<S, N>> {
        if N == 0 {
            let &value = self.primal.next()?;
            return Some(NDual::new(value, [S::zero(); N]));
        }
        let (&value, block) = self.elems.next()?;
        Some(NDual::new(value, *block))
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let len = self.len();
        (len, Some(len))
    }
    #[inline]
    fn nth(&mut self, n: usize) -> Option<NDual<S, N>> {
        if N == 0 {
            let &value = self.primal.nth(n)?;
            return Some(NDual::new(value, [S::zero(); N]));
        }
        let (&value, block) = self.elems.nth(n)?;
        Some(NDual::new(value, *block))
    }
    #[inline]
    fn count(self) -> usize {
        self.len()
    }
}

impl<S: Real, const N: usize> DoubleEndedIterator for Iter<'_, S, N> {
    #[inline]
    fn next_back(&mut self) -> Option<NDual<S, N>> {
        if N == 0 {
            let &value = self.primal.next_back()?;
            return Some(NDual::new(value, [S::zero(); N]));
        }
        let (&value, block) = self.elems.next_back()?;
        Some(NDual::new(value, *block))
    }
}

impl<S: Real, const N: usize> ExactSizeIterator for Iter<'_, S, N> {
    #[inline]
    fn len(&self) -> usize {
        // One of the two is empty.
        self.elems.len() + self.primal.len()
    }
}
impl<S: Real, const N: usize> FusedIterator for Iter<'_, S, N> {}

/// A mutable handle on one element of an element-major array: the element, gathered,
/// behind `Deref`/`DerefMut`; when the handle is dropped, its value is scattered back
/// (primal and all N partials).
///
/// This is what `*v = …` and `*v += …` through
/// [`iter_mut`](crate::NDualArray::iter_mut) or
/// [`elem_mut`](crate::NDualArray::elem_mut) act on. The write-back happens on drop: a
/// handle leaked with `mem::forget` writes nothing.
///
/// ```
/// use lifted::{NDual, NDualArray};
/// let mut a = NDualArray::<f64, 2>::seeded(vec![1.0, 2.0], 0);
/// for mut v in a.iter_mut() {
///     *v = *v * *v;
/// }
/// assert_eq!(a.get(1), NDual::new(4.0, [0.0, 4.0]));
/// ```
pub struct ElemMut<'a, S: Real, const N: usize> {
    value: NDual<S, N>,
    primal: &'a mut S,
    partials: &'a mut [S; N],
}

impl<'a, S: Real, const N: usize> ElemMut<'a, S, N> {
    /// Gathers the element stored in `primal` and `partials`.
    #[inline]
    pub(crate) fn new(primal: &'a mut S, partials: &'a mut [S; N]) -> Self {
        Self {
            value: NDual::new(*primal, *partials),
            primal,
            partials,
        }
    }
}

impl<S: Real, const N: usize> Deref for ElemMut<'_, S, N> {
    type Target = NDual<S, N>;
    #[inline]
    fn deref(&self) -> &NDual<S, N> {
        &self.value
    }
}

impl<S: Real, const N: usize> DerefMut for ElemMut<'_, S, N> {
    #[inline]
    fn deref_mut(&mut self) -> &mut NDual<S, N> {
        &mut self.value
    }
}

impl<S: Real, const N: usize> Drop for ElemMut<'_, S, N> {
    #[inline]
    fn drop(&mut self) {
        *self.primal = self.value.value();
        *self.partials = *self.value.partials();
    }
}

impl<S: Real, const N: usize> fmt::Debug for ElemMut<'_, S, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("ElemMut").field(&self.value).finish()
    }
}

/// Mutable handles ([`ElemMut`]) on the elements of an element-major array, in order.
#[derive(Debug)]
pub struct IterMut<'a, S, const N: usize> {
    primal: slice::IterMut<'a, S>,
    partials: &'a mut [S],
}

impl<'a, S, const N: usize> IterMut<'a, S, N> {
    /// Over a primal slice and its partials block (`N * primal.len()` values).
    #[inline]
    pub(crate) fn new(primal: &'a mut [S], partials: &'a mut [S]) -> Self {
        Self {
            primal: primal.iter_mut(),
            partials,
        }
    }
}

impl<'a, S: Real, const N: usize> Iterator for IterMut<'a, S, N> {
    type Item = ElemMut<'a, S, N>;
    #[inline]
    fn next(&mut self) -> Option<ElemMut<'a, S, N>> {
        let primal = self.primal.next()?;
        let (head, tail) = core::mem::take(&mut self.partials).split_first_chunk_mut::<N>()?;
        self.partials = tail;
        Some(ElemMut::new(primal, head))
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.primal.size_hint()
    }
}

impl<S: Real, const N: usize> DoubleEndedIterator for IterMut<'_, S, N> {
    #[inline]
    fn next_back(&mut self) -> Option<Self::Item> {
        let primal = self.primal.next_back()?;
        let (rest, last) = core::mem::take(&mut self.partials).split_last_chunk_mut::<N>()?;
        self.partials = rest;
        Some(ElemMut::new(primal, last))
    }
}

impl<S: Real, const N: usize> ExactSizeIterator for IterMut<'_, S, N> {}
impl<S: Real, const N: usize> FusedIterator for IterMut<'_, S, N> {}

/// The elements of an owned element-major array, by value, consuming it.
#[derive(Clone, Debug)]
pub struct IntoIter<S, const N: usize> {
    primal: Vec<S>,
    partials: Vec<S>,
    front: usize,
    back: usize,
}

impl<S, const N: usize> IntoIter<S, N> {
    /// Over a primal and its partials block (`N * primal.len()` values).
    #[inline]
    pub(crate) fn new(primal: Vec<S>, partials: Vec<S>) -> Self {
        let back = primal.len();
        Self {
            primal,
            partials,
            front: 0,
            back,
        }
    }
}

impl<S: Real, const N: usize> IntoIter<S, N> {
    #[inline]
    fn at(&self, i: usize) -> NDual<S, N> {
        let block = &self.partials[i * N..i * N + N];
        NDual::new(self.primal[i], core::array::from_fn(|k| block[k]))
    }
}

impl<S: Real, const N: usize> Iterator for IntoIter<S, N> {
    type Item = NDual<S, N>;
    #[inline]
    fn next(&mut self) -> Option<NDual<S, N>> {
        (self.front < self.back).then(|| {
            self.front += 1;
            self.at(self.front - 1)
        })
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.back - self.front;
        (n, Some(n))
    }
}

impl<S: Real, const N: usize> DoubleEndedIterator for IntoIter<S, N> {
    #[inline]
    fn next_back(&mut self) -> Option<NDual<S, N>> {
        (self.front < self.back).then(|| {
            self.back -= 1;
            self.at(self.back)
        })
    }
}

impl<S: Real, const N: usize> ExactSizeIterator for IntoIter<S, N> {}
impl<S: Real, const N: usize> FusedIterator for IntoIter<S, N> {}

/// Every contiguous window of `size` elements of an array of reading `D`, as shared
/// views (`D::Ref<'a>`: `&'a [f64]`, [`NDualRef`](crate::NDualRef)), in order. Made by
/// [`ArrayView::windows`](crate::array::ArrayView::windows).
pub struct Windows<'a, D: Real> {
    view: D::Ref<'a>,
    size: usize,
}

impl<'a, D: Real> Windows<'a, D> {
    /// The windows of `view`. Panics when `size` is zero.
    #[track_caller]
    pub fn new(view: D::Ref<'a>, size: usize) -> Self {
        assert!(size != 0, "window size must be non-zero");
        Self { view, size }
    }
}

impl<'a, D: Real> Iterator for Windows<'a, D> {
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

impl<D: Real> DoubleEndedIterator for Windows<'_, D> {
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

impl<D: Real> ExactSizeIterator for Windows<'_, D> {}
impl<D: Real> FusedIterator for Windows<'_, D> {}

impl<D: Real> Clone for Windows<'_, D> {
    fn clone(&self) -> Self {
        Self {
            view: self.view,
            size: self.size,
        }
    }
}

impl<D: Real> fmt::Debug for Windows<'_, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Windows")
            .field("view", &self.view)
            .field("size", &self.size)
            .finish()
    }
}

/// Consecutive shared views of `size` elements of an array of reading `D`, the last one
/// possibly shorter. Made by [`ArrayView::chunks`](crate::array::ArrayView::chunks).
pub struct Chunks<'a, D: Real> {
    view: D::Ref<'a>,
    size: usize,
}

impl<'a, D: Real> Chunks<'a, D> {
    /// The chunks of `view`. Panics when `size` is zero.
    #[track_caller]
    pub fn new(view: D::Ref<'a>, size: usize) -> Self {
        assert!(size != 0, "chunk size must be non-zero");
        Self { view, size }
    }
}

impl<'a, D: Real> Iterator for Chunks<'a, D> {
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

impl<D: Real> DoubleEndedIterator for Chunks<'_, D> {
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

impl<D: Real> ExactSizeIterator for Chunks<'_, D> {}
impl<D: Real> FusedIterator for Chunks<'_, D> {}

impl<D: Real> Clone for Chunks<'_, D> {
    fn clone(&self) -> Self {
        Self {
            view: self.view,
            size: self.size,
        }
    }
}

impl<D: Real> fmt::Debug for Chunks<'_, D> {
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
pub struct ChunksMut<'a, D: Real> {
    view: Option<D::Mut<'a>>,
    size: usize,
}

impl<'a, D: Real> ChunksMut<'a, D> {
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

impl<'a, D: Real> Iterator for ChunksMut<'a, D> {
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

impl<D: Real> DoubleEndedIterator for ChunksMut<'_, D> {
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

impl<D: Real> ExactSizeIterator for ChunksMut<'_, D> {}
impl<D: Real> FusedIterator for ChunksMut<'_, D> {}

impl<D: Real> fmt::Debug for ChunksMut<'_, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ChunksMut")
            .field("view", &self.view)
            .field("size", &self.size)
            .finish()
    }
}
