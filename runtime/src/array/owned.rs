//! `NDualArray<S, N>`: the owned forward value of an array at width N, and its views
//! [`NDualRef`] (the forward value of `&[S]`) and [`NDualMut`] (of `&mut [S]`). The
//! array's docs state the layout contract, once; the trait impls are in `impls.rs`.

use core::ops::RangeBounds;

use crate::NDual;
use crate::array::ArrayReading;
use crate::array::iter::{ElemMut, Iter, IterMut};
use crate::array::lane::{LaneMut, LaneRef};
use crate::array::layout::{Layout, LayoutError, check};
use crate::array::methods::{read_methods, write_methods};
use crate::array::traits::{Chunks, ChunksMut, Windows};

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
    pub(super) layout: Layout<Vec<S>, N>,
}

impl<S: ArrayReading, const N: usize> NDualArray<S, N> {
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
        let mut partials = vec![S::zero(); N * primal.len()];
        super::pages::advise(&mut partials);
        Self {
            layout: Layout { primal, partials },
        }
    }

    /// The primal with partial `k` of element `i` set to `partial(i, k)`.
    pub fn from_primal_fn(primal: Vec<S>, mut partial: impl FnMut(usize, usize) -> S) -> Self {
        // Filled in place, block by block, after a zero fill (a `calloc` for floats).
        // Collecting into fresh capacity instead keeps the vector's length in memory
        // across every call of `partial`, which may panic, and measured two to three
        // times slower.
        let mut partials = vec![S::zero(); N * primal.len()];
        super::pages::advise(&mut partials);
        if N > 0 {
            for (i, block) in partials.as_chunks_mut::<N>().0.iter_mut().enumerate() {
                *block = core::array::from_fn(|k| partial(i, k));
            }
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
        // At width 1 the element-major block is the one lane itself: a plain copy,
        // with no zero fill and no gather.
        if let (1, Some(lane)) = (N, lanes.first()) {
            return Ok(Self {
                layout: Layout {
                    primal,
                    partials: lane.to_vec(),
                },
            });
        }
        // Cut to exactly `len`, so that indexing below by `i < len` needs no check.
        let lanes = lanes.map(|l| &l[..len]);
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
        Self {
            layout: Layout::from_elem(value, len),
        }
    }

    /// Splits into the primal and the partials block.
    pub fn into_parts(self) -> (Vec<S>, Vec<S>) {
        (self.layout.primal, self.layout.partials)
    }

    /// Number of elements the array can hold without reallocating.
    pub fn capacity(&self) -> usize {
        self.layout.primal.capacity()
    }

    /// A mutable view of the whole array.
    #[inline(always)]
    pub fn view_mut(&mut self) -> NDualMut<'_, S, N> {
        NDualMut {
            layout: self.layout.rb_mut(),
        }
    }

    read_methods!('_);
    write_methods!();

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

/// A shared view of an [`NDualArray`] or of part of one (any range of elements): the
/// forward value of `&[S]`. `Copy`; the layout contract is [`NDualArray`]'s.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NDualRef<'a, S, const N: usize> {
    pub(super) layout: Layout<&'a [S], N>,
}

/// A mutable view of an [`NDualArray`] or of part of one: the forward value of
/// `&mut [S]`. The layout contract is [`NDualArray`]'s.
#[derive(Debug, PartialEq)]
pub struct NDualMut<'a, S, const N: usize> {
    pub(super) layout: Layout<&'a mut [S], N>,
}

impl<'a, S: ArrayReading, const N: usize> NDualRef<'a, S, N> {
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

    read_methods!('a);

    /// An owned copy of the viewed elements.
    pub fn to_vec(&self) -> NDualArray<S, N> {
        NDualArray {
            layout: self.layout.to_vecs(),
        }
    }
}

impl<'a, S: ArrayReading, const N: usize> NDualMut<'a, S, N> {
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

    read_methods!('_);
    write_methods!();

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

    /// The mutable view of the elements in `range`, for the whole lifetime `'a`.
    #[inline]
    #[track_caller]
    pub fn into_slice_mut(self, range: impl RangeBounds<usize>) -> NDualMut<'a, S, N> {
        NDualMut {
            layout: self.layout.into_slice(range),
        }
    }

    /// The mutable views of `..mid` and `mid..`, for the whole lifetime `'a`.
    #[inline]
    #[track_caller]
    pub fn into_split_at_mut(self, mid: usize) -> (NDualMut<'a, S, N>, NDualMut<'a, S, N>) {
        let (a, b) = self.layout.into_split_at(mid);
        (NDualMut { layout: a }, NDualMut { layout: b })
    }

    /// An owned copy of the viewed elements.
    pub fn to_vec(&self) -> NDualArray<S, N> {
        self.view().to_vec()
    }
}
