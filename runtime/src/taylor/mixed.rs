//! Arithmetic between a Taylor polynomial and a plain constant of the primal field, on
//! either side, the `Reading` impls that tie `Taylor` to that field, and the
//! conversions generated code uses (`as f64`, primal of a comparison). Stamped for
//! `f64` and `f32`: a generic scalar on the left is forbidden by the orphan rule.

use core::cmp::Ordering;
use core::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Rem, RemAssign, Sub, SubAssign};

use super::Taylor;
use crate::lowering::{IntoReading, ToPrimal};
use crate::{Reading, Real};

macro_rules! mixed {
    ($f:ident) => {
        mixed!(@op $f Add add AddAssign add_assign |x, c| Taylor::new(x.c0 + c, x.hi));
        mixed!(@op $f Sub sub SubAssign sub_assign |x, c| Taylor::new(x.c0 - c, x.hi));
        mixed!(@op $f Mul mul MulAssign mul_assign |x, c| Taylor::new(x.c0 * c, x.hi.map(|p| p * c)));
        mixed!(@op $f Div div DivAssign div_assign |x, c| Taylor::new(x.c0 / c, x.hi.map(|p| p / c)));
        mixed!(@op $f Rem rem RemAssign rem_assign |x, c| Taylor::new(x.c0 % c, x.hi));

        mixed!(@lhs $f Add add radd);
        mixed!(@lhs $f Sub sub rsub);
        mixed!(@lhs $f Mul mul rmul);
        mixed!(@lhs $f Div div rdiv);
        mixed!(@lhs $f Rem rem rrem);

        /// Compares the value with a constant.
        impl<S: Reading<$f>, const K: usize> PartialEq<$f> for Taylor<S, K> {
            #[inline(always)]
            fn eq(&self, other: &$f) -> bool {
                self.c0 == *other
            }
        }
        /// Compares the value with a constant.
        impl<S: Reading<$f>, const K: usize> PartialOrd<$f> for Taylor<S, K> {
            #[inline(always)]
            fn partial_cmp(&self, other: &$f) -> Option<Ordering> {
                self.c0.partial_cmp(other)
            }
        }
        /// Compares a constant with the value.
        impl<S: Reading<$f>, const K: usize> PartialEq<Taylor<S, K>> for $f {
            #[inline(always)]
            fn eq(&self, other: &Taylor<S, K>) -> bool {
                other.c0 == *self
            }
        }
        /// Compares a constant with the value.
        impl<S: Reading<$f>, const K: usize> PartialOrd<Taylor<S, K>> for $f {
            #[inline(always)]
            fn partial_cmp(&self, other: &Taylor<S, K>) -> Option<Ordering> {
                other.c0.partial_cmp(self).map(Ordering::reverse)
            }
        }

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
    (@op $f:ident $Op:ident $op:ident $OpAssign:ident $op_assign:ident |$x:ident, $c:ident| $body:expr) => {
        impl<S: Reading<$f>, const K: usize> $Op<$f> for Taylor<S, K> {
            type Output = Self;
            #[inline(always)]
            fn $op(self, $c: $f) -> Self {
                let $x = self;
                $body
            }
        }
        impl<S: Reading<$f>, const K: usize> $Op<$f> for &Taylor<S, K> {
            type Output = Taylor<S, K>;
            #[inline(always)]
            fn $op(self, $c: $f) -> Taylor<S, K> {
                let $x = *self;
                $body
            }
        }
        impl<S: Reading<$f>, const K: usize> $OpAssign<$f> for Taylor<S, K> {
            #[inline(always)]
            fn $op_assign(&mut self, $c: $f) {
                let $x = *self;
                *self = $body;
            }
        }
    };
    (@lhs $f:ident $Op:ident $op:ident $method:ident) => {
        impl<S: Reading<$f>, const K: usize> $Op<Taylor<S, K>> for $f {
            type Output = Taylor<S, K>;
            #[inline(always)]
            fn $op(self, x: Taylor<S, K>) -> Taylor<S, K> {
                x.$method(self)
            }
        }
        impl<S: Reading<$f>, const K: usize> $Op<&Taylor<S, K>> for $f {
            type Output = Taylor<S, K>;
            #[inline(always)]
            fn $op(self, x: &Taylor<S, K>) -> Taylor<S, K> {
                x.$method(self)
            }
        }
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
