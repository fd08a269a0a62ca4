//! Arithmetic between a diagonal jet and a plain constant of the primal field, on
//! either side, the `Reading` impls that tie `DiagJet` to that field, and the
//! conversions generated code uses (`as f64`, primal of a comparison). Stamped for
//! `f64` and `f32`: a generic scalar on the left is forbidden by the orphan rule.

use core::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Rem, RemAssign, Sub, SubAssign};

use super::DiagJet;
use crate::reading::convert::{IntoReading, ToPrimal};
use crate::{Reading, Real};

macro_rules! mixed {
    ($f:ident) => {
        mixed!(@op $f Add add AddAssign add_assign |x, c| DiagJet::new(x.value + c, x.first, x.second));
        mixed!(@op $f Sub sub SubAssign sub_assign |x, c| DiagJet::new(x.value - c, x.first, x.second));
        mixed!(@op $f Mul mul MulAssign mul_assign |x, c| DiagJet::new(x.value * c, x.first.map(|p| p * c), x.second.map(|p| p * c)));
        mixed!(@op $f Div div DivAssign div_assign |x, c| DiagJet::new(x.value / c, x.first.map(|p| p / c), x.second.map(|p| p / c)));
        mixed!(@op $f Rem rem RemAssign rem_assign |x, c| DiagJet::new(x.value % c, x.first, x.second));


        constant_impls!($f, DiagJet, value);

        impl<S: Reading<$f>, const N: usize> Reading<$f> for DiagJet<S, N> {
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
                Self::new(self.value.radd(c), self.first, self.second)
            }
            #[inline(always)]
            fn rsub(self, c: $f) -> Self {
                Self::new(
                    self.value.rsub(c),
                    self.first.map(|p| -p),
                    self.second.map(|p| -p),
                )
            }
            #[inline(always)]
            fn rmul(self, c: $f) -> Self {
                Self::new(
                    self.value.rmul(c),
                    self.first.map(|p| p.rmul(c)),
                    self.second.map(|p| p.rmul(c)),
                )
            }
            #[inline]
            fn rdiv(self, c: $f) -> Self {
                // c / x: f′ = −(c / x) / x, f″ = −2 f′ / x.
                let x = self.value;
                let q = x.rdiv(c);
                if self.is_flat() {
                    return Self::constant(q);
                }
                let f1 = -(q / x);
                let f2 = -(f1 + f1) / x;
                self.chain_sz(q, f1, f2)
            }
            #[inline]
            fn rrem(self, c: $f) -> Self {
                let r = self.value.rrem(c);
                let n = ((r.rsub(c)) / self.value).round();
                Self::new(r, self.first.map(|p| -(n * p)), self.second.map(|p| -(n * p)))
            }
            #[inline]
            fn compose(self, derivs: &[$f]) -> Self {
                // f, f′ and f″ at the value, each itself a reading: shifts of the list.
                let a = self.value;
                let at = |n: usize| a.compose(derivs.get(n..).unwrap_or(&[]));
                self.chain_sz(at(0), at(1), at(2))
            }
        }

        impl<S: Reading<$f>, const N: usize> IntoReading<$f, DiagJet<S, N>> for DiagJet<S, N> {
            #[inline(always)]
            fn into_reading(self) -> Self {
                self
            }
        }
    };
    (@op $($t:tt)*) => {
        constant_impls!(@op DiagJet, $($t)*);
    };
}

mixed!(f64);
mixed!(f32);

impl<S: Real + ToPrimal, const N: usize> ToPrimal for DiagJet<S, N> {
    type Primal = S::Primal;
    #[inline(always)]
    fn to_primal(self) -> S::Primal {
        self.value.to_primal()
    }
}
