//! `NDualArray<S, N>`: the forward value of an array at width N, and its views.
//!
//! # Layout
//!
//! The primal is a genuine `Vec<S>` (usable as `&[S]`, in FFI, in BLAS). The partials
//! are one element-major block of `N * len` values: **partial `k` of element `i` is at
//! offset `i * N + k`**. Element `i`'s N partials are contiguous (gathering an element
//! touches one short run); lane `k` is the stride-N view starting at `k`; a contiguous
//! range of elements is a contiguous range of the block, so sub-slices are views.

use crate::array::{ArrayOwned, ArrayRead, ArrayWrite};
use crate::{NDual, Real};

/// An owned array of `NDual<S, N>` in the element-major layout (see the module docs).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NDualArray<S, const N: usize> {
    primal: Vec<S>,
    partials: Vec<S>,
}

/// A shared view of an [`NDualArray`] (or of part of one): the forward value of `&[S]`.
#[derive(Clone, Copy, Debug)]
pub struct NDualRef<'a, S, const N: usize> {
    primal: &'a [S],
    partials: &'a [S],
}

/// A mutable view of an [`NDualArray`]: the forward value of `&mut [S]`.
#[derive(Debug)]
pub struct NDualMut<'a, S, const N: usize> {
    primal: &'a mut [S],
    partials: &'a mut [S],
}

impl<S: Real, const N: usize> NDualArray<S, N> {
    /// An array from its primal and its element-major partials block.
    /// Returns `None` when `partials.len() != N * primal.len()`.
    pub fn from_parts(primal: Vec<S>, partials: Vec<S>) -> Option<Self> {
        (partials.len() == N * primal.len()).then_some(Self { primal, partials })
    }

    /// The primal with every partial zero.
    pub fn constant(primal: Vec<S>) -> Self {
        let partials = vec![S::zero(); N * primal.len()];
        Self { primal, partials }
    }

    /// The primal values, as a plain slice (no copy).
    #[inline(always)]
    pub fn as_primal_slice(&self) -> &[S] {
        &self.primal
    }

    /// The element-major partials block (`N * len` values).
    #[inline(always)]
    pub fn partials_block(&self) -> &[S] {
        &self.partials
    }

    /// Splits into the primal and the partials block.
    pub fn into_parts(self) -> (Vec<S>, Vec<S>) {
        (self.primal, self.partials)
    }
}

impl<S: Real, const N: usize> ArrayRead<NDual<S, N>> for NDualArray<S, N> {
    #[inline(always)]
    fn len(&self) -> usize {
        self.primal.len()
    }
    #[inline(always)]
    #[track_caller]
    fn get(&self, i: usize) -> NDual<S, N> {
        gather(&self.primal, &self.partials, i)
    }
}

impl<S: Real, const N: usize> ArrayWrite<NDual<S, N>> for NDualArray<S, N> {
    #[inline(always)]
    #[track_caller]
    fn set(&mut self, i: usize, value: NDual<S, N>) {
        scatter(&mut self.primal, &mut self.partials, i, value);
    }
}

impl<S: Real, const N: usize> ArrayRead<NDual<S, N>> for NDualRef<'_, S, N> {
    #[inline(always)]
    fn len(&self) -> usize {
        self.primal.len()
    }
    #[inline(always)]
    #[track_caller]
    fn get(&self, i: usize) -> NDual<S, N> {
        gather(self.primal, self.partials, i)
    }
}

impl<S: Real, const N: usize> ArrayRead<NDual<S, N>> for NDualMut<'_, S, N> {
    #[inline(always)]
    fn len(&self) -> usize {
        self.primal.len()
    }
    #[inline(always)]
    #[track_caller]
    fn get(&self, i: usize) -> NDual<S, N> {
        gather(self.primal, self.partials, i)
    }
}

impl<S: Real, const N: usize> ArrayWrite<NDual<S, N>> for NDualMut<'_, S, N> {
    #[inline(always)]
    #[track_caller]
    fn set(&mut self, i: usize, value: NDual<S, N>) {
        scatter(self.primal, self.partials, i, value);
    }
}

impl<S: Real, const N: usize> FromIterator<NDual<S, N>> for NDualArray<S, N> {
    fn from_iter<I: IntoIterator<Item = NDual<S, N>>>(iter: I) -> Self {
        let mut out = Self::default();
        for v in iter {
            out.push(v);
        }
        out
    }
}

impl<S: Real, const N: usize> ArrayOwned<NDual<S, N>> for NDualArray<S, N> {
    fn from_elem(value: NDual<S, N>, len: usize) -> Self {
        let mut partials = Vec::with_capacity(N * len);
        for _ in 0..len {
            partials.extend_from_slice(value.partials());
        }
        Self {
            primal: vec![value.value(); len],
            partials,
        }
    }
    fn with_capacity(capacity: usize) -> Self {
        Self {
            primal: Vec::with_capacity(capacity),
            partials: Vec::with_capacity(N * capacity),
        }
    }
    #[inline]
    fn push(&mut self, value: NDual<S, N>) {
        self.primal.push(value.value());
        self.partials.extend_from_slice(value.partials());
    }
    #[inline(always)]
    fn view(&self) -> NDualRef<'_, S, N> {
        NDualRef {
            primal: &self.primal,
            partials: &self.partials,
        }
    }
    #[inline(always)]
    fn view_mut(&mut self) -> NDualMut<'_, S, N> {
        NDualMut {
            primal: &mut self.primal,
            partials: &mut self.partials,
        }
    }
}

#[inline(always)]
#[track_caller]
fn gather<S: Real, const N: usize>(primal: &[S], partials: &[S], i: usize) -> NDual<S, N> {
    let value = primal[i];
    let block = &partials[i * N..i * N + N];
    NDual::new(value, core::array::from_fn(|k| block[k]))
}

#[inline(always)]
#[track_caller]
fn scatter<S: Real, const N: usize>(
    primal: &mut [S],
    partials: &mut [S],
    i: usize,
    value: NDual<S, N>,
) {
    primal[i] = value.value();
    partials[i * N..i * N + N].copy_from_slice(value.partials());
}
