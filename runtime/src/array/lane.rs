//! Lane views: one tangent direction of every element of an element-major array, a
//! stride-N sequence of the partials block.

use core::iter::{Copied, StepBy};
use core::slice;

use crate::array::{ArrayRead, ArrayWrite};

/// The iterator over a lane's values: every N-th value of the block.
pub type LaneIter<'a, S> = Copied<StepBy<slice::Iter<'a, S>>>;

/// The iterator over mutable references to a lane's values.
pub type LaneIterMut<'a, S> = StepBy<slice::IterMut<'a, S>>;

/// Lane `k` of an element-major array (tangent direction `k` of every element): the
/// values at offsets `k, k + N, k + 2N, …` of the partials block, one per element.
///
/// Obtained from [`NDualArray::lane`](crate::NDualArray::lane) and the views'
/// `lane`; the forward value's [`tangent_lane`](crate::tangent_lane).
#[derive(Clone, Copy, Debug)]
pub struct LaneRef<'a, S, const N: usize> {
    block: &'a [S],
    lane: usize,
}

/// Lane `k` of an element-major array, mutably: writing element `i` of the lane writes
/// partial `k` of element `i` (offset `i * N + k` of the block), nothing else.
#[derive(Debug)]
pub struct LaneMut<'a, S, const N: usize> {
    block: &'a mut [S],
    lane: usize,
}

#[track_caller]
fn check_lane<const N: usize>(lane: usize) {
    assert!(lane < N, "lane {lane} out of range for width {N}");
}

/// The block from the lane's first value on (empty for an empty array).
fn tail<S>(block: &[S], lane: usize) -> &[S] {
    block.get(lane..).unwrap_or(&[])
}

impl<'a, S: Copy, const N: usize> LaneRef<'a, S, N> {
    /// Lane `lane` of a partials `block` (whose length is a multiple of N). Panics when
    /// `lane >= N`.
    #[track_caller]
    pub(crate) fn new(block: &'a [S], lane: usize) -> Self {
        check_lane::<N>(lane);
        Self { block, lane }
    }

    /// Which tangent direction this is.
    #[inline]
    pub fn lane(&self) -> usize {
        self.lane
    }

    /// Number of elements (one value each).
    #[inline]
    pub fn len(&self) -> usize {
        self.block.len() / N
    }

    /// `true` for a lane of an empty array.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.block.is_empty()
    }

    /// The value of element `i` in this lane: offset `i * N + lane` of the block.
    /// Panics when `i >= len`.
    #[inline]
    #[track_caller]
    pub fn get(&self, i: usize) -> S {
        let len = self.len();
        assert!(
            i < len,
            "index {i} out of bounds for a lane of length {len}"
        );
        self.block[i * N + self.lane]
    }

    /// The lane's values in element order.
    #[inline]
    pub fn iter(&self) -> LaneIter<'a, S> {
        tail(self.block, self.lane).iter().step_by(N).copied()
    }

    /// The lane's values, copied into a contiguous `Vec`.
    pub fn to_vec(&self) -> Vec<S> {
        self.iter().collect()
    }
}

impl<'a, S: Copy, const N: usize> LaneMut<'a, S, N> {
    /// Lane `lane` of a partials `block`, mutably. Panics when `lane >= N`.
    #[track_caller]
    pub(crate) fn new(block: &'a mut [S], lane: usize) -> Self {
        check_lane::<N>(lane);
        Self { block, lane }
    }

    /// Which tangent direction this is.
    #[inline]
    pub fn lane(&self) -> usize {
        self.lane
    }

    /// Number of elements (one value each).
    #[inline]
    pub fn len(&self) -> usize {
        self.block.len() / N
    }

    /// `true` for a lane of an empty array.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.block.is_empty()
    }

    /// A shared view of the same lane.
    #[inline]
    pub fn view(&self) -> LaneRef<'_, S, N> {
        LaneRef {
            block: self.block,
            lane: self.lane,
        }
    }

    /// The value of element `i` in this lane. Panics when `i >= len`.
    #[inline]
    #[track_caller]
    pub fn get(&self, i: usize) -> S {
        self.view().get(i)
    }

    /// Sets the value of element `i` in this lane (partial `lane` of element `i`).
    /// Panics when `i >= len`.
    #[inline]
    #[track_caller]
    pub fn set(&mut self, i: usize, value: S) {
        let len = self.len();
        assert!(
            i < len,
            "index {i} out of bounds for a lane of length {len}"
        );
        self.block[i * N + self.lane] = value;
    }

    /// The lane's values in element order.
    #[inline]
    pub fn iter(&self) -> LaneIter<'_, S> {
        self.view().iter()
    }

    /// Mutable references to the lane's values in element order.
    #[inline]
    pub fn iter_mut(&mut self) -> LaneIterMut<'_, S> {
        let lane = self.lane;
        let tail: &mut [S] = match self.block.get_mut(lane..) {
            Some(t) => t,
            None => &mut [],
        };
        tail.iter_mut().step_by(N)
    }

    /// Sets the lane to `value` in every element.
    pub fn fill(&mut self, value: S) {
        for v in self.iter_mut() {
            *v = value;
        }
    }

    /// Copies `src` into the lane (`src[i]` becomes partial `lane` of element `i`).
    /// Panics when the lengths differ.
    #[track_caller]
    pub fn copy_from_slice(&mut self, src: &[S]) {
        let len = self.len();
        assert_eq!(
            src.len(),
            len,
            "source of length {} copied into a lane of length {len}",
            src.len()
        );
        for (v, &s) in self.iter_mut().zip(src) {
            *v = s;
        }
    }

    /// The lane's values, copied into a contiguous `Vec`.
    pub fn to_vec(&self) -> Vec<S> {
        self.iter().collect()
    }
}

impl<S: Copy, const N: usize> ArrayRead<S> for LaneRef<'_, S, N> {
    #[inline]
    fn len(&self) -> usize {
        LaneRef::len(self)
    }
    #[inline]
    #[track_caller]
    fn get(&self, i: usize) -> S {
        LaneRef::get(self, i)
    }
}

impl<S: Copy, const N: usize> ArrayRead<S> for LaneMut<'_, S, N> {
    #[inline]
    fn len(&self) -> usize {
        LaneMut::len(self)
    }
    #[inline]
    #[track_caller]
    fn get(&self, i: usize) -> S {
        LaneMut::get(self, i)
    }
}

impl<S: Copy, const N: usize> ArrayWrite<S> for LaneMut<'_, S, N> {
    #[inline]
    #[track_caller]
    fn set(&mut self, i: usize, value: S) {
        LaneMut::set(self, i, value);
    }
}

impl<'a, S: Copy, const N: usize> IntoIterator for LaneRef<'a, S, N> {
    type Item = S;
    type IntoIter = LaneIter<'a, S>;
    fn into_iter(self) -> LaneIter<'a, S> {
        self.iter()
    }
}

impl<'a, S: Copy, const N: usize> IntoIterator for &LaneRef<'a, S, N> {
    type Item = S;
    type IntoIter = LaneIter<'a, S>;
    fn into_iter(self) -> LaneIter<'a, S> {
        self.iter()
    }
}

impl<S: Copy + PartialEq, const N: usize> PartialEq for LaneRef<'_, S, N> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl<S: Copy + PartialEq, const N: usize> PartialEq<[S]> for LaneRef<'_, S, N> {
    fn eq(&self, other: &[S]) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter().copied())
    }
}
