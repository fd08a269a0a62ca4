//! The inherent methods the array types share, written once: `read_methods!` for
//! [`NDualArray`], [`NDualRef`] and [`NDualMut`], `write_methods!` for [`NDualArray`] and
//! [`NDualMut`]. Each expands inside the type's `impl` block and delegates to the
//! private layout through `self.layout.rb()` / `self.layout.rb_mut()`, which every layout
//! the types hold provides.
//!
//! [`NDualArray`]: crate::NDualArray
//! [`NDualRef`]: crate::NDualRef
//! [`NDualMut`]: crate::NDualMut

/// The reading methods. `$lt` is the lifetime of the views and slices they return: `'_`
/// (borrowed from `self`) for the owned array and the mutable view, `'a` (the whole
/// lifetime of the viewed elements) for the shared view.
macro_rules! read_methods {
    ($lt:lifetime) => {
        /// Number of elements.
        #[inline(always)]
        pub fn len(&self) -> usize {
            self.layout.rb().len()
        }

        /// `true` when there are no elements.
        #[inline(always)]
        pub fn is_empty(&self) -> bool {
            self.layout.rb().primal.is_empty()
        }

        /// The primal values, as a plain slice (no copy).
        #[inline(always)]
        pub fn as_primal_slice(&self) -> &$lt [S] {
            self.layout.rb().primal
        }

        /// The element-major partials block (`N * len` values; partial `k` of element `i`
        /// at `i * N + k`).
        #[inline(always)]
        pub fn partials_block(&self) -> &$lt [S] {
            self.layout.rb().partials
        }

        /// Element `i`, gathered. Panics when `i >= len`.
        #[inline(always)]
        #[track_caller]
        pub fn get(&self, i: usize) -> NDual<S, N> {
            self.layout.rb().get(i)
        }

        /// A shared view of the elements in `range` (no copy). Panics when the range is out
        /// of bounds or decreasing.
        #[inline]
        #[track_caller]
        pub fn slice(&self, range: impl RangeBounds<usize>) -> NDualRef<$lt, S, N> {
            NDualRef {
                layout: self.layout.rb().slice(range),
            }
        }

        /// The views of `..mid` and `mid..`. Panics when `mid > len`.
        #[inline]
        #[track_caller]
        pub fn split_at(&self, mid: usize) -> (NDualRef<$lt, S, N>, NDualRef<$lt, S, N>) {
            let (a, b) = self.layout.rb().split_at(mid);
            (NDualRef { layout: a }, NDualRef { layout: b })
        }

        /// Lane `lane`: tangent direction `lane` of every element, a stride-N view of the
        /// block. Panics when `lane >= N`.
        #[inline]
        #[track_caller]
        pub fn lane(&self, lane: usize) -> LaneRef<$lt, S, N> {
            self.layout.rb().lane(lane)
        }

        /// The elements by value (gathered), in order.
        #[inline]
        pub fn iter(&self) -> Iter<$lt, S, N> {
            self.layout.rb().iter()
        }

        /// Every window of `size` consecutive elements, as views. Panics when `size` is 0.
        #[track_caller]
        pub fn windows(&self, size: usize) -> Windows<$lt, NDual<S, N>> {
            Windows::new(
                NDualRef {
                    layout: self.layout.rb(),
                },
                size,
            )
        }

        /// Consecutive views of `size` elements, the last one possibly shorter. Panics when
        /// `size` is 0.
        #[track_caller]
        pub fn chunks(&self, size: usize) -> Chunks<$lt, NDual<S, N>> {
            Chunks::new(
                NDualRef {
                    layout: self.layout.rb(),
                },
                size,
            )
        }
    };
}

/// The writing methods, and the shared view of every element.
macro_rules! write_methods {
    () => {
        /// The primal values, mutably (the partials are left as they are).
        #[inline(always)]
        pub fn as_primal_mut_slice(&mut self) -> &mut [S] {
            self.layout.rb_mut().primal
        }

        /// The partials block, mutably.
        #[inline(always)]
        pub fn partials_block_mut(&mut self) -> &mut [S] {
            self.layout.rb_mut().partials
        }

        /// The primal and the partials block, both mutably (a rule writes the primal once,
        /// then the tangents).
        #[inline(always)]
        pub fn as_parts_mut(&mut self) -> (&mut [S], &mut [S]) {
            let layout = self.layout.rb_mut();
            (layout.primal, layout.partials)
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

        /// A shared view of every element.
        #[inline(always)]
        pub fn view(&self) -> NDualRef<'_, S, N> {
            NDualRef {
                layout: self.layout.rb(),
            }
        }

        /// A mutable view of the elements in `range`. Panics when the range is out of
        /// bounds or decreasing.
        #[inline]
        #[track_caller]
        pub fn slice_mut(&mut self, range: impl RangeBounds<usize>) -> NDualMut<'_, S, N> {
            NDualMut {
                layout: self.layout.rb_mut().into_slice(range),
            }
        }

        /// The mutable views of `..mid` and `mid..`. Panics when `mid > len`.
        #[inline]
        #[track_caller]
        pub fn split_at_mut(&mut self, mid: usize) -> (NDualMut<'_, S, N>, NDualMut<'_, S, N>) {
            let (a, b) = self.layout.rb_mut().into_split_at(mid);
            (NDualMut { layout: a }, NDualMut { layout: b })
        }

        /// Lane `lane`, mutably. Panics when `lane >= N`.
        #[inline]
        #[track_caller]
        pub fn lane_mut(&mut self, lane: usize) -> LaneMut<'_, S, N> {
            self.layout.rb_mut().into_lane(lane)
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

        /// Consecutive mutable views of `size` elements. Panics when `size` is 0.
        #[track_caller]
        pub fn chunks_mut(&mut self, size: usize) -> ChunksMut<'_, NDual<S, N>> {
            ChunksMut::new(
                NDualMut {
                    layout: self.layout.rb_mut(),
                },
                size,
            )
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
    };
}

pub(super) use {read_methods, write_methods};
