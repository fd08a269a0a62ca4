//! Arithmetic between a pattern and a plain constant of the primal field, on either
//! side (the pattern's set unchanged), comparisons with constants (decisions), the
//! `Reading` impls that tie `Pattern` to its field, and the conversions generated code
//! uses. A cast to an integer reads the value: a decision, recorded by what the cast
//! gives (the value truncated).

use core::cmp::Ordering;
use core::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Rem, RemAssign, Sub, SubAssign};

use super::{Pattern, ordering_code};
use crate::reading::convert::{IntoReading, ToPrimal};
use crate::{Reading, Real};

macro_rules! pattern_mixed {
    ($f:ident) => {
        constant_impls!(@op {Pattern}, $f Add add AddAssign add_assign |x, c| x.with_value(x.value + c));
        constant_impls!(@op {Pattern}, $f Sub sub SubAssign sub_assign |x, c| x.with_value(x.value - c));
        constant_impls!(@op {Pattern}, $f Mul mul MulAssign mul_assign |x, c| x.with_value(x.value * c));
        constant_impls!(@op {Pattern}, $f Div div DivAssign div_assign |x, c| x.with_value(x.value / c));
        constant_impls!(@op {Pattern}, $f Rem rem RemAssign rem_assign |x, c| x.with_value(x.value % c));
        constant_impls!(@lhs $f {Pattern} Add add radd);
        constant_impls!(@lhs $f {Pattern} Sub sub rsub);
        constant_impls!(@lhs $f {Pattern} Mul mul rmul);
        constant_impls!(@lhs $f {Pattern} Div div rdiv);
        constant_impls!(@lhs $f {Pattern} Rem rem rrem);

        /// Compares the value with a constant: a decision.
        impl<S: Reading<$f>> PartialEq<$f> for Pattern<S> {
            #[inline(always)]
            #[track_caller]
            fn eq(&self, other: &$f) -> bool {
                let outcome = self.value == *other;
                self.decide(u64::from(outcome));
                outcome
            }
        }
        /// Compares the value with a constant: a decision.
        impl<S: Reading<$f>> PartialOrd<$f> for Pattern<S> {
            #[inline(always)]
            #[track_caller]
            fn partial_cmp(&self, other: &$f) -> Option<Ordering> {
                let outcome = self.value.partial_cmp(other);
                self.decide(ordering_code(outcome));
                outcome
            }
            pattern_mixed!(@bool $f lt le gt ge);
        }
        /// Compares a constant with the value: a decision.
        impl<S: Reading<$f>> PartialEq<Pattern<S>> for $f {
            #[inline(always)]
            #[track_caller]
            fn eq(&self, other: &Pattern<S>) -> bool {
                let outcome = other.value == *self;
                other.decide(u64::from(outcome));
                outcome
            }
        }
        /// Compares a constant with the value: a decision.
        impl<S: Reading<$f>> PartialOrd<Pattern<S>> for $f {
            #[inline(always)]
            #[track_caller]
            fn partial_cmp(&self, other: &Pattern<S>) -> Option<Ordering> {
                let outcome = other.value.partial_cmp(self).map(Ordering::reverse);
                other.decide(ordering_code(outcome));
                outcome
            }
        }

        /// The sum of plain constants, as a constant.
        impl<S: Reading<$f>> core::iter::Sum<$f> for Pattern<S> {
            #[inline]
            fn sum<I: Iterator<Item = $f>>(iter: I) -> Self {
                Self::constant(S::constant(iter.sum::<$f>()))
            }
        }

        impl<S: Reading<$f>> Reading<$f> for Pattern<S> {
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
                self.with_value(self.value.rsub(c))
            }
            #[inline(always)]
            fn rmul(self, c: $f) -> Self {
                self.with_value(self.value.rmul(c))
            }
            #[inline(always)]
            fn rdiv(self, c: $f) -> Self {
                self.with_value(self.value.rdiv(c))
            }
            #[inline(always)]
            fn rrem(self, c: $f) -> Self {
                self.with_value(self.value.rrem(c))
            }
            #[inline]
            fn compose(self, derivs: &[$f]) -> Self {
                self.with_value(self.value.compose(derivs))
            }
        }

        impl<S: Reading<$f>> IntoReading<$f, Pattern<S>> for Pattern<S> {
            #[inline(always)]
            fn into_reading(self) -> Self {
                self
            }
        }
    };
    (@bool $f:ident $($name:ident)*) => {
        $(
            #[inline(always)]
            #[track_caller]
            fn $name(&self, other: &$f) -> bool {
                let outcome = self.value.$name(other);
                self.decide(u64::from(outcome));
                outcome
            }
        )*
    };
}

pattern_mixed!(f64);
pattern_mixed!(f32);

/// The value, read where generated code casts to an integer or prints: a decision,
/// recorded as the value truncated (what every cast to an integer keeps).
impl<S: Real + ToPrimal> ToPrimal for Pattern<S> {
    type Primal = S::Primal;
    #[inline(always)]
    #[track_caller]
    fn to_primal(self) -> S::Primal {
        self.decide(self.value.trunc().primal_f64().to_bits());
        self.value.to_primal()
    }
}
