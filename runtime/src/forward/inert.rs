//! Types without derivatives (integers, `bool`, `char`, `()`, strings): each is its own
//! forward value, with a [`NoDual`] tangent.

use super::{ForwardValue, NoDual};

/// Types without derivatives are their own forward value, with a [`NoDual`] tangent.
macro_rules! inert {
    ($([$($g:tt)*] $t:ty),* $(,)?) => {$(
        impl<$($g)*> ForwardValue for $t {
            type Primal<'s>
                = &'s $t
            where
                Self: 's;
            type Tangent<'s>
                = NoDual
            where
                Self: 's;
            type Lane<'s>
                = NoDual
            where
                Self: 's;
            #[inline(always)]
            fn primal(&self) -> &$t {
                self
            }
            #[inline(always)]
            fn tangent(&self) -> NoDual {
                NoDual
            }
            #[inline(always)]
            fn tangent_lane(&self, _lane: usize) -> NoDual {
                NoDual
            }
        }
    )*};
}

inert!(
    [] i8,
    [] i16,
    [] i32,
    [] i64,
    [] i128,
    [] isize,
    [] u8,
    [] u16,
    [] u32,
    [] u64,
    [] u128,
    [] usize,
    [] bool,
    [] char,
    [] (),
    [] String,
    ['t,] &'t str,
);
