//! `NDual`s and the element-major `NDualArray` and its views.

use super::ForwardValue;
use crate::array::{ArrayReading, LaneRef};
use crate::{NDual, NDualArray, NDualMut, NDualRef};

impl<S: ArrayReading, const N: usize> ForwardValue for NDual<S, N> {
    type Primal<'a> = S;
    type Tangent<'a> = &'a [S; N];
    type Lane<'a> = S;
    #[inline(always)]
    fn primal(&self) -> S {
        self.value()
    }
    #[inline(always)]
    fn tangent(&self) -> &[S; N] {
        self.partials()
    }
    #[inline(always)]
    #[track_caller]
    fn tangent_lane(&self, lane: usize) -> S {
        self.partial(lane)
    }
}

/// The accessors of the element-major arrays: the primal buffer, the block, a lane.
macro_rules! array_forward_value {
    ($($ty:ty),*) => {$(
        impl<S: ArrayReading, const N: usize> ForwardValue for $ty {
            type Primal<'s>
                = &'s [S]
            where
                Self: 's;
            type Tangent<'s>
                = &'s [S]
            where
                Self: 's;
            type Lane<'s>
                = LaneRef<'s, S, N>
            where
                Self: 's;
            #[inline(always)]
            fn primal(&self) -> &[S] {
                self.as_primal_slice()
            }
            #[inline(always)]
            fn tangent(&self) -> &[S] {
                self.partials_block()
            }
            #[inline(always)]
            #[track_caller]
            fn tangent_lane(&self, lane: usize) -> LaneRef<'_, S, N> {
                self.lane(lane)
            }
        }
    )*};
}

array_forward_value!(NDualArray<S, N>, NDualRef<'_, S, N>, NDualMut<'_, S, N>);
