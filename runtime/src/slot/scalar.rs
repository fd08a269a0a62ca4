//! Scalars (`f64`, `f32`, nested `NDual`s): their forward value is an `NDual`, and
//! arrays of them are the element-major `NDualArray` and its views.

use super::{Dual, DualElem, ForwardValue, ZeroLift};
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

impl<S: ArrayReading, const N: usize> ZeroLift for NDual<S, N> {
    type From = S;
    #[inline(always)]
    fn zero_lift(primal: S) -> Self {
        NDual::constant(primal)
    }
}

/// Scalars: the forward value is an `NDual`, arrays of them are element-major.
macro_rules! scalar_dual {
    ([$($g:tt)*] $t:ty) => {
        impl<$($g)* const N: usize> Dual<N> for $t {
            type Value = NDual<$t, N>;
        }
        impl<$($g)* const N: usize> DualElem<N> for $t {
            type Vec = NDualArray<$t, N>;
            type Ref<'a> = NDualRef<'a, $t, N>;
            type Mut<'a> = NDualMut<'a, $t, N>;
        }
    };
}

scalar_dual!([] f64);
scalar_dual!([] f32);
scalar_dual!([S: ArrayReading, const M: usize,] NDual<S, M>);

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

impl<S: ArrayReading, const N: usize> ZeroLift for NDualArray<S, N> {
    type From = Vec<S>;
    #[inline]
    fn zero_lift(primal: Vec<S>) -> Self {
        NDualArray::constant(primal)
    }
}
