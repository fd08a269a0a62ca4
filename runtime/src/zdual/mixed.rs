//! Arithmetic between a zero-skipping dual and a plain constant of the primal field,
//! on either side, the `Reading` impls that tie `ZDual` to that field, and the
//! conversions generated code uses. Stamped for `f64` and `f32`: a generic scalar on
//! the left is forbidden by the orphan rule. Each formula is `NDual`'s; a flat operand
//! stays flat.

use core::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Rem, RemAssign, Sub, SubAssign};

use super::{ZDual, zmap};
use crate::reading::convert::{IntoReading, ToPrimal};
use crate::{NDual, Reading, Real};

macro_rules! mixed {
    ($f:ident) => {
        mixed!(@op $f Add add AddAssign add_assign |x, c| ZDual { value: x.value + c, partials: x.partials });
        mixed!(@op $f Sub sub SubAssign sub_assign |x, c| ZDual { value: x.value - c, partials: x.partials });
        mixed!(@op $f Mul mul MulAssign mul_assign |x, c| ZDual {
            value: x.value * c,
            partials: x.partials.map(|p| p.map(|p| p * c)),
        });
        mixed!(@op $f Div div DivAssign div_assign |x, c| ZDual {
            value: x.value / c,
            partials: x.partials.map(|p| p.map(|p| p / c)),
        });
        mixed!(@op $f Rem rem RemAssign rem_assign |x, c| ZDual { value: x.value % c, partials: x.partials });


        constant_impls!($f, ZDual, value);

        impl<S: Reading<$f>, const N: usize> Reading<$f> for ZDual<S, N> {
            #[inline(always)]
            fn constant(c: $f) -> Self {
                Self::constant(S::constant(c))
            }
            #[inline(always)]
            fn primal_scalar(self) -> $f {
                self.value.primal_scalar()
            }
            #[inline(always)]
            fn radd(self, c: $f) -> Self {
                Self { value: self.value.radd(c), partials: self.partials }
            }
            #[inline(always)]
            fn rsub(self, c: $f) -> Self {
                Self {
                    value: self.value.rsub(c),
                    partials: self.partials.map(|p| p.map(|p| -p)),
                }
            }
            #[inline(always)]
            fn rmul(self, c: $f) -> Self {
                Self {
                    value: self.value.rmul(c),
                    partials: self.partials.map(|p| p.map(|p| p.rmul(c))),
                }
            }
            #[inline(always)]
            fn rdiv(self, c: $f) -> Self {
                zmap!(self, |d| d.rdiv(c))
            }
            #[inline(always)]
            fn rrem(self, c: $f) -> Self {
                zmap!(self, |d| d.rrem(c))
            }
            #[inline(always)]
            fn compose(self, derivs: &[$f]) -> Self {
                zmap!(self, |d| d.compose(derivs))
            }
        }

        impl<S: Reading<$f>, const N: usize> IntoReading<$f, ZDual<S, N>> for ZDual<S, N> {
            #[inline(always)]
            fn into_reading(self) -> Self {
                self
            }
        }
    };
    (@op $($t:tt)*) => {
        constant_impls!(@op ZDual, $($t)*);
    };
}

mixed!(f64);
mixed!(f32);

impl<S: Real + ToPrimal, const N: usize> ToPrimal for ZDual<S, N> {
    type Primal = S::Primal;
    #[inline(always)]
    fn to_primal(self) -> S::Primal {
        self.value.to_primal()
    }
}
