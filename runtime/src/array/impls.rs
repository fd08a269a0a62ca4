//! The array traits for [`NDualArray`], [`NDualRef`] and [`NDualMut`], and the std
//! conversions and iteration traits. Each trait method delegates to the inherent method of
//! the same name.

use core::ops::RangeBounds;

use crate::array::iter::{ElemMut, IntoIter, Iter, IterMut};
use crate::array::{
    ArrayMut, ArrayOwned, ArrayRead, ArrayRef, ArrayView, ArrayViewMut, ArrayWrite, NDualArray,
    NDualMut, NDualRef,
};
use crate::{NDual, Real};

macro_rules! read_impls {
    ($($ty:ty),*) => {$(
        impl<S: Real, const N: usize> ArrayRead<NDual<S, N>> for $ty {
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

        impl<S: Real, const N: usize> ArrayView<NDual<S, N>> for $ty {
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
    #[inline]
    fn extend_map<T: Copy>(&mut self, src: &[T], f: impl FnMut(T) -> NDual<S, N>) {
        self.layout.extend_map(src, f);
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
