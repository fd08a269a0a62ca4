//! The views of an [`NDualArray`]: [`NDualRef`] (the forward value of `&[S]`) and
//! [`NDualMut`] (of `&mut [S]`). The layout contract is [`NDualArray`]'s.

use core::ops::RangeBounds;

use crate::array::NDualArray;
use crate::array::iter::{Chunks, ChunksMut, ElemMut, Iter, IterMut, Windows};
use crate::array::lane::{LaneMut, LaneRef};
use crate::array::layout::{Layout, LayoutError, check};
use crate::array::methods::{read_methods, write_methods};
use crate::{NDual, Real};

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

    read_methods!('a);

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
