//! Arithmetic between a dual and a plain constant of the primal field, on either side,
//! the `Reading` impls that tie `NDual` to that field, and the conversions generated
//! code uses: the shared `mixed_impls!`, with `NDual`'s quotient and composition.

use core::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Rem, RemAssign, Sub, SubAssign};

use super::NDual;
use crate::reading::convert::{IntoReading, ToPrimal};
use crate::{Reading, Real};

impl<S: Real, const N: usize> NDual<S, N> {
    /// The same partials with another value.
    #[inline(always)]
    fn with_value(self, value: S) -> Self {
        Self::new(value, self.partials)
    }

    /// The given value with every partial through `f`.
    #[inline(always)]
    fn map(self, value: S, f: impl Fn(S) -> S) -> Self {
        Self::new(value, self.partials.map(f))
    }
}

mixed_impls!({NDual N}, value, with_value, map,
    // d(c / x) = -(c / x) · (1 / x) · ẋ. The value is the primal's quotient; the
    // reciprocal does not wait for it (two independent divisions, not a chain of two),
    // and for c = 1 it is the same division.
    rdiv: |x, c| {
        let q = x.value.rdiv(c);
        let r = x.value.recip();
        x.chain_sz(q, -(q * r))
    },
    compose: |x, derivs| {
        let value = x.value.compose(derivs);
        let df = x.value.compose(derivs.get(1..).unwrap_or(&[]));
        x.chain(value, df)
    },
);
