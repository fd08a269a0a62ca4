//! Iterators over arrays of a reading.
//!
//! [`Iter`], [`IterMut`] (with its element guard [`ElemMut`]) and [`IntoIter`] walk an
//! element-major array, gathering (and scattering back) one element at a time. The
//! sub-view iterators every reading shares (`Windows`, `Chunks`, `ChunksMut`) are part
//! of the array trait family (`traits.rs`).

use core::fmt;
use core::iter::{FusedIterator, Zip};
use core::ops::{Deref, DerefMut};
use core::slice;

use crate::NDual;
use crate::array::ArrayReading;

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

impl<S: ArrayReading, const N: usize> Iterator for Iter<'_, S, N> {
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

impl<S: ArrayReading, const N: usize> DoubleEndedIterator for Iter<'_, S, N> {
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

impl<S: ArrayReading, const N: usize> ExactSizeIterator for Iter<'_, S, N> {
    #[inline]
    fn len(&self) -> usize {
        // One of the two is empty.
        self.elems.len() + self.primal.len()
    }
}
impl<S: ArrayReading, const N: usize> FusedIterator for Iter<'_, S, N> {}

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
pub struct ElemMut<'a, S: ArrayReading, const N: usize> {
    value: NDual<S, N>,
    primal: &'a mut S,
    partials: &'a mut [S; N],
}

impl<'a, S: ArrayReading, const N: usize> ElemMut<'a, S, N> {
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

impl<S: ArrayReading, const N: usize> Deref for ElemMut<'_, S, N> {
    type Target = NDual<S, N>;
    #[inline]
    fn deref(&self) -> &NDual<S, N> {
        &self.value
    }
}

impl<S: ArrayReading, const N: usize> DerefMut for ElemMut<'_, S, N> {
    #[inline]
    fn deref_mut(&mut self) -> &mut NDual<S, N> {
        &mut self.value
    }
}

impl<S: ArrayReading, const N: usize> Drop for ElemMut<'_, S, N> {
    #[inline]
    fn drop(&mut self) {
        *self.primal = self.value.value();
        *self.partials = *self.value.partials();
    }
}

impl<S: ArrayReading, const N: usize> fmt::Debug for ElemMut<'_, S, N> {
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

impl<'a, S: ArrayReading, const N: usize> Iterator for IterMut<'a, S, N> {
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

impl<S: ArrayReading, const N: usize> DoubleEndedIterator for IterMut<'_, S, N> {
    #[inline]
    fn next_back(&mut self) -> Option<Self::Item> {
        let primal = self.primal.next_back()?;
        let (rest, last) = core::mem::take(&mut self.partials).split_last_chunk_mut::<N>()?;
        self.partials = rest;
        Some(ElemMut::new(primal, last))
    }
}

impl<S: ArrayReading, const N: usize> ExactSizeIterator for IterMut<'_, S, N> {}
impl<S: ArrayReading, const N: usize> FusedIterator for IterMut<'_, S, N> {}

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

impl<S: ArrayReading, const N: usize> IntoIter<S, N> {
    #[inline]
    fn at(&self, i: usize) -> NDual<S, N> {
        let block = &self.partials[i * N..i * N + N];
        NDual::new(self.primal[i], core::array::from_fn(|k| block[k]))
    }
}

impl<S: ArrayReading, const N: usize> Iterator for IntoIter<S, N> {
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

impl<S: ArrayReading, const N: usize> DoubleEndedIterator for IntoIter<S, N> {
    #[inline]
    fn next_back(&mut self) -> Option<NDual<S, N>> {
        (self.front < self.back).then(|| {
            self.back -= 1;
            self.at(self.back)
        })
    }
}

impl<S: ArrayReading, const N: usize> ExactSizeIterator for IntoIter<S, N> {}
impl<S: ArrayReading, const N: usize> FusedIterator for IntoIter<S, N> {}
