//! Arithmetic between a diagonal jet and a plain constant of the primal field, on
//! either side, the `Reading` impls that tie `DiagJet` to that field, and the
//! conversions generated code uses: the shared `mixed_impls!` in its second-order
//! form.

use core::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Rem, RemAssign, Sub, SubAssign};

use super::DiagJet;
use crate::reading::convert::{IntoReading, ToPrimal};
use crate::{Reading, Real};

impl<S: Real, const N: usize> DiagJet<S, N> {
    /// The same partials with another value.
    #[inline(always)]
    fn with_value(self, value: S) -> Self {
        Self::new(value, self.first, self.second)
    }

    /// The given value with every partial through the linear map `f`.
    #[inline(always)]
    fn map(&self, value: S, f: impl Fn(S) -> S) -> Self {
        Self::new(value, self.first.map(&f), self.second.map(&f))
    }
}

mixed_impls!({DiagJet N}, value, with_value, map, second_order);
