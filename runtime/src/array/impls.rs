//! The array traits for [`NDualArray`], [`NDualRef`] and [`NDualMut`], and the std
//! conversions and iteration traits. Each trait method delegates to the inherent method of
//! the same name.

use core::ops::RangeBounds;

use crate::NDual;
use crate::array::ArrayReading;
use crate::array::iter::{ElemMut, IntoIter, Iter, IterMut};
use crate::array::{Array, Field, Flat, Operand, OwnedArray, OwnedOperand};
use crate::array::{
    ArrayMut, ArrayOwned, ArrayRead, ArrayRef, ArrayView, ArrayViewMut, ArrayWrite, NDualArray,
    NDualMut, NDualRef,
};

macro_rules! read_impls {
    ($($ty:ty),*) => {$(
        impl<S: ArrayReading, const N: usize> ArrayRead<NDual<S, N>> for $ty {
            #[inline(always)]
            fn len(&self) -> usize {
                Self::len(self)
            }
            #[inline(always)]
            #[track_caller]
            fn get(&self, i: usize) -> NDual<S, N> {
                Self::get(self, i)
            }
        }

        impl<S: ArrayReading, const N: usize> ArrayView<NDual<S, N>> for $ty {
            type Iter<'s>
                = Iter<'s, S, N>
            where
                Self: 's;
            #[inline(always)]
            fn view(&self) -> NDualRef<'_, S, N> {
                NDualRef { layout: self.layout.rb() }
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
        impl<S: ArrayReading, const N: usize> ArrayWrite<NDual<S, N>> for $ty {
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

        impl<S: ArrayReading, const N: usize> ArrayViewMut<NDual<S, N>> for $ty {
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

impl<'a, S: ArrayReading, const N: usize> ArrayRef<'a, NDual<S, N>> for NDualRef<'a, S, N> {
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

impl<'a, S: ArrayReading, const N: usize> ArrayMut<'a, NDual<S, N>> for NDualMut<'a, S, N> {
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

impl<S: ArrayReading, const N: usize> ArrayOwned<NDual<S, N>> for NDualArray<S, N> {
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
    #[inline]
    fn extend_map<T: Copy>(&mut self, src: &[T], f: impl FnMut(T) -> NDual<S, N>) {
        self.layout.extend_map(src, f);
    }
    #[inline]
    fn refill_values<T: Copy>(&mut self, src: &[T], mut f: impl FnMut(T) -> NDual<S, N>) {
        if self.len() == src.len() {
            // The partials are the seeds' already: only the primal is written, a
            // (N + 1)-th of the bytes.
            for (p, &x) in self.layout.primal.iter_mut().zip(src) {
                *p = f(x).value();
            }
        } else {
            self.clear();
            self.extend_map(src, f);
        }
    }
}

impl<S: ArrayReading, const N: usize> FromIterator<NDual<S, N>> for NDualArray<S, N> {
    fn from_iter<I: IntoIterator<Item = NDual<S, N>>>(iter: I) -> Self {
        let mut out = Self::new();
        out.extend(iter);
        out
    }
}

impl<S: ArrayReading, const N: usize> Extend<NDual<S, N>> for NDualArray<S, N> {
    fn extend<I: IntoIterator<Item = NDual<S, N>>>(&mut self, iter: I) {
        let iter = iter.into_iter();
        self.reserve(iter.size_hint().0);
        for v in iter {
            self.push(v);
        }
    }
}

impl<'v, S: ArrayReading, const N: usize> Extend<&'v NDual<S, N>> for NDualArray<S, N> {
    fn extend<I: IntoIterator<Item = &'v NDual<S, N>>>(&mut self, iter: I) {
        self.extend(iter.into_iter().copied());
    }
}

impl<S: ArrayReading, const N: usize> IntoIterator for NDualArray<S, N> {
    type Item = NDual<S, N>;
    type IntoIter = IntoIter<S, N>;
    fn into_iter(self) -> IntoIter<S, N> {
        let (primal, partials) = self.into_parts();
        IntoIter::new(primal, partials)
    }
}

impl<'a, S: ArrayReading, const N: usize> IntoIterator for &'a NDualArray<S, N> {
    type Item = NDual<S, N>;
    type IntoIter = Iter<'a, S, N>;
    fn into_iter(self) -> Iter<'a, S, N> {
        self.iter()
    }
}

impl<'a, S: ArrayReading, const N: usize> IntoIterator for &'a mut NDualArray<S, N> {
    type Item = ElemMut<'a, S, N>;
    type IntoIter = IterMut<'a, S, N>;
    fn into_iter(self) -> IterMut<'a, S, N> {
        self.iter_mut()
    }
}

impl<'a, S: ArrayReading, const N: usize> IntoIterator for NDualRef<'a, S, N> {
    type Item = NDual<S, N>;
    type IntoIter = Iter<'a, S, N>;
    fn into_iter(self) -> Iter<'a, S, N> {
        self.iter()
    }
}

impl<'a, S: ArrayReading, const N: usize> IntoIterator for &NDualRef<'a, S, N> {
    type Item = NDual<S, N>;
    type IntoIter = Iter<'a, S, N>;
    fn into_iter(self) -> Iter<'a, S, N> {
        self.iter()
    }
}

impl<'a, S: ArrayReading, const N: usize> IntoIterator for NDualMut<'a, S, N> {
    type Item = ElemMut<'a, S, N>;
    type IntoIter = IterMut<'a, S, N>;
    fn into_iter(self) -> IterMut<'a, S, N> {
        self.layout.into_elems()
    }
}

impl<'a, S: ArrayReading, const N: usize> IntoIterator for &'a NDualMut<'_, S, N> {
    type Item = NDual<S, N>;
    type IntoIter = Iter<'a, S, N>;
    fn into_iter(self) -> Iter<'a, S, N> {
        self.iter()
    }
}

impl<'a, S: ArrayReading, const N: usize> IntoIterator for &'a mut NDualMut<'_, S, N> {
    type Item = ElemMut<'a, S, N>;
    type IntoIter = IterMut<'a, S, N>;
    fn into_iter(self) -> IterMut<'a, S, N> {
        self.iter_mut()
    }
}

impl<'a, S: ArrayReading, const N: usize> From<&'a NDualArray<S, N>> for NDualRef<'a, S, N> {
    fn from(a: &'a NDualArray<S, N>) -> Self {
        a.view()
    }
}

impl<'a, S: ArrayReading, const N: usize> From<&'a mut NDualArray<S, N>> for NDualMut<'a, S, N> {
    fn from(a: &'a mut NDualArray<S, N>) -> Self {
        a.view_mut()
    }
}

impl<'a, S: ArrayReading, const N: usize> From<NDualMut<'a, S, N>> for NDualRef<'a, S, N> {
    fn from(a: NDualMut<'a, S, N>) -> Self {
        a.into_ref()
    }
}

impl<S: ArrayReading, const N: usize> From<NDualRef<'_, S, N>> for NDualArray<S, N> {
    fn from(a: NDualRef<'_, S, N>) -> Self {
        a.to_vec()
    }
}

/// `NDual`'s arrays are element-major; a first-order `NDual` of the primal field has a
/// flat view (the primal slice and the tangent block), so BLAS-like kernels take it whole.
impl<S: ArrayReading, const N: usize> ArrayReading for NDual<S, N> {
    type Vec = NDualArray<S, N>;
    type Ref<'a> = NDualRef<'a, S, N>;
    type Mut<'a> = NDualMut<'a, S, N>;
    type FixedRef<'a, const K: usize> = super::NDualFixed<S, N, K>;
    type FixedMut<'a, const K: usize> = super::NDualFixedMut<'a, S, N, K>;

    super::held_by_copy!();

    fn hold_fixed<const K: usize>(a: &[Self; K]) -> Self::FixedRef<'_, K> {
        super::NDualFixed::copy_of(a)
    }
    fn hold_fixed_mut<const K: usize>(a: &mut [Self; K]) -> Self::FixedMut<'_, K> {
        super::NDualFixedMut::of(a)
    }

    fn flat_width() -> Option<usize> {
        match S::flat_width() {
            Some(0) => Some(N),
            _ => None,
        }
    }
    fn flat_ref<'a>(
        r: <Self as ArrayReading>::Ref<'a>,
    ) -> Option<(&'a [S::Field], &'a [S::Field])> {
        Some((
            S::as_flat(r.as_primal_slice())?,
            S::as_flat(r.partials_block())?,
        ))
    }
    fn flat_vec(v: &NDualArray<S, N>) -> Option<(&[S::Field], &[S::Field])> {
        Some((
            S::as_flat(v.as_primal_slice())?,
            S::as_flat(v.partials_block())?,
        ))
    }
    fn scalar_from_flat(primal: S::Field, tangent: &[S::Field]) -> Option<Self> {
        if tangent.len() != N {
            return None;
        }
        let value = S::scalar_from_flat(primal, &[])?;
        let mut partials = [value; N];
        for (p, &t) in partials.iter_mut().zip(tangent) {
            *p = S::scalar_from_flat(t, &[])?;
        }
        Some(Self::new(value, partials))
    }
    fn from_flat(primal: Vec<S::Field>, block: Vec<S::Field>) -> Option<NDualArray<S, N>> {
        let primal = S::vec_from_flat(primal)?;
        NDualArray::from_parts(primal, S::vec_from_flat(block)?).ok()
    }
}

// The array primitives' operands: an NDual array hands them its flat view.

fn flat_of<'a, F>(parts: Option<(&'a [F], &'a [F])>) -> Option<Flat<'a, F>> {
    parts.map(|(primal, tangent)| Flat {
        primal,
        tangent: Some(tangent),
    })
}

impl<S: ArrayReading, const N: usize> Array for NDualRef<'_, S, N> {
    type Elem = NDual<S, N>;
    fn len(&self) -> usize {
        NDualRef::len(self)
    }
}

impl<S: ArrayReading, const N: usize> Operand<NDual<S, N>> for NDualRef<'_, S, N> {
    #[inline]
    fn get(&self, i: usize) -> NDual<S, N> {
        NDualRef::get(self, i)
    }
    fn flat(&self) -> Option<Flat<'_, Field<NDual<S, N>>>> {
        flat_of(<NDual<S, N> as ArrayReading>::flat_ref(*self))
    }
}

impl<S: ArrayReading, const N: usize> OwnedArray for NDualArray<S, N> {
    type Elem = NDual<S, N>;
    fn len(&self) -> usize {
        NDualArray::len(self)
    }
}

impl<S: ArrayReading, const N: usize> OwnedOperand<NDual<S, N>> for NDualArray<S, N> {
    #[inline]
    fn get(&self, i: usize) -> NDual<S, N> {
        NDualArray::get(self, i)
    }
    fn flat(&self) -> Option<Flat<'_, Field<NDual<S, N>>>> {
        flat_of(<NDual<S, N> as ArrayReading>::flat_vec(self))
    }
}
