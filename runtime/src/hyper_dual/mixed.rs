//! Arithmetic between a hyper-dual number and a plain constant of the primal field, on
//! either side, the `Reading` impls that tie `HyperDual` to that field, and the
//! conversions generated code uses (`as f64`, primal of a comparison). Stamped for
//! `f64` and `f32`: a generic scalar on the left is forbidden by the orphan rule.

use core::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Rem, RemAssign, Sub, SubAssign};

use super::HyperDual;
use crate::reading::convert::{IntoReading, ToPrimal};
use crate::{Reading, Real};

macro_rules! mixed {
    ($f:ident) => {
        mixed!(@op $f Add add AddAssign add_assign |x, c| x.with_value(x.value + c));
        mixed!(@op $f Sub sub SubAssign sub_assign |x, c| x.with_value(x.value - c));
        mixed!(@op $f Mul mul MulAssign mul_assign |x, c| x.map(x.value * c, |p| p * c));
        mixed!(@op $f Div div DivAssign div_assign |x, c| x.map(x.value / c, |p| p / c));
        mixed!(@op $f Rem rem RemAssign rem_assign |x, c| x.with_value(x.value % c));

        constant_impls!($f, HyperDual<S>, value);

        impl<S: Reading<$f>> Reading<$f> for HyperDual<S> {
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
                self.with_value(self.value.radd(c))
            }
            #[inline(always)]
            fn rsub(self, c: $f) -> Self {
                self.map(self.value.rsub(c), |p| -p)
            }
            #[inline(always)]
            fn rmul(self, c: $f) -> Self {
                self.map(self.value.rmul(c), |p| p.rmul(c))
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
                self.map(r, |p| -(n * p))
            }
            #[inline]
            fn compose(self, derivs: &[$f]) -> Self {
                // f, f′ and f″ at the value, each itself a reading: shifts of the list.
                let a = self.value;
                let at = |n: usize| a.compose(derivs.get(n..).unwrap_or(&[]));
                self.chain_sz(at(0), at(1), at(2))
            }
        }

        impl<S: Reading<$f>> IntoReading<$f, HyperDual<S>> for HyperDual<S> {
            #[inline(always)]
            fn into_reading(self) -> Self {
                self
            }
        }
    };
    (@op $($t:tt)*) => {
        constant_impls!(@op HyperDual<S>, $($t)*);
    };
}

mixed!(f64);
mixed!(f32);

impl<S: Real + ToPrimal> ToPrimal for HyperDual<S> {
    type Primal = S::Primal;
    #[inline(always)]
    fn to_primal(self) -> S::Primal {
        self.value.to_primal()
    }
}
