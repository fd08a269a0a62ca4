//! Arithmetic between patterns (every operator's set the union of its operands'),
//! stamped for owned and borrowed operands by the shared `operator_impls!`; the
//! comparisons, which are decisions the tape records.

use core::cmp::Ordering;
use core::iter::{Product, Sum};
use core::ops::{
    Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Rem, RemAssign, Sub, SubAssign,
};

use super::{Pattern, ordering_code};
use crate::Real;
use crate::sparse::trace;

impl<S: Real> Pattern<S> {
    #[inline(always)]
    fn add_impl(&self, rhs: &Self) -> Self {
        self.joined(*rhs, self.value + rhs.value)
    }

    #[inline(always)]
    fn sub_impl(&self, rhs: &Self) -> Self {
        self.joined(*rhs, self.value - rhs.value)
    }

    #[inline(always)]
    fn mul_impl(&self, rhs: &Self) -> Self {
        self.joined(*rhs, self.value * rhs.value)
    }

    #[inline(always)]
    fn div_impl(&self, rhs: &Self) -> Self {
        self.joined(*rhs, self.value / rhs.value)
    }

    #[inline(always)]
    fn rem_impl(&self, rhs: &Self) -> Self {
        self.joined(*rhs, self.value % rhs.value)
    }
}

operator_impls!(@arith {Pattern});

impl<S: Real> Neg for Pattern<S> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        self.with_value(-self.value)
    }
}

impl<S: Real> num_traits::Zero for Pattern<S> {
    #[inline(always)]
    fn zero() -> Self {
        Self::constant(S::zero())
    }
    /// A zero that depends on no input.
    #[inline(always)]
    fn is_zero(&self) -> bool {
        self.is_constant() && self.value.is_zero()
    }
}

/// Each comparison decides on the values at the point and records the outcome for the
/// two operands' sets (nothing when both are constants).
macro_rules! recorded_bool {
    ($($name:ident)*) => {
        $(
            #[inline(always)]
            #[track_caller]
            fn $name(&self, other: &Self) -> bool {
                let outcome = self.value.$name(&other.value);
                trace::decide(self.set, other.set, u64::from(outcome));
                outcome
            }
        )*
    };
}

/// Equality of the values, recorded as a decision.
impl<S: Real> PartialEq for Pattern<S> {
    recorded_bool!(eq);
}

/// Ordering of the values, recorded as a decision.
impl<S: Real> PartialOrd for Pattern<S> {
    #[inline(always)]
    #[track_caller]
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        let outcome = self.value.partial_cmp(&other.value);
        trace::decide(self.set, other.set, ordering_code(outcome));
        outcome
    }
    recorded_bool!(lt le gt ge);
}
