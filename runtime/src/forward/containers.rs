//! Forward values made of other forward values, element by element: `Vec`s and
//! slices of forward values, fixed arrays, `Option`, `Result` and tuples.

use super::ForwardValue;

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

/// Tuples: element-wise, up to 12 elements.
macro_rules! tuple_forward_value {
    ($($T:ident $i:tt),*) => {
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
    };
}

tuple_forward_value!(A 0);
tuple_forward_value!(A 0, B 1);
tuple_forward_value!(A 0, B 1, C 2);
tuple_forward_value!(A 0, B 1, C 2, E 3);
tuple_forward_value!(A 0, B 1, C 2, E 3, G 4);
tuple_forward_value!(A 0, B 1, C 2, E 3, G 4, H 5);
tuple_forward_value!(A 0, B 1, C 2, E 3, G 4, H 5, I 6);
tuple_forward_value!(A 0, B 1, C 2, E 3, G 4, H 5, I 6, J 7);
tuple_forward_value!(A 0, B 1, C 2, E 3, G 4, H 5, I 6, J 7, K 8);
tuple_forward_value!(A 0, B 1, C 2, E 3, G 4, H 5, I 6, J 7, K 8, L 9);
tuple_forward_value!(A 0, B 1, C 2, E 3, G 4, H 5, I 6, J 7, K 8, L 9, M 10);
tuple_forward_value!(A 0, B 1, C 2, E 3, G 4, H 5, I 6, J 7, K 8, L 9, M 10, O 11);
