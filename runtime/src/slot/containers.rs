//! Forward values made of other forward values, element by element: `Vec<T>`, `&[T]`
//! and `&mut [T]` (whose element chooses the array through `DualElem`), fixed arrays,
//! `Option`, `Result` and tuples.

use super::{Dual, DualElem, ForwardValue, ZeroLift};

impl<T: DualElem<N>, const N: usize> Dual<N> for Vec<T> {
    type Value = T::Vec;
}
impl<'a, T: DualElem<N>, const N: usize> Dual<N> for &'a [T] {
    type Value = T::Ref<'a>;
}
impl<'a, T: DualElem<N>, const N: usize> Dual<N> for &'a mut [T] {
    type Value = T::Mut<'a>;
}

/// Element types other than scalars: arrays of them are arrays of forward values.
macro_rules! elementwise_elem {
    ([$($g:tt)*] $t:ty) => {
        impl<$($g)* const N: usize> DualElem<N> for $t {
            type Vec = Vec<<$t as Dual<N>>::Value>;
            type Ref<'a>
                = &'a [<$t as Dual<N>>::Value]
            where
                Self: 'a;
            type Mut<'a>
                = &'a mut [<$t as Dual<N>>::Value]
            where
                Self: 'a;
        }
    };
}

/// Arrays of forward values: element-wise accessors, collected.
macro_rules! elementwise_array_forward_value {
    ($([$($g:tt)*] $ty:ty),*) => {$(
        impl<$($g)* V: ForwardValue> ForwardValue for $ty {
            type Primal<'s>
                = Vec<V::Primal<'s>>
            where
                Self: 's;
            type Tangent<'s>
                = Vec<V::Tangent<'s>>
            where
                Self: 's;
            type Lane<'s>
                = Vec<V::Lane<'s>>
            where
                Self: 's;
            fn primal(&self) -> Self::Primal<'_> {
                self.iter().map(V::primal).collect()
            }
            fn tangent(&self) -> Self::Tangent<'_> {
                self.iter().map(V::tangent).collect()
            }
            #[track_caller]
            fn tangent_lane(&self, lane: usize) -> Self::Lane<'_> {
                self.iter().map(|v| v.tangent_lane(lane)).collect()
            }
        }
    )*};
}

elementwise_array_forward_value!([] Vec<V>, ['a,] &'a [V], ['a,] &'a mut [V]);

impl<V: ZeroLift> ZeroLift for Vec<V> {
    type From = Vec<V::From>;
    fn zero_lift(primal: Vec<V::From>) -> Self {
        primal.into_iter().map(V::zero_lift).collect()
    }
}

elementwise_elem!([T: DualElem<N>,] Vec<T>);

impl<T: Dual<N>, const K: usize, const N: usize> Dual<N> for [T; K] {
    type Value = [T::Value; K];
}
elementwise_elem!([T: Dual<N>, const K: usize,] [T; K]);

impl<V: ForwardValue, const K: usize> ForwardValue for [V; K] {
    type Primal<'s>
        = [V::Primal<'s>; K]
    where
        Self: 's;
    type Tangent<'s>
        = [V::Tangent<'s>; K]
    where
        Self: 's;
    type Lane<'s>
        = [V::Lane<'s>; K]
    where
        Self: 's;
    #[inline]
    fn primal(&self) -> Self::Primal<'_> {
        core::array::from_fn(|i| self[i].primal())
    }
    #[inline]
    fn tangent(&self) -> Self::Tangent<'_> {
        core::array::from_fn(|i| self[i].tangent())
    }
    #[inline]
    #[track_caller]
    fn tangent_lane(&self, lane: usize) -> Self::Lane<'_> {
        core::array::from_fn(|i| self[i].tangent_lane(lane))
    }
}

impl<V: ZeroLift, const K: usize> ZeroLift for [V; K] {
    type From = [V::From; K];
    #[inline]
    fn zero_lift(primal: [V::From; K]) -> Self {
        primal.map(V::zero_lift)
    }
}

impl<T: Dual<N>, const N: usize> Dual<N> for Option<T> {
    type Value = Option<T::Value>;
}
elementwise_elem!([T: Dual<N>,] Option<T>);

impl<V: ForwardValue> ForwardValue for Option<V> {
    type Primal<'s>
        = Option<V::Primal<'s>>
    where
        Self: 's;
    type Tangent<'s>
        = Option<V::Tangent<'s>>
    where
        Self: 's;
    type Lane<'s>
        = Option<V::Lane<'s>>
    where
        Self: 's;
    #[inline]
    fn primal(&self) -> Self::Primal<'_> {
        self.as_ref().map(V::primal)
    }
    #[inline]
    fn tangent(&self) -> Self::Tangent<'_> {
        self.as_ref().map(V::tangent)
    }
    #[inline]
    #[track_caller]
    fn tangent_lane(&self, lane: usize) -> Self::Lane<'_> {
        self.as_ref().map(|v| v.tangent_lane(lane))
    }
}

impl<V: ZeroLift> ZeroLift for Option<V> {
    type From = Option<V::From>;
    #[inline]
    fn zero_lift(primal: Option<V::From>) -> Self {
        primal.map(V::zero_lift)
    }
}

impl<T: Dual<N>, E: Dual<N>, const N: usize> Dual<N> for Result<T, E> {
    type Value = Result<T::Value, E::Value>;
}
elementwise_elem!([T: Dual<N>, E: Dual<N>,] Result<T, E>);

impl<V: ForwardValue, W: ForwardValue> ForwardValue for Result<V, W> {
    type Primal<'s>
        = Result<V::Primal<'s>, W::Primal<'s>>
    where
        Self: 's;
    type Tangent<'s>
        = Result<V::Tangent<'s>, W::Tangent<'s>>
    where
        Self: 's;
    type Lane<'s>
        = Result<V::Lane<'s>, W::Lane<'s>>
    where
        Self: 's;
    #[inline]
    fn primal(&self) -> Self::Primal<'_> {
        self.as_ref().map(V::primal).map_err(W::primal)
    }
    #[inline]
    fn tangent(&self) -> Self::Tangent<'_> {
        self.as_ref().map(V::tangent).map_err(W::tangent)
    }
    #[inline]
    #[track_caller]
    fn tangent_lane(&self, lane: usize) -> Self::Lane<'_> {
        self.as_ref()
            .map(|v| v.tangent_lane(lane))
            .map_err(|w| w.tangent_lane(lane))
    }
}

impl<V: ZeroLift, W: ZeroLift> ZeroLift for Result<V, W> {
    type From = Result<V::From, W::From>;
    #[inline]
    fn zero_lift(primal: Result<V::From, W::From>) -> Self {
        primal.map(V::zero_lift).map_err(W::zero_lift)
    }
}

/// Tuples: element-wise, up to 12 elements.
macro_rules! tuple_dual {
    ($($T:ident $i:tt),*) => {
        impl<const N: usize, $($T: Dual<N>),*> Dual<N> for ($($T,)*) {
            type Value = ($($T::Value,)*);
        }
        elementwise_elem!([$($T: Dual<N>,)*] ($($T,)*));

        impl<$($T: ForwardValue),*> ForwardValue for ($($T,)*) {
            type Primal<'s>
                = ($($T::Primal<'s>,)*)
            where
                Self: 's;
            type Tangent<'s>
                = ($($T::Tangent<'s>,)*)
            where
                Self: 's;
            type Lane<'s>
                = ($($T::Lane<'s>,)*)
            where
                Self: 's;
            #[inline]
            fn primal(&self) -> Self::Primal<'_> {
                ($(self.$i.primal(),)*)
            }
            #[inline]
            fn tangent(&self) -> Self::Tangent<'_> {
                ($(self.$i.tangent(),)*)
            }
            #[inline]
            #[track_caller]
            fn tangent_lane(&self, lane: usize) -> Self::Lane<'_> {
                ($(self.$i.tangent_lane(lane),)*)
            }
        }

        impl<$($T: ZeroLift),*> ZeroLift for ($($T,)*) {
            type From = ($($T::From,)*);
            #[inline]
            fn zero_lift(primal: Self::From) -> Self {
                ($($T::zero_lift(primal.$i),)*)
            }
        }
    };
}

tuple_dual!(A 0);
tuple_dual!(A 0, B 1);
tuple_dual!(A 0, B 1, C 2);
tuple_dual!(A 0, B 1, C 2, E 3);
tuple_dual!(A 0, B 1, C 2, E 3, G 4);
tuple_dual!(A 0, B 1, C 2, E 3, G 4, H 5);
tuple_dual!(A 0, B 1, C 2, E 3, G 4, H 5, I 6);
tuple_dual!(A 0, B 1, C 2, E 3, G 4, H 5, I 6, J 7);
tuple_dual!(A 0, B 1, C 2, E 3, G 4, H 5, I 6, J 7, K 8);
tuple_dual!(A 0, B 1, C 2, E 3, G 4, H 5, I 6, J 7, K 8, L 9);
tuple_dual!(A 0, B 1, C 2, E 3, G 4, H 5, I 6, J 7, K 8, L 9, M 10);
tuple_dual!(A 0, B 1, C 2, E 3, G 4, H 5, I 6, J 7, K 8, L 9, M 10, O 11);

pub(super) use elementwise_elem;
