//! `NDualArray<S, N>`: the forward value of an array at width N, and its views.
//!
//! The layout contract is stated once, on [`NDualArray`]. [`NDualArray`], [`NDualRef`]
//! and [`NDualMut`] are the owned/shared/mutable triple over one private layout struct
//! (faer's `Mat`/`MatRef`/`MatMut` pattern): every operation is written once on that
//! struct, on its shared or its mutable form, and the three public types delegate.

use core::fmt;
use core::ops::{Bound, Range, RangeBounds};

use crate::array::iter::{Chunks, ChunksMut, ElemMut, IntoIter, Iter, IterMut, Windows};
use crate::array::lane::{LaneMut, LaneRef};
use crate::array::{
    ArrayMut, ArrayOwned, ArrayRead, ArrayRef, ArrayView, ArrayViewMut, ArrayWrite,
};
use crate::{NDual, Real};

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
fn check<const N: usize>(len: usize, partials_len: usize) -> Result<(), LayoutError> {
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

/// The one layout behind the three array types: a primal buffer `P` and a partials block
/// `P` (`Vec<S>`, `&[S]` or `&mut [S]`), with the invariant
/// `partials.len() == N * primal.len()` (see [`NDualArray`] for the contract).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Layout<P, const N: usize> {
    primal: P,
    partials: P,
}

impl<'a, S: Real, const N: usize> Layout<&'a [S], N> {
    #[inline(always)]
    fn len(self) -> usize {
        self.primal.len()
    }

    #[inline(always)]
    #[track_caller]
    fn get(self, i: usize) -> NDual<S, N> {
        // Index the primal first: an out-of-bounds `i` panics with the usual message,
        // and `i * N` then cannot overflow.
        let value = self.primal[i];
        let Some(block) = self.partials[i * N..].first_chunk::<N>() else {
            unreachable!("element-major layout: partials block shorter than N * len")
        };
        NDual::new(value, *block)
    }

    #[inline]
    #[track_caller]
    fn slice(self, range: impl RangeBounds<usize>) -> Self {
        let r = resolve(range, self.len());
        Self {
            primal: &self.primal[r.clone()],
            partials: &self.partials[r.start * N..r.end * N],
        }
    }

    #[inline]
    #[track_caller]
    fn split_at(self, mid: usize) -> (Self, Self) {
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
    fn lane(self, lane: usize) -> LaneRef<'a, S, N> {
        LaneRef::new(self.partials, lane)
    }

    #[inline]
    fn iter(self) -> Iter<'a, S, N> {
        Iter::new(self.primal, self.partials)
    }

    fn to_vecs(self) -> Layout<Vec<S>, N> {
        Layout {
            primal: self.primal.to_vec(),
            partials: self.partials.to_vec(),
        }
    }
}

impl<'a, S: Real, const N: usize> Layout<&'a mut [S], N> {
    #[inline(always)]
    fn rb(&self) -> Layout<&[S], N> {
        Layout {
            primal: self.primal,
            partials: self.partials,
        }
    }

    #[inline(always)]
    fn rb_mut(&mut self) -> Layout<&mut [S], N> {
        Layout {
            primal: self.primal,
            partials: self.partials,
        }
    }

    #[inline(always)]
    fn into_ref(self) -> Layout<&'a [S], N> {
        Layout {
            primal: self.primal,
            partials: self.partials,
        }
    }

    #[inline(always)]
    #[track_caller]
    fn set(&mut self, i: usize, value: NDual<S, N>) {
        self.primal[i] = value.value();
        let Some(block) = self.partials[i * N..].first_chunk_mut::<N>() else {
            unreachable!("element-major layout: partials block shorter than N * len")
        };
        *block = *value.partials();
    }

    #[inline]
    #[track_caller]
    fn swap(&mut self, i: usize, j: usize) {
        self.primal.swap(i, j);
        if i != j {
            for k in 0..N {
                self.partials.swap(i * N + k, j * N + k);
            }
        }
    }

    #[inline]
    #[track_caller]
    fn into_slice(self, range: impl RangeBounds<usize>) -> Self {
        let r = resolve(range, self.primal.len());
        Self {
            primal: &mut self.primal[r.clone()],
            partials: &mut self.partials[r.start * N..r.end * N],
        }
    }

    #[inline]
    #[track_caller]
    fn into_split_at(self, mid: usize) -> (Self, Self) {
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
    fn into_lane(self, lane: usize) -> LaneMut<'a, S, N> {
        LaneMut::new(self.partials, lane)
    }

    #[inline]
    #[track_caller]
    fn into_elem(self, i: usize) -> ElemMut<'a, S, N> {
        let primal = &mut self.primal[i];
        let Some(block) = self.partials[i * N..].first_chunk_mut::<N>() else {
            unreachable!("element-major layout: partials block shorter than N * len")
        };
        ElemMut::new(primal, block)
    }

    #[inline]
    fn into_elems(self) -> IterMut<'a, S, N> {
        IterMut::new(self.primal, self.partials)
    }

    #[track_caller]
    fn copy_from(&mut self, src: Layout<&[S], N>) {
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

    fn fill(&mut self, value: NDual<S, N>) {
        self.primal.fill(value.value());
        for block in self.partials.chunks_exact_mut(N.max(1)) {
            block.copy_from_slice(value.partials());
        }
    }

    fn for_each(&mut self, mut f: impl FnMut(&mut NDual<S, N>)) {
        for mut elem in self.rb_mut().into_elems() {
            f(&mut elem);
        }
    }
}

impl<S: Real, const N: usize> Layout<Vec<S>, N> {
    #[inline(always)]
    fn rb(&self) -> Layout<&[S], N> {
        Layout {
            primal: &self.primal,
            partials: &self.partials,
        }
    }

    #[inline(always)]
    fn rb_mut(&mut self) -> Layout<&mut [S], N> {
        Layout {
            primal: &mut self.primal,
            partials: &mut self.partials,
        }
    }

    fn with_capacity(capacity: usize) -> Self {
        Self {
            primal: Vec::with_capacity(capacity),
            partials: Vec::with_capacity(N.saturating_mul(capacity)),
        }
    }

    #[inline]
    fn push(&mut self, value: NDual<S, N>) {
        self.primal.push(value.value());
        self.partials.extend_from_slice(value.partials());
    }

    #[inline]
    fn pop(&mut self) -> Option<NDual<S, N>> {
        let value = self.primal.pop()?;
        let at = self.partials.len() - N;
        let Some(block) = self.partials[at..].first_chunk::<N>() else {
            unreachable!("element-major layout: partials block shorter than N * len")
        };
        let out = NDual::new(value, *block);
        self.partials.truncate(at);
        Some(out)
    }

    fn extend_from(&mut self, src: Layout<&[S], N>) {
        self.primal.extend_from_slice(src.primal);
        self.partials.extend_from_slice(src.partials);
    }

    fn resize(&mut self, len: usize, value: NDual<S, N>) {
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

    fn truncate(&mut self, len: usize) {
        if len < self.primal.len() {
            self.primal.truncate(len);
            self.partials.truncate(len * N);
        }
    }

    fn clear(&mut self) {
        self.primal.clear();
        self.partials.clear();
    }

    #[track_caller]
    fn insert(&mut self, i: usize, value: NDual<S, N>) {
        self.primal.insert(i, value.value());
        self.partials
            .splice(i * N..i * N, value.partials().iter().copied());
    }

    #[track_caller]
    fn remove(&mut self, i: usize) -> NDual<S, N> {
        let out = self.rb().get(i);
        self.primal.remove(i);
        self.partials.drain(i * N..i * N + N);
        out
    }

    fn reserve(&mut self, additional: usize) {
        self.primal.reserve(additional);
        self.partials.reserve(N.saturating_mul(additional));
    }
}

/// An owned array of [`NDual<S, N>`] values in the **element-major** layout: the forward
/// value of `Vec<S>` (and the lifted store behind `&[S]` / `&mut [S]` arguments) at chunk
/// width N.
///
/// # Layout contract
///
/// This is the one statement of the layout; [`NDualRef`] and [`NDualMut`] are views of
/// it and obey it too.
///
/// * **The primal is a genuine `Vec<S>`** of `len` values:
///   [`as_primal_slice`](Self::as_primal_slice) is a plain `&[S]` (no copy), usable in
///   FFI, in BLAS, or by the primal function itself.
/// * **The partials are one block of `N * len` values, element-major: partial `k` of
///   element `i` is at offset `i * N + k`** of
///   [`partials_block`](Self::partials_block). Hence:
///   - element `i`'s N partials are the contiguous run `i*N .. i*N + N` (a gather or a
///     scatter of one element touches the primal and one run of N values);
///   - lane `k` (tangent direction `k` of every element) is the stride-N sequence
///     starting at offset `k` ([`lane`](Self::lane), a [`LaneRef`]);
///   - elements `a..b` own the contiguous range `a*N .. b*N` of the block, so a
///     sub-slice of elements is a view ([`slice`](Self::slice)), never a copy.
/// * `partials_block().len() == N * len()` at all times; every constructor checks it
///   (or cannot violate it) and every operation keeps it.
///
/// Nothing else is guaranteed (capacity, growth policy). Rules should read and write
/// through the accessors ([`ForwardValue`](crate::ForwardValue)), not the offsets, so
/// the layout can change for other readings (device arrays are lane-major).
///
/// An element's value and partials live in two buffers, so no `&NDual` into the array
/// exists and `Index` is deliberately not implemented: reading gathers an element
/// ([`get`](Self::get), [`iter`](Self::iter)), writing scatters it ([`set`](Self::set),
/// and the [`ElemMut`] guards of [`elem_mut`](Self::elem_mut) and
/// [`iter_mut`](Self::iter_mut), which write back when dropped).
///
/// ```
/// use lifted::{NDual, NDualArray};
/// // x = [1, 2, 3] seeded in directions 0 and 1 from element 1 on.
/// let mut x = NDualArray::<f64, 2>::seeded(vec![1.0, 2.0, 3.0], 1);
/// assert_eq!(x.as_primal_slice(), &[1.0, 2.0, 3.0]);
/// assert_eq!(x.partials_block(), &[0.0, 0.0, 1.0, 0.0, 0.0, 1.0]);
/// assert_eq!(x.lane(1).to_vec(), vec![0.0, 0.0, 1.0]);
/// x.set(0, NDual::new(5.0, [7.0, 8.0]));
/// assert_eq!(x.partials_block()[0 * 2 + 1], 8.0); // partial 1 of element 0
/// let tail = x.slice(1..);
/// assert_eq!(tail.partials_block(), &x.partials_block()[2..]);
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NDualArray<S, const N: usize> {
    layout: Layout<Vec<S>, N>,
}

/// A shared view of an [`NDualArray`] or of part of one (any range of elements): the
/// forward value of `&[S]`. `Copy`; the layout contract is [`NDualArray`]'s.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NDualRef<'a, S, const N: usize> {
    layout: Layout<&'a [S], N>,
}

/// A mutable view of an [`NDualArray`] or of part of one: the forward value of
/// `&mut [S]`. The layout contract is [`NDualArray`]'s.
#[derive(Debug, PartialEq)]
pub struct NDualMut<'a, S, const N: usize> {
    layout: Layout<&'a mut [S], N>,
}

impl<S: Real, const N: usize> NDualArray<S, N> {
    /// An empty array.
    pub fn new() -> Self {
        Self {
            layout: Layout {
                primal: Vec::new(),
                partials: Vec::new(),
            },
        }
    }

    /// An empty array with room for `capacity` elements.
    pub fn with_capacity(capacity: usize) -> Self {
        Self {
            layout: Layout::with_capacity(capacity),
        }
    }

    /// An array from its primal and its element-major partials block (partial `k` of
    /// element `i` at `partials[i * N + k]`).
    ///
    /// # Errors
    /// [`LayoutError::Block`] when `partials.len() != N * primal.len()`.
    pub fn from_parts(primal: Vec<S>, partials: Vec<S>) -> Result<Self, LayoutError> {
        check::<N>(primal.len(), partials.len())?;
        Ok(Self {
            layout: Layout { primal, partials },
        })
    }

    /// The primal with every partial zero (a constant of the computation).
    pub fn constant(primal: Vec<S>) -> Self {
        let partials = vec![S::zero(); N * primal.len()];
        Self {
            layout: Layout { primal, partials },
        }
    }

    /// The primal with partial `k` of element `i` set to `partial(i, k)`.
    pub fn from_primal_fn(primal: Vec<S>, mut partial: impl FnMut(usize, usize) -> S) -> Self {
        let mut partials = Vec::with_capacity(N * primal.len());
        for i in 0..primal.len() {
            partials.extend((0..N).map(|k| partial(i, k)));
        }
        Self {
            layout: Layout { primal, partials },
        }
    }

    /// The primal with its tangent given lane by lane: `lanes[k][i]` is partial `k` of
    /// element `i`.
    ///
    /// # Errors
    /// [`LayoutError::Lane`] when a lane's length is not the primal's.
    pub fn from_lanes(primal: Vec<S>, lanes: [&[S]; N]) -> Result<Self, LayoutError> {
        let len = primal.len();
        if let Some((lane, l)) = lanes.iter().enumerate().find(|(_, l)| l.len() != len) {
            return Err(LayoutError::Lane {
                lane,
                len,
                found: l.len(),
            });
        }
        Ok(Self::from_primal_fn(primal, |i, k| lanes[k][i]))
    }

    /// The primal seeded for a chunk of directions starting at element `first`: element
    /// `first + k` has partial `k` equal to one (for `k < N` and `first + k < len`), every
    /// other partial is zero. `seeded(x, 0)`, `seeded(x, N)`, … are the chunks of a
    /// chunked gradient.
    pub fn seeded(primal: Vec<S>, first: usize) -> Self {
        Self::from_primal_fn(primal, |i, k| {
            if i.checked_sub(first) == Some(k) {
                S::one()
            } else {
                S::zero()
            }
        })
    }

    /// An array of `len` copies of `value`.
    pub fn from_elem(value: NDual<S, N>, len: usize) -> Self {
        let mut out = Self::with_capacity(len);
        out.resize(len, value);
        out
    }

    /// Splits into the primal and the partials block.
    pub fn into_parts(self) -> (Vec<S>, Vec<S>) {
        (self.layout.primal, self.layout.partials)
    }

    /// Number of elements.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.layout.primal.len()
    }

    /// `true` when there are no elements.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.layout.primal.is_empty()
    }

    /// Number of elements the array can hold without reallocating.
    pub fn capacity(&self) -> usize {
        self.layout.primal.capacity()
    }

    /// The primal values, as a plain slice (no copy).
    #[inline(always)]
    pub fn as_primal_slice(&self) -> &[S] {
        &self.layout.primal
    }

    /// The primal values, mutably (the partials are left as they are).
    #[inline(always)]
    pub fn as_primal_mut_slice(&mut self) -> &mut [S] {
        &mut self.layout.primal
    }

    /// The element-major partials block (`N * len` values; partial `k` of element `i` at
    /// `i * N + k`).
    #[inline(always)]
    pub fn partials_block(&self) -> &[S] {
        &self.layout.partials
    }

    /// The partials block, mutably.
    #[inline(always)]
    pub fn partials_block_mut(&mut self) -> &mut [S] {
        &mut self.layout.partials
    }

    /// The primal and the partials block, both mutably (a rule writes the primal once,
    /// then the tangents).
    #[inline(always)]
    pub fn as_parts_mut(&mut self) -> (&mut [S], &mut [S]) {
        (&mut self.layout.primal, &mut self.layout.partials)
    }

    /// Element `i`, gathered. Panics when `i >= len`.
    #[inline(always)]
    #[track_caller]
    pub fn get(&self, i: usize) -> NDual<S, N> {
        self.layout.rb().get(i)
    }

    /// Stores `value` at element `i` (scatter). Panics when `i >= len`.
    #[inline(always)]
    #[track_caller]
    pub fn set(&mut self, i: usize, value: NDual<S, N>) {
        self.layout.rb_mut().set(i, value);
    }

    /// A guard on element `i` that scatters it back when dropped:
    /// `*a.elem_mut(i) += x`. Panics when `i >= len`.
    #[inline]
    #[track_caller]
    pub fn elem_mut(&mut self, i: usize) -> ElemMut<'_, S, N> {
        self.layout.rb_mut().into_elem(i)
    }

    /// A shared view of the whole array.
    #[inline(always)]
    pub fn view(&self) -> NDualRef<'_, S, N> {
        NDualRef {
            layout: self.layout.rb(),
        }
    }

    /// A mutable view of the whole array.
    #[inline(always)]
    pub fn view_mut(&mut self) -> NDualMut<'_, S, N> {
        NDualMut {
            layout: self.layout.rb_mut(),
        }
    }

    /// A shared view of the elements in `range` (no copy). Panics when the range is out
    /// of bounds or decreasing.
    #[inline]
    #[track_caller]
    pub fn slice(&self, range: impl RangeBounds<usize>) -> NDualRef<'_, S, N> {
        self.view().slice(range)
    }

    /// A mutable view of the elements in `range`. Panics when the range is out of
    /// bounds or decreasing.
    #[inline]
    #[track_caller]
    pub fn slice_mut(&mut self, range: impl RangeBounds<usize>) -> NDualMut<'_, S, N> {
        self.view_mut().into_slice_mut(range)
    }

    /// The views of `..mid` and `mid..`. Panics when `mid > len`.
    #[inline]
    #[track_caller]
    pub fn split_at(&self, mid: usize) -> (NDualRef<'_, S, N>, NDualRef<'_, S, N>) {
        self.view().split_at(mid)
    }

    /// The mutable views of `..mid` and `mid..`. Panics when `mid > len`.
    #[inline]
    #[track_caller]
    pub fn split_at_mut(&mut self, mid: usize) -> (NDualMut<'_, S, N>, NDualMut<'_, S, N>) {
        self.view_mut().into_split_at_mut(mid)
    }

    /// Lane `lane`: tangent direction `lane` of every element, a stride-N view of the
    /// block. Panics when `lane >= N`.
    #[inline]
    #[track_caller]
    pub fn lane(&self, lane: usize) -> LaneRef<'_, S, N> {
        self.layout.rb().lane(lane)
    }

    /// Lane `lane`, mutably. Panics when `lane >= N`.
    #[inline]
    #[track_caller]
    pub fn lane_mut(&mut self, lane: usize) -> LaneMut<'_, S, N> {
        self.layout.rb_mut().into_lane(lane)
    }

    /// The elements by value (gathered), in order.
    #[inline]
    pub fn iter(&self) -> Iter<'_, S, N> {
        self.layout.rb().iter()
    }

    /// Guards on every element, in order: `*v = …` through them scatters.
    #[inline]
    pub fn iter_mut(&mut self) -> IterMut<'_, S, N> {
        self.layout.rb_mut().into_elems()
    }

    /// Calls `f` on every element in order, scattering each back afterwards.
    pub fn for_each_mut(&mut self, f: impl FnMut(&mut NDual<S, N>)) {
        self.layout.rb_mut().for_each(f);
    }

    /// Every window of `size` consecutive elements, as views. Panics when `size` is 0.
    #[track_caller]
    pub fn windows(&self, size: usize) -> Windows<'_, NDual<S, N>> {
        Windows::new(self.view(), size)
    }

    /// Consecutive views of `size` elements, the last one possibly shorter. Panics when
    /// `size` is 0.
    #[track_caller]
    pub fn chunks(&self, size: usize) -> Chunks<'_, NDual<S, N>> {
        Chunks::new(self.view(), size)
    }

    /// Consecutive mutable views of `size` elements. Panics when `size` is 0.
    #[track_caller]
    pub fn chunks_mut(&mut self, size: usize) -> ChunksMut<'_, NDual<S, N>> {
        ChunksMut::new(self.view_mut(), size)
    }

    /// Swaps elements `i` and `j` (primal and partials). Panics when either is out of
    /// bounds.
    #[inline]
    #[track_caller]
    pub fn swap(&mut self, i: usize, j: usize) {
        self.layout.rb_mut().swap(i, j);
    }

    /// Sets every element to `value`.
    pub fn fill(&mut self, value: NDual<S, N>) {
        self.layout.rb_mut().fill(value);
    }

    /// Copies every element of `src`. Panics when the lengths differ.
    #[track_caller]
    pub fn copy_from_slice(&mut self, src: NDualRef<'_, S, N>) {
        self.layout.rb_mut().copy_from(src.layout);
    }

    /// An owned copy (the same as `clone`).
    pub fn to_vec(&self) -> Self {
        self.clone()
    }

    /// Appends one element (amortised O(1)).
    #[inline]
    pub fn push(&mut self, value: NDual<S, N>) {
        self.layout.push(value);
    }

    /// Removes and returns the last element, if any.
    #[inline]
    pub fn pop(&mut self) -> Option<NDual<S, N>> {
        self.layout.pop()
    }

    /// Appends a copy of every element of `src` (amortised O(1) per element).
    pub fn extend_from_slice(&mut self, src: NDualRef<'_, S, N>) {
        self.layout.extend_from(src.layout);
    }

    /// Grows with copies of `value`, or shrinks, to `len` elements.
    pub fn resize(&mut self, len: usize, value: NDual<S, N>) {
        self.layout.resize(len, value);
    }

    /// Keeps the first `len` elements (no effect when there are fewer).
    pub fn truncate(&mut self, len: usize) {
        self.layout.truncate(len);
    }

    /// Removes every element, keeping the allocation.
    pub fn clear(&mut self) {
        self.layout.clear();
    }

    /// Inserts `value` at `i`, shifting the later elements. Panics when `i > len`.
    #[track_caller]
    pub fn insert(&mut self, i: usize, value: NDual<S, N>) {
        self.layout.insert(i, value);
    }

    /// Removes and returns element `i`, shifting the later elements. Panics when
    /// `i >= len`.
    #[track_caller]
    pub fn remove(&mut self, i: usize) -> NDual<S, N> {
        self.layout.remove(i)
    }

    /// Reserves room for at least `additional` more elements.
    pub fn reserve(&mut self, additional: usize) {
        self.layout.reserve(additional);
    }
}

impl<'a, S: Real, const N: usize> NDualRef<'a, S, N> {
    /// A view of a primal slice and its element-major partials block.
    ///
    /// # Errors
    /// [`LayoutError::Block`] when `partials.len() != N * primal.len()`.
    pub fn from_parts(primal: &'a [S], partials: &'a [S]) -> Result<Self, LayoutError> {
        check::<N>(primal.len(), partials.len())?;
        Ok(Self {
            layout: Layout { primal, partials },
        })
    }

    /// The primal slice and the partials block.
    #[inline(always)]
    pub fn into_parts(self) -> (&'a [S], &'a [S]) {
        (self.layout.primal, self.layout.partials)
    }

    /// Number of elements.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.layout.len()
    }

    /// `true` when there are no elements.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.layout.primal.is_empty()
    }

    /// The primal values, as a plain slice (no copy).
    #[inline(always)]
    pub fn as_primal_slice(&self) -> &'a [S] {
        self.layout.primal
    }

    /// The element-major partials block of the viewed elements.
    #[inline(always)]
    pub fn partials_block(&self) -> &'a [S] {
        self.layout.partials
    }

    /// Element `i`, gathered. Panics when `i >= len`.
    #[inline(always)]
    #[track_caller]
    pub fn get(&self, i: usize) -> NDual<S, N> {
        self.layout.get(i)
    }

    /// The view of the elements in `range`, for the whole lifetime `'a`. Panics when the
    /// range is out of bounds or decreasing.
    #[inline]
    #[track_caller]
    pub fn slice(&self, range: impl RangeBounds<usize>) -> NDualRef<'a, S, N> {
        NDualRef {
            layout: self.layout.slice(range),
        }
    }

    /// The views of `..mid` and `mid..`. Panics when `mid > len`.
    #[inline]
    #[track_caller]
    pub fn split_at(&self, mid: usize) -> (NDualRef<'a, S, N>, NDualRef<'a, S, N>) {
        let (a, b) = self.layout.split_at(mid);
        (NDualRef { layout: a }, NDualRef { layout: b })
    }

    /// Lane `lane` (a stride-N view of the block). Panics when `lane >= N`.
    #[inline]
    #[track_caller]
    pub fn lane(&self, lane: usize) -> LaneRef<'a, S, N> {
        self.layout.lane(lane)
    }

    /// The elements by value (gathered), in order.
    #[inline]
    pub fn iter(&self) -> Iter<'a, S, N> {
        self.layout.iter()
    }

    /// Every window of `size` consecutive elements. Panics when `size` is 0.
    #[track_caller]
    pub fn windows(&self, size: usize) -> Windows<'a, NDual<S, N>> {
        Windows::new(*self, size)
    }

    /// Consecutive views of `size` elements, the last one possibly shorter. Panics when
    /// `size` is 0.
    #[track_caller]
    pub fn chunks(&self, size: usize) -> Chunks<'a, NDual<S, N>> {
        Chunks::new(*self, size)
    }

    /// An owned copy of the viewed elements.
    pub fn to_vec(&self) -> NDualArray<S, N> {
        NDualArray {
            layout: self.layout.to_vecs(),
        }
    }
}

impl<'a, S: Real, const N: usize> NDualMut<'a, S, N> {
    /// A mutable view of a primal slice and its element-major partials block.
    ///
    /// # Errors
    /// [`LayoutError::Block`] when `partials.len() != N * primal.len()`.
    pub fn from_parts(primal: &'a mut [S], partials: &'a mut [S]) -> Result<Self, LayoutError> {
        check::<N>(primal.len(), partials.len())?;
        Ok(Self {
            layout: Layout { primal, partials },
        })
    }

    /// The primal slice and the partials block.
    #[inline(always)]
    pub fn into_parts(self) -> (&'a mut [S], &'a mut [S]) {
        (self.layout.primal, self.layout.partials)
    }

    /// Number of elements.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.layout.primal.len()
    }

    /// `true` when there are no elements.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.layout.primal.is_empty()
    }

    /// The primal values, as a plain slice (no copy).
    #[inline(always)]
    pub fn as_primal_slice(&self) -> &[S] {
        self.layout.primal
    }

    /// The primal values, mutably (the partials are left as they are).
    #[inline(always)]
    pub fn as_primal_mut_slice(&mut self) -> &mut [S] {
        self.layout.primal
    }

    /// The element-major partials block of the viewed elements.
    #[inline(always)]
    pub fn partials_block(&self) -> &[S] {
        self.layout.partials
    }

    /// The partials block, mutably.
    #[inline(always)]
    pub fn partials_block_mut(&mut self) -> &mut [S] {
        self.layout.partials
    }

    /// The primal and the partials block, both mutably.
    #[inline(always)]
    pub fn as_parts_mut(&mut self) -> (&mut [S], &mut [S]) {
        (self.layout.primal, self.layout.partials)
    }

    /// Element `i`, gathered. Panics when `i >= len`.
    #[inline(always)]
    #[track_caller]
    pub fn get(&self, i: usize) -> NDual<S, N> {
        self.layout.rb().get(i)
    }

    /// Stores `value` at element `i` (scatter). Panics when `i >= len`.
    #[inline(always)]
    #[track_caller]
    pub fn set(&mut self, i: usize, value: NDual<S, N>) {
        self.layout.set(i, value);
    }

    /// A guard on element `i` that scatters it back when dropped. Panics when `i >= len`.
    #[inline]
    #[track_caller]
    pub fn elem_mut(&mut self, i: usize) -> ElemMut<'_, S, N> {
        self.layout.rb_mut().into_elem(i)
    }

    /// A shared view of the same elements.
    #[inline(always)]
    pub fn view(&self) -> NDualRef<'_, S, N> {
        NDualRef {
            layout: self.layout.rb(),
        }
    }

    /// A shorter-lived mutable view of the same elements (`&mut *y`), to pass this view
    /// on to a callee and keep it.
    #[inline(always)]
    pub fn reborrow(&mut self) -> NDualMut<'_, S, N> {
        NDualMut {
            layout: self.layout.rb_mut(),
        }
    }

    /// The shared view of the same elements, for the whole lifetime `'a`.
    #[inline(always)]
    pub fn into_ref(self) -> NDualRef<'a, S, N> {
        NDualRef {
            layout: self.layout.into_ref(),
        }
    }

    /// A shared view of the elements in `range`. Panics when the range is out of bounds
    /// or decreasing.
    #[inline]
    #[track_caller]
    pub fn slice(&self, range: impl RangeBounds<usize>) -> NDualRef<'_, S, N> {
        self.view().slice(range)
    }

    /// A mutable view of the elements in `range`. Panics when the range is out of
    /// bounds or decreasing.
    #[inline]
    #[track_caller]
    pub fn slice_mut(&mut self, range: impl RangeBounds<usize>) -> NDualMut<'_, S, N> {
        self.reborrow().into_slice_mut(range)
    }

    /// The mutable view of the elements in `range`, for the whole lifetime `'a`.
    #[inline]
    #[track_caller]
    pub fn into_slice_mut(self, range: impl RangeBounds<usize>) -> NDualMut<'a, S, N> {
        NDualMut {
            layout: self.layout.into_slice(range),
        }
    }

    /// The views of `..mid` and `mid..`. Panics when `mid > len`.
    #[inline]
    #[track_caller]
    pub fn split_at(&self, mid: usize) -> (NDualRef<'_, S, N>, NDualRef<'_, S, N>) {
        self.view().split_at(mid)
    }

    /// The mutable views of `..mid` and `mid..`. Panics when `mid > len`.
    #[inline]
    #[track_caller]
    pub fn split_at_mut(&mut self, mid: usize) -> (NDualMut<'_, S, N>, NDualMut<'_, S, N>) {
        self.reborrow().into_split_at_mut(mid)
    }

    /// The mutable views of `..mid` and `mid..`, for the whole lifetime `'a`.
    #[inline]
    #[track_caller]
    pub fn into_split_at_mut(self, mid: usize) -> (NDualMut<'a, S, N>, NDualMut<'a, S, N>) {
        let (a, b) = self.layout.into_split_at(mid);
        (NDualMut { layout: a }, NDualMut { layout: b })
    }

    /// Lane `lane` (a stride-N view of the block). Panics when `lane >= N`.
    #[inline]
    #[track_caller]
    pub fn lane(&self, lane: usize) -> LaneRef<'_, S, N> {
        self.layout.rb().lane(lane)
    }

    /// Lane `lane`, mutably. Panics when `lane >= N`.
    #[inline]
    #[track_caller]
    pub fn lane_mut(&mut self, lane: usize) -> LaneMut<'_, S, N> {
        self.layout.rb_mut().into_lane(lane)
    }

    /// The elements by value (gathered), in order.
    #[inline]
    pub fn iter(&self) -> Iter<'_, S, N> {
        self.layout.rb().iter()
    }

    /// Guards on every element, in order: `*v = …` through them scatters.
    #[inline]
    pub fn iter_mut(&mut self) -> IterMut<'_, S, N> {
        self.layout.rb_mut().into_elems()
    }

    /// Calls `f` on every element in order, scattering each back afterwards.
    pub fn for_each_mut(&mut self, f: impl FnMut(&mut NDual<S, N>)) {
        self.layout.for_each(f);
    }

    /// Every window of `size` consecutive elements. Panics when `size` is 0.
    #[track_caller]
    pub fn windows(&self, size: usize) -> Windows<'_, NDual<S, N>> {
        Windows::new(self.view(), size)
    }

    /// Consecutive views of `size` elements, the last one possibly shorter. Panics when
    /// `size` is 0.
    #[track_caller]
    pub fn chunks(&self, size: usize) -> Chunks<'_, NDual<S, N>> {
        Chunks::new(self.view(), size)
    }

    /// Consecutive mutable views of `size` elements. Panics when `size` is 0.
    #[track_caller]
    pub fn chunks_mut(&mut self, size: usize) -> ChunksMut<'_, NDual<S, N>> {
        ChunksMut::new(self.reborrow(), size)
    }

    /// Swaps elements `i` and `j` (primal and partials). Panics when either is out of
    /// bounds.
    #[inline]
    #[track_caller]
    pub fn swap(&mut self, i: usize, j: usize) {
        self.layout.swap(i, j);
    }

    /// Sets every element to `value`.
    pub fn fill(&mut self, value: NDual<S, N>) {
        self.layout.fill(value);
    }

    /// Copies every element of `src`. Panics when the lengths differ.
    #[track_caller]
    pub fn copy_from_slice(&mut self, src: NDualRef<'_, S, N>) {
        self.layout.copy_from(src.layout);
    }

    /// An owned copy of the viewed elements.
    pub fn to_vec(&self) -> NDualArray<S, N> {
        self.view().to_vec()
    }
}

// The trait vocabulary: each method delegates to the inherent one of the same name.

macro_rules! read_impls {
    ($($ty:ty),*) => {$(
        impl<S: Real, const N: usize> ArrayRead<NDual<S, N>> for $ty {
            #[inline(always)]
            fn len(&self) -> usize {
                self.layout.primal.len()
            }
            #[inline(always)]
            #[track_caller]
            fn get(&self, i: usize) -> NDual<S, N> {
                Self::get(self, i)
            }
        }

        impl<S: Real, const N: usize> ArrayView<NDual<S, N>> for $ty {
            type Iter<'s>
                = Iter<'s, S, N>
            where
                Self: 's;
            #[inline(always)]
            fn view(&self) -> NDualRef<'_, S, N> {
                NDualRef { layout: Layout { primal: &self.layout.primal, partials: &self.layout.partials } }
            }
            #[inline]
            fn iter(&self) -> Iter<'_, S, N> {
                Self::iter(self)
            }
            fn to_vec(&self) -> NDualArray<S, N> {
                Self::to_vec(self)
            }
        }
    )*};
}

read_impls!(NDualArray<S, N>, NDualRef<'_, S, N>, NDualMut<'_, S, N>);

macro_rules! write_impls {
    ($($ty:ty),*) => {$(
        impl<S: Real, const N: usize> ArrayWrite<NDual<S, N>> for $ty {
            #[inline(always)]
            #[track_caller]
            fn set(&mut self, i: usize, value: NDual<S, N>) {
                Self::set(self, i, value);
            }
            #[inline]
            #[track_caller]
            fn swap(&mut self, i: usize, j: usize) {
                Self::swap(self, i, j);
            }
        }

        impl<S: Real, const N: usize> ArrayViewMut<NDual<S, N>> for $ty {
            type ElemMut<'s>
                = ElemMut<'s, S, N>
            where
                Self: 's;
            type IterMut<'s>
                = IterMut<'s, S, N>
            where
                Self: 's;
            #[inline(always)]
            fn view_mut(&mut self) -> NDualMut<'_, S, N> {
                NDualMut { layout: self.layout.rb_mut() }
            }
            #[inline]
            #[track_caller]
            fn elem_mut(&mut self, i: usize) -> ElemMut<'_, S, N> {
                Self::elem_mut(self, i)
            }
            #[inline]
            fn iter_mut(&mut self) -> IterMut<'_, S, N> {
                Self::iter_mut(self)
            }
            fn for_each_mut(&mut self, f: impl FnMut(&mut NDual<S, N>)) {
                Self::for_each_mut(self, f);
            }
            #[track_caller]
            fn copy_from_slice(&mut self, src: NDualRef<'_, S, N>) {
                Self::copy_from_slice(self, src);
            }
            fn fill(&mut self, value: NDual<S, N>) {
                Self::fill(self, value);
            }
        }
    )*};
}

write_impls!(NDualArray<S, N>, NDualMut<'_, S, N>);

impl<'a, S: Real, const N: usize> ArrayRef<'a, NDual<S, N>> for NDualRef<'a, S, N> {
    #[inline]
    #[track_caller]
    fn into_slice(self, range: impl RangeBounds<usize>) -> NDualRef<'a, S, N> {
        self.slice(range)
    }
    #[inline]
    #[track_caller]
    fn into_split_at(self, mid: usize) -> (NDualRef<'a, S, N>, NDualRef<'a, S, N>) {
        self.split_at(mid)
    }
}

impl<'a, S: Real, const N: usize> ArrayMut<'a, NDual<S, N>> for NDualMut<'a, S, N> {
    #[inline]
    fn into_ref(self) -> NDualRef<'a, S, N> {
        Self::into_ref(self)
    }
    #[inline]
    #[track_caller]
    fn into_slice_mut(self, range: impl RangeBounds<usize>) -> NDualMut<'a, S, N> {
        Self::into_slice_mut(self, range)
    }
    #[inline]
    #[track_caller]
    fn into_split_at_mut(self, mid: usize) -> (NDualMut<'a, S, N>, NDualMut<'a, S, N>) {
        Self::into_split_at_mut(self, mid)
    }
}

impl<S: Real, const N: usize> ArrayOwned<NDual<S, N>> for NDualArray<S, N> {
    fn from_elem(value: NDual<S, N>, len: usize) -> Self {
        Self::from_elem(value, len)
    }
    fn with_capacity(capacity: usize) -> Self {
        Self::with_capacity(capacity)
    }
    #[inline]
    fn push(&mut self, value: NDual<S, N>) {
        Self::push(self, value);
    }
    #[inline]
    fn pop(&mut self) -> Option<NDual<S, N>> {
        Self::pop(self)
    }
    fn extend_from_slice(&mut self, src: NDualRef<'_, S, N>) {
        Self::extend_from_slice(self, src);
    }
    fn resize(&mut self, len: usize, value: NDual<S, N>) {
        Self::resize(self, len, value);
    }
    fn truncate(&mut self, len: usize) {
        Self::truncate(self, len);
    }
    fn clear(&mut self) {
        Self::clear(self);
    }
    #[track_caller]
    fn insert(&mut self, i: usize, value: NDual<S, N>) {
        Self::insert(self, i, value);
    }
    #[track_caller]
    fn remove(&mut self, i: usize) -> NDual<S, N> {
        Self::remove(self, i)
    }
    fn reserve(&mut self, additional: usize) {
        Self::reserve(self, additional);
    }
}

impl<S: Real, const N: usize> FromIterator<NDual<S, N>> for NDualArray<S, N> {
    fn from_iter<I: IntoIterator<Item = NDual<S, N>>>(iter: I) -> Self {
        let mut out = Self::new();
        out.extend(iter);
        out
    }
}

impl<S: Real, const N: usize> Extend<NDual<S, N>> for NDualArray<S, N> {
    fn extend<I: IntoIterator<Item = NDual<S, N>>>(&mut self, iter: I) {
        let iter = iter.into_iter();
        self.reserve(iter.size_hint().0);
        for v in iter {
            self.push(v);
        }
    }
}

impl<'v, S: Real, const N: usize> Extend<&'v NDual<S, N>> for NDualArray<S, N> {
    fn extend<I: IntoIterator<Item = &'v NDual<S, N>>>(&mut self, iter: I) {
        self.extend(iter.into_iter().copied());
    }
}

impl<S: Real, const N: usize> IntoIterator for NDualArray<S, N> {
    type Item = NDual<S, N>;
    type IntoIter = IntoIter<S, N>;
    fn into_iter(self) -> IntoIter<S, N> {
        let (primal, partials) = self.into_parts();
        IntoIter::new(primal, partials)
    }
}

impl<'a, S: Real, const N: usize> IntoIterator for &'a NDualArray<S, N> {
    type Item = NDual<S, N>;
    type IntoIter = Iter<'a, S, N>;
    fn into_iter(self) -> Iter<'a, S, N> {
        self.iter()
    }
}

impl<'a, S: Real, const N: usize> IntoIterator for &'a mut NDualArray<S, N> {
    type Item = ElemMut<'a, S, N>;
    type IntoIter = IterMut<'a, S, N>;
    fn into_iter(self) -> IterMut<'a, S, N> {
        self.iter_mut()
    }
}

impl<'a, S: Real, const N: usize> IntoIterator for NDualRef<'a, S, N> {
    type Item = NDual<S, N>;
    type IntoIter = Iter<'a, S, N>;
    fn into_iter(self) -> Iter<'a, S, N> {
        self.iter()
    }
}

impl<'a, S: Real, const N: usize> IntoIterator for &NDualRef<'a, S, N> {
    type Item = NDual<S, N>;
    type IntoIter = Iter<'a, S, N>;
    fn into_iter(self) -> Iter<'a, S, N> {
        self.iter()
    }
}

impl<'a, S: Real, const N: usize> IntoIterator for NDualMut<'a, S, N> {
    type Item = ElemMut<'a, S, N>;
    type IntoIter = IterMut<'a, S, N>;
    fn into_iter(self) -> IterMut<'a, S, N> {
        self.layout.into_elems()
    }
}

impl<'a, S: Real, const N: usize> IntoIterator for &'a NDualMut<'_, S, N> {
    type Item = NDual<S, N>;
    type IntoIter = Iter<'a, S, N>;
    fn into_iter(self) -> Iter<'a, S, N> {
        self.iter()
    }
}

impl<'a, S: Real, const N: usize> IntoIterator for &'a mut NDualMut<'_, S, N> {
    type Item = ElemMut<'a, S, N>;
    type IntoIter = IterMut<'a, S, N>;
    fn into_iter(self) -> IterMut<'a, S, N> {
        self.iter_mut()
    }
}

impl<'a, S: Real, const N: usize> From<&'a NDualArray<S, N>> for NDualRef<'a, S, N> {
    fn from(a: &'a NDualArray<S, N>) -> Self {
        a.view()
    }
}

impl<'a, S: Real, const N: usize> From<&'a mut NDualArray<S, N>> for NDualMut<'a, S, N> {
    fn from(a: &'a mut NDualArray<S, N>) -> Self {
        a.view_mut()
    }
}

impl<'a, S: Real, const N: usize> From<NDualMut<'a, S, N>> for NDualRef<'a, S, N> {
    fn from(a: NDualMut<'a, S, N>) -> Self {
        a.into_ref()
    }
}

impl<S: Real, const N: usize> From<NDualRef<'_, S, N>> for NDualArray<S, N> {
    fn from(a: NDualRef<'_, S, N>) -> Self {
        a.to_vec()
    }
}
