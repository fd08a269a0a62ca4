//! The private layout behind [`NDualArray`], [`NDualRef`] and [`NDualMut`], and the error
//! a primal buffer and a partials block that do not make one are rejected with.
//!
//! The layout contract is stated once, on [`NDualArray`]. The three public types are the
//! owned/shared/mutable triple over the one struct here (faer's `Mat`/`MatRef`/`MatMut`
//! pattern): every operation is written once on `Layout`, on its shared or its mutable
//! form, and the public types delegate.
//!
//! [`NDualArray`]: crate::NDualArray
//! [`NDualRef`]: crate::NDualRef
//! [`NDualMut`]: crate::NDualMut

use core::fmt;
use core::ops::{Bound, Range, RangeBounds};

use crate::NDual;
use crate::array::ArrayReading;
use crate::array::iter::{ElemMut, Iter, IterMut};
use crate::array::lane::{LaneMut, LaneRef};

/// Why a primal buffer and a partials block do not make an element-major array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LayoutError {
    /// The partials block does not hold `width * len` values.
    Block {
        /// Number of elements (length of the primal).
        len: usize,
        /// The width N.
        width: usize,
        /// Length of the partials block given.
        found: usize,
    },
    /// A lane does not hold one value per element.
    Lane {
        /// Which lane.
        lane: usize,
        /// Number of elements (length of the primal).
        len: usize,
        /// Length of the lane given.
        found: usize,
    },
}

impl fmt::Display for LayoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::Block { len, width, found } => write!(
                f,
                "partials block of {found} values for {len} elements at width {width} \
                 (expected {width} × {len} = {})",
                width.saturating_mul(len)
            ),
            Self::Lane { lane, len, found } => write!(
                f,
                "lane {lane} has {found} values for {len} elements (expected one per element)"
            ),
        }
    }
}

impl std::error::Error for LayoutError {}

/// Checks the layout invariant `partials_len == N * len`.
pub(super) fn check<const N: usize>(len: usize, partials_len: usize) -> Result<(), LayoutError> {
    if len.checked_mul(N) == Some(partials_len) {
        Ok(())
    } else {
        Err(LayoutError::Block {
            len,
            width: N,
            found: partials_len,
        })
    }
}

/// A range of elements, resolved against `len` (std's slicing panics, in its words).
#[track_caller]
fn resolve(range: impl RangeBounds<usize>, len: usize) -> Range<usize> {
    let start = match range.start_bound() {
        Bound::Included(&s) => s,
        Bound::Excluded(&s) => s
            .checked_add(1)
            .unwrap_or_else(|| panic!("attempted to index slice from after maximum usize")),
        Bound::Unbounded => 0,
    };
    let end = match range.end_bound() {
        Bound::Included(&e) => e
            .checked_add(1)
            .unwrap_or_else(|| panic!("attempted to index slice up to maximum usize")),
        Bound::Excluded(&e) => e,
        Bound::Unbounded => len,
    };
    assert!(
        start <= end,
        "slice index starts at {start} but ends at {end}"
    );
    assert!(
        end <= len,
        "range end index {end} out of range for slice of length {len}"
    );
    start..end
}

/// The primal and the N-blocks of the partials (`N > 0`), both cut to the shorter length.
///
/// The layout invariant makes the two lengths equal, so the cut changes nothing; it
/// lets the optimiser see that one bounds check of an index against the primal's
/// length covers the block too, where indexing the partials at `i * N` would pay
/// two more checks on every element access. An out-of-bounds index still panics with
/// the usual message and the primal's length.
#[inline(always)]
fn paired<'s, S, const N: usize>(primal: &'s [S], blocks: &'s [[S; N]]) -> (&'s [S], &'s [[S; N]]) {
    let len = primal.len().min(blocks.len());
    (&primal[..len], &blocks[..len])
}

/// [`paired`] for mutable buffers.
#[inline(always)]
fn paired_mut<'s, S, const N: usize>(
    primal: &'s mut [S],
    blocks: &'s mut [[S; N]],
) -> (&'s mut [S], &'s mut [[S; N]]) {
    let len = primal.len().min(blocks.len());
    (&mut primal[..len], &mut blocks[..len])
}

/// The one layout behind the three array types: a primal buffer `P` and a partials block
/// `P` (`Vec<S>`, `&[S]` or `&mut [S]`), with the invariant
/// `partials.len() == N * primal.len()` (see [`NDualArray`] for the contract).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Layout<P, const N: usize> {
    pub(super) primal: P,
    pub(super) partials: P,
}

impl<'a, S: ArrayReading, const N: usize> Layout<&'a [S], N> {
    /// Itself (a shared layout is `Copy`), so the reading methods the three public types
    /// share call `rb()` on whichever layout they hold.
    #[inline(always)]
    pub(super) fn rb(&self) -> Self {
        *self
    }

    #[inline(always)]
    pub(super) fn len(self) -> usize {
        // The length `get` checks against (see `paired`): equal to the primal's, and
        // stated so that a loop bounded by `len()` lets the optimiser drop or hoist
        // the checks of `get` as it does for a slice.
        let len = self.primal.len();
        // Width 0 has no blocks: the primal's length alone.
        self.partials
            .len()
            .checked_div(N)
            .map_or(len, |blocks| len.min(blocks))
    }

    #[inline(always)]
    #[track_caller]
    pub(super) fn get(self, i: usize) -> NDual<S, N> {
        if N == 0 {
            return NDual::new(self.primal[i], [S::zero(); N]);
        }
        let (primal, blocks) = paired(self.primal, self.partials.as_chunks::<N>().0);
        NDual::new(primal[i], blocks[i])
    }

    #[inline]
    #[track_caller]
    pub(super) fn slice(self, range: impl RangeBounds<usize>) -> Self {
        let r = resolve(range, self.len());
        Self {
            primal: &self.primal[r.clone()],
            partials: &self.partials[r.start * N..r.end * N],
        }
    }

    #[inline]
    #[track_caller]
    pub(super) fn split_at(self, mid: usize) -> (Self, Self) {
        let (pa, pb) = self.primal.split_at(mid);
        let (ba, bb) = self.partials.split_at(mid * N);
        (
            Self {
                primal: pa,
                partials: ba,
            },
            Self {
                primal: pb,
                partials: bb,
            },
        )
    }

    #[inline]
    #[track_caller]
    pub(super) fn lane(self, lane: usize) -> LaneRef<'a, S, N> {
        LaneRef::new(self.partials, lane)
    }

    #[inline]
    pub(super) fn iter(self) -> Iter<'a, S, N> {
        Iter::new(self.primal, self.partials)
    }

    pub(super) fn to_vecs(self) -> Layout<Vec<S>, N> {
        Layout {
            primal: self.primal.to_vec(),
            partials: self.partials.to_vec(),
        }
    }
}

impl<'a, S: ArrayReading, const N: usize> Layout<&'a mut [S], N> {
    #[inline(always)]
    pub(super) fn rb(&self) -> Layout<&[S], N> {
        Layout {
            primal: self.primal,
            partials: self.partials,
        }
    }

    #[inline(always)]
    pub(super) fn rb_mut(&mut self) -> Layout<&mut [S], N> {
        Layout {
            primal: self.primal,
            partials: self.partials,
        }
    }

    #[inline(always)]
    pub(super) fn into_ref(self) -> Layout<&'a [S], N> {
        Layout {
            primal: self.primal,
            partials: self.partials,
        }
    }

    #[inline(always)]
    #[track_caller]
    pub(super) fn set(&mut self, i: usize, value: NDual<S, N>) {
        if N == 0 {
            self.primal[i] = value.value();
            return;
        }
        let (primal, blocks) = paired_mut(self.primal, self.partials.as_chunks_mut::<N>().0);
        primal[i] = value.value();
        blocks[i] = *value.partials();
    }

    #[inline]
    #[track_caller]
    pub(super) fn swap(&mut self, i: usize, j: usize) {
        self.primal.swap(i, j);
        if i != j {
            for k in 0..N {
                self.partials.swap(i * N + k, j * N + k);
            }
        }
    }

    #[inline]
    #[track_caller]
    pub(super) fn into_slice(self, range: impl RangeBounds<usize>) -> Self {
        let r = resolve(range, self.primal.len());
        Self {
            primal: &mut self.primal[r.clone()],
            partials: &mut self.partials[r.start * N..r.end * N],
        }
    }

    #[inline]
    #[track_caller]
    pub(super) fn into_split_at(self, mid: usize) -> (Self, Self) {
        let (pa, pb) = self.primal.split_at_mut(mid);
        let (ba, bb) = self.partials.split_at_mut(mid * N);
        (
            Self {
                primal: pa,
                partials: ba,
            },
            Self {
                primal: pb,
                partials: bb,
            },
        )
    }

    #[inline]
    #[track_caller]
    pub(super) fn into_lane(self, lane: usize) -> LaneMut<'a, S, N> {
        LaneMut::new(self.partials, lane)
    }

    #[inline]
    #[track_caller]
    pub(super) fn into_elem(self, i: usize) -> ElemMut<'a, S, N> {
        if N == 0 {
            let Some(block) = self.partials.first_chunk_mut::<N>() else {
                unreachable!("every slice starts with an empty chunk")
            };
            return ElemMut::new(&mut self.primal[i], block);
        }
        let (primal, blocks) = paired_mut(self.primal, self.partials.as_chunks_mut::<N>().0);
        ElemMut::new(&mut primal[i], &mut blocks[i])
    }

    #[inline]
    pub(super) fn into_elems(self) -> IterMut<'a, S, N> {
        IterMut::new(self.primal, self.partials)
    }

    #[track_caller]
    pub(super) fn copy_from(&mut self, src: Layout<&[S], N>) {
        assert_eq!(
            self.primal.len(),
            src.primal.len(),
            "source slice length ({}) does not match destination slice length ({})",
            src.primal.len(),
            self.primal.len()
        );
        self.primal.copy_from_slice(src.primal);
        self.partials.copy_from_slice(src.partials);
    }

    pub(super) fn fill(&mut self, value: NDual<S, N>) {
        self.primal.fill(value.value());
        for block in self.partials.chunks_exact_mut(N.max(1)) {
            block.copy_from_slice(value.partials());
        }
    }

    pub(super) fn for_each(&mut self, mut f: impl FnMut(&mut NDual<S, N>)) {
        for mut elem in self.rb_mut().into_elems() {
            f(&mut elem);
        }
    }
}

impl<S: ArrayReading, const N: usize> Layout<Vec<S>, N> {
    #[inline(always)]
    pub(super) fn rb(&self) -> Layout<&[S], N> {
        Layout {
            primal: &self.primal,
            partials: &self.partials,
        }
    }

    #[inline(always)]
    pub(super) fn rb_mut(&mut self) -> Layout<&mut [S], N> {
        Layout {
            primal: &mut self.primal,
            partials: &mut self.partials,
        }
    }

    pub(super) fn with_capacity(capacity: usize) -> Self {
        let mut out = Self {
            primal: Vec::with_capacity(capacity),
            partials: Vec::with_capacity(N.saturating_mul(capacity)),
        };
        super::pages::advise(&mut out.partials);
        out
    }

    #[inline]
    pub(super) fn push(&mut self, value: NDual<S, N>) {
        self.primal.push(value.value());
        self.partials.extend_from_slice(value.partials());
    }

    #[inline]
    pub(super) fn pop(&mut self) -> Option<NDual<S, N>> {
        let value = self.primal.pop()?;
        let at = self.partials.len() - N;
        let Some(block) = self.partials[at..].first_chunk::<N>() else {
            unreachable!("element-major layout: partials block shorter than N * len")
        };
        let out = NDual::new(value, *block);
        self.partials.truncate(at);
        Some(out)
    }

    /// Appends `f(x)` for every `x` of `src`, after one resize of each vector.
    #[inline]
    pub(super) fn extend_map<T: Copy>(&mut self, src: &[T], mut f: impl FnMut(T) -> NDual<S, N>) {
        let start = self.primal.len();
        self.primal.resize(start + src.len(), S::zero());
        self.partials.resize(N * (start + src.len()), S::zero());
        if N == 0 {
            for (p, &x) in self.primal[start..].iter_mut().zip(src) {
                *p = f(x).value();
            }
            return;
        }
        // Written in place: `push` checks the capacity of both vectors per element.
        let blocks = &mut self.partials.as_chunks_mut::<N>().0[start..];
        for ((p, block), &x) in self.primal[start..].iter_mut().zip(blocks).zip(src) {
            let v = f(x);
            *p = v.value();
            *block = *v.partials();
        }
    }

    pub(super) fn extend_from(&mut self, src: Layout<&[S], N>) {
        self.primal.extend_from_slice(src.primal);
        self.partials.extend_from_slice(src.partials);
    }

    /// `len` copies of `value`. A constant's partials are one value repeated, which
    /// `vec!` fills at once (a `calloc` for zeros: fresh pages, no writes).
    pub(super) fn from_elem(value: NDual<S, N>, len: usize) -> Self {
        let partials = value.partials();
        match partials.first() {
            Some(&p) if partials.iter().all(|&q| q == p) => {
                let mut out = Self {
                    primal: vec![value.value(); len],
                    partials: vec![p; N.saturating_mul(len)],
                };
                super::pages::advise(&mut out.partials);
                out
            }
            _ => {
                let mut out = Self::with_capacity(len);
                out.resize(len, value);
                out
            }
        }
    }

    pub(super) fn resize(&mut self, len: usize, value: NDual<S, N>) {
        let old = self.primal.len();
        if len <= old {
            self.truncate(len);
        } else {
            self.reserve(len - old);
            self.primal.resize(len, value.value());
            for _ in old..len {
                self.partials.extend_from_slice(value.partials());
            }
        }
    }

    pub(super) fn truncate(&mut self, len: usize) {
        if len < self.primal.len() {
            self.primal.truncate(len);
            self.partials.truncate(len * N);
        }
    }

    pub(super) fn clear(&mut self) {
        self.primal.clear();
        self.partials.clear();
    }

    #[track_caller]
    pub(super) fn insert(&mut self, i: usize, value: NDual<S, N>) {
        self.primal.insert(i, value.value());
        self.partials
            .splice(i * N..i * N, value.partials().iter().copied());
    }

    #[track_caller]
    pub(super) fn remove(&mut self, i: usize) -> NDual<S, N> {
        let out = self.rb().get(i);
        self.primal.remove(i);
        self.partials.drain(i * N..i * N + N);
        out
    }

    pub(super) fn reserve(&mut self, additional: usize) {
        self.primal.reserve(additional);
        self.partials.reserve(N.saturating_mul(additional));
    }
}
