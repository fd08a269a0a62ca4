//! Arithmetic between a dual and a plain constant of the primal field, on either side,
//! and the `Reading` impl that ties `NDual` to that field. Stamped for `f64` and `f32`:
//! a generic scalar on the left is forbidden by the orphan rule.

use core::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Rem, RemAssign, Sub, SubAssign};

use super::NDual;
use crate::{Reading, Real};

macro_rules! mixed {
    ($f:ident) => {
        mixed!(@op $f Add add AddAssign add_assign |x, c| NDual::new(x.value + c, x.partials));
        mixed!(@op $f Sub sub SubAssign sub_assign |x, c| NDual::new(x.value - c, x.partials));
        mixed!(@op $f Mul mul MulAssign mul_assign |x, c| NDual::new(x.value * c, x.partials.map(|p| p * c)));
        mixed!(@op $f Div div DivAssign div_assign |x, c| NDual::new(x.value / c, x.partials.map(|p| p / c)));
        mixed!(@op $f Rem rem RemAssign rem_assign |x, c| NDual::new(x.value % c, x.partials));


        constant_impls!($f, NDual, value);

        impl<S: Reading<$f>, const N: usize> Reading<$f> for NDual<S, N> {
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
                Self::new(self.value.radd(c), self.partials)
            }
            #[inline(always)]
            fn rsub(self, c: $f) -> Self {
                Self::new(self.value.rsub(c), self.partials.map(|p| -p))
            }
            #[inline(always)]
            fn rmul(self, c: $f) -> Self {
                Self::new(self.value.rmul(c), self.partials.map(|p| p.rmul(c)))
            }
            #[inline(always)]
            fn rdiv(self, c: $f) -> Self {
                // d(c / x) = -(c / x) · (1 / x) · ẋ. The value is the primal's quotient;
                // the reciprocal does not wait for it (two independent divisions, not a
                // chain of two), and for c = 1 it is the same division.
                let q = self.value.rdiv(c);
                let r = self.value.recip();
                self.chain_sz(q, -(q * r))
            }
            #[inline(always)]
            fn rrem(self, c: $f) -> Self {
                let r = self.value.rrem(c);
                let n = ((r.rsub(c)) / self.value).round();
                Self::new(r, self.partials.map(|p| -(n * p)))
            }
            #[inline]
            fn compose(self, derivs: &[$f]) -> Self {
                let value = self.value.compose(derivs);
                let df = self.value.compose(derivs.get(1..).unwrap_or(&[]));
                self.chain(value, df)
            }
        }
    };
    (@op $($t:tt)*) => {
        constant_impls!(@op NDual, $($t)*);
    };
}

mixed!(f64);
mixed!(f32);

// `Real` is needed in scope for the stamped bodies' method calls on `S`.
#[allow(unused_imports)]
use Real as _;
