//! Arithmetic between a Taylor polynomial and a plain constant of the primal field, on
//! either side, the `Reading` impls that tie `Taylor` to that field, and the
//! conversions generated code uses (`as f64`, primal of a comparison). Stamped for
//! `f64` and `f32`: a generic scalar on the left is forbidden by the orphan rule.

use core::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Rem, RemAssign, Sub, SubAssign};

use super::Taylor;
use crate::reading::convert::{IntoReading, ToPrimal};
use crate::{Reading, Real};

macro_rules! mixed {
    ($f:ident) => {
        mixed!(@op $f Add add AddAssign add_assign |x, c| Taylor::new(x.c0 + c, x.hi));
        mixed!(@op $f Sub sub SubAssign sub_assign |x, c| Taylor::new(x.c0 - c, x.hi));
        mixed!(@op $f Mul mul MulAssign mul_assign |x, c| Taylor::new(x.c0 * c, x.hi.map(|p| p * c)));
        mixed!(@op $f Div div DivAssign div_assign |x, c| Taylor::new(x.c0 / c, x.hi.map(|p| p / c)));
        mixed!(@op $f Rem rem RemAssign rem_assign |x, c| Taylor::new(x.c0 % c, x.hi));


        constant_impls!($f, Taylor, c0);

        impl<S: Reading<$f>, const K: usize> Reading<$f> for Taylor<S, K> {
            #[inline(always)]
            fn constant(c: $f) -> Self {
                Self::constant(S::constant(c))
            }
            #[inline(always)]
            fn primal_scalar(self) -> $f {
                self.c0.primal_scalar()
            }
            #[inline(always)]
            fn radd(self, c: $f) -> Self {
                Self::new(self.c0.radd(c), self.hi)
            }
            #[inline(always)]
            fn rsub(self, c: $f) -> Self {
                Self::new(self.c0.rsub(c), self.hi.map(|p| -p))
            }
            #[inline(always)]
            fn rmul(self, c: $f) -> Self {
                Self::new(self.c0.rmul(c), self.hi.map(|p| p.rmul(c)))
            }
            #[inline]
            fn rdiv(self, c: $f) -> Self {
                let q = self.c0.rdiv(c);
                if self.is_flat() {
                    return Self::constant(q);
                }
                Self::constant(S::constant(c)).div_series(&self, q)
            }
            #[inline]
            fn rrem(self, c: $f) -> Self {
                let r = self.c0.rrem(c);
                let n = ((r.rsub(c)) / self.c0).round();
                Self::new(r, self.hi.map(|p| -(n * p)))
            }
            #[inline]
            fn compose(self, derivs: &[$f]) -> Self {
                // f⁽ⁿ⁾ at the value, itself a reading: the n-th shift of the list.
                let a0 = self.c0;
                self.compose_series(|n| a0.compose(derivs.get(n..).unwrap_or(&[])))
            }
        }

        impl<S: Reading<$f>, const K: usize> IntoReading<$f, Taylor<S, K>> for Taylor<S, K> {
            #[inline(always)]
            fn into_reading(self) -> Self {
                self
            }
        }
    };
    (@op $($t:tt)*) => {
        constant_impls!(@op Taylor, $($t)*);
    };
}

mixed!(f64);
mixed!(f32);

impl<S: Real + ToPrimal, const K: usize> ToPrimal for Taylor<S, K> {
    type Primal = S::Primal;
    #[inline(always)]
    fn to_primal(self) -> S::Primal {
        self.c0.to_primal()
    }
}
