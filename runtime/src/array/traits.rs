//! The array vocabulary shared by every reading. Generated code names array types only
//! through `Real::{Vec, Ref, Mut}` and these traits, never a concrete array type, so a
//! new reading (a device array, say) brings its own arrays without macro changes.

use crate::Real;

/// Read access to an array of a reading: length and gather of one element.
pub trait ArrayRead<D> {
    /// Number of elements.
    fn len(&self) -> usize;
    /// `true` when there are no elements.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Element `i` as a value of the reading (gathers its primal and partials).
    /// Panics when `i` is out of bounds, as indexing does.
    fn get(&self, i: usize) -> D;
}

/// Write access: scatter one element.
pub trait ArrayWrite<D>: ArrayRead<D> {
    /// Stores `value` at element `i` (its primal and all its partials).
    /// Panics when `i` is out of bounds, as indexing does.
    fn set(&mut self, i: usize, value: D);
}

/// An owned, growable array of a reading: `Vec<f64>` for the primal reading,
/// `NDualArray<S, N>` for `NDual<S, N>`.
pub trait ArrayOwned<D: Real>:
    ArrayWrite<D> + Clone + core::fmt::Debug + Default + FromIterator<D> + Send + Sync + 'static
{
    /// An array of `len` copies of `value`.
    fn from_elem(value: D, len: usize) -> Self;
    /// An empty array with room for `capacity` elements.
    fn with_capacity(capacity: usize) -> Self;
    /// Appends one element (amortised O(1)).
    fn push(&mut self, value: D);
    /// A shared view of the whole array.
    fn view(&self) -> D::Ref<'_>;
    /// A mutable view of the whole array.
    fn view_mut(&mut self) -> D::Mut<'_>;
}

impl<D: Real> ArrayRead<D> for [D] {
    #[inline(always)]
    fn len(&self) -> usize {
        <[D]>::len(self)
    }
    #[inline(always)]
    #[track_caller]
    fn get(&self, i: usize) -> D {
        self[i]
    }
}

impl<D: Real> ArrayWrite<D> for [D] {
    #[inline(always)]
    #[track_caller]
    fn set(&mut self, i: usize, value: D) {
        self[i] = value;
    }
}

impl<D: Real> ArrayRead<D> for Vec<D> {
    #[inline(always)]
    fn len(&self) -> usize {
        Vec::len(self)
    }
    #[inline(always)]
    #[track_caller]
    fn get(&self, i: usize) -> D {
        self[i]
    }
}

impl<D: Real> ArrayWrite<D> for Vec<D> {
    #[inline(always)]
    #[track_caller]
    fn set(&mut self, i: usize, value: D) {
        self[i] = value;
    }
}

impl<D: Real> ArrayRead<D> for &[D] {
    #[inline(always)]
    fn len(&self) -> usize {
        <[D]>::len(self)
    }
    #[inline(always)]
    #[track_caller]
    fn get(&self, i: usize) -> D {
        self[i]
    }
}

impl<D: Real> ArrayRead<D> for &mut [D] {
    #[inline(always)]
    fn len(&self) -> usize {
        <[D]>::len(self)
    }
    #[inline(always)]
    #[track_caller]
    fn get(&self, i: usize) -> D {
        self[i]
    }
}

impl<D: Real> ArrayWrite<D> for &mut [D] {
    #[inline(always)]
    #[track_caller]
    fn set(&mut self, i: usize, value: D) {
        self[i] = value;
    }
}
