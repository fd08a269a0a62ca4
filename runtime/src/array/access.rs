//! Element access shared by every array: [`ArrayRead`] (length, gather) and
//! [`ArrayWrite`] (scatter), for the arrays of every reading and for plain `[D]`,
//! `[D; K]` and `Vec<D>` of any value type.

/// Read access to an array: length and gather of one element.
///
/// Implemented for every array of a reading and also for plain `[D]`, `[D; K]` and
/// `Vec<D>` of any reading (the forward value of `[f64; K]` is `[D; K]`), and for
/// references to any of them.
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
    /// Element `i`, or `None` when it is out of bounds (`x.get(i)`: the element by
    /// value rather than by reference).
    fn checked_get(&self, i: usize) -> Option<D> {
        (i < self.len()).then(|| self.get(i))
    }
    /// The first element, if any.
    fn first(&self) -> Option<D> {
        if self.is_empty() {
            None
        } else {
            Some(self.get(0))
        }
    }
    /// The last element, if any.
    fn last(&self) -> Option<D> {
        self.len().checked_sub(1).map(|i| self.get(i))
    }
}

/// Write access: scatter one element.
pub trait ArrayWrite<D>: ArrayRead<D> {
    /// Stores `value` at element `i` (its primal and all its partials).
    /// Panics when `i` is out of bounds, as indexing does.
    fn set(&mut self, i: usize, value: D);
    /// Swaps elements `i` and `j` (primal and partials). Panics when either is out of
    /// bounds.
    #[track_caller]
    fn swap(&mut self, i: usize, j: usize) {
        let a = self.get(i);
        let b = self.get(j);
        self.set(i, b);
        self.set(j, a);
    }
}

/// An element read by value through its `Clone`, which for a `Copy` type is a copy; a
/// type whose bytes are not all meaningful copies what is (`ZDual`: a flat value's
/// partials are not read, so a read of one moves the value alone, not the room for N
/// partials beside it).
#[inline(always)]
#[allow(clippy::clone_on_copy)]
fn read<D: Copy>(d: &D) -> D {
    d.clone()
}

/// An element written through its `clone_from`, for the same reason as [`read`]: a
/// flat `ZDual` written over another writes its value and flag alone.
#[inline(always)]
fn write<D: Copy>(slot: &mut D, value: D) {
    slot.clone_from(&value);
}

impl<D: Copy> ArrayRead<D> for [D] {
    #[inline(always)]
    fn len(&self) -> usize {
        <[D]>::len(self)
    }
    #[inline(always)]
    #[track_caller]
    fn get(&self, i: usize) -> D {
        read(&self[i])
    }
}

impl<D: Copy> ArrayWrite<D> for [D] {
    #[inline(always)]
    #[track_caller]
    fn set(&mut self, i: usize, value: D) {
        write(&mut self[i], value);
    }
    #[inline(always)]
    #[track_caller]
    fn swap(&mut self, i: usize, j: usize) {
        <[D]>::swap(self, i, j);
    }
}

impl<D: Copy, const K: usize> ArrayRead<D> for [D; K] {
    #[inline(always)]
    fn len(&self) -> usize {
        K
    }
    #[inline(always)]
    #[track_caller]
    fn get(&self, i: usize) -> D {
        read(&self[i])
    }
}

impl<D: Copy, const K: usize> ArrayWrite<D> for [D; K] {
    #[inline(always)]
    #[track_caller]
    fn set(&mut self, i: usize, value: D) {
        write(&mut self[i], value);
    }
    #[inline(always)]
    #[track_caller]
    fn swap(&mut self, i: usize, j: usize) {
        <[D]>::swap(self, i, j);
    }
}

impl<D: Copy> ArrayRead<D> for Vec<D> {
    #[inline(always)]
    fn len(&self) -> usize {
        Vec::len(self)
    }
    #[inline(always)]
    #[track_caller]
    fn get(&self, i: usize) -> D {
        read(&self[i])
    }
}

impl<D: Copy> ArrayWrite<D> for Vec<D> {
    #[inline(always)]
    #[track_caller]
    fn set(&mut self, i: usize, value: D) {
        write(&mut self[i], value);
    }
    #[inline(always)]
    #[track_caller]
    fn swap(&mut self, i: usize, j: usize) {
        <[D]>::swap(self, i, j);
    }
}

impl<D, T: ArrayRead<D> + ?Sized> ArrayRead<D> for &T {
    #[inline(always)]
    fn len(&self) -> usize {
        T::len(self)
    }
    #[inline(always)]
    #[track_caller]
    fn get(&self, i: usize) -> D {
        T::get(self, i)
    }
}

impl<D, T: ArrayRead<D> + ?Sized> ArrayRead<D> for &mut T {
    #[inline(always)]
    fn len(&self) -> usize {
        T::len(self)
    }
    #[inline(always)]
    #[track_caller]
    fn get(&self, i: usize) -> D {
        T::get(self, i)
    }
}

impl<D, T: ArrayWrite<D> + ?Sized> ArrayWrite<D> for &mut T {
    #[inline(always)]
    #[track_caller]
    fn set(&mut self, i: usize, value: D) {
        T::set(self, i, value);
    }
    #[inline(always)]
    #[track_caller]
    fn swap(&mut self, i: usize, j: usize) {
        T::swap(self, i, j);
    }
}
