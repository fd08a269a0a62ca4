//! Arithmetic between a diagonal jet and a plain constant of the primal field, on
//! either side, the `Reading` impls that tie `DiagJet` to that field, and the
//! conversions generated code uses: the shared `mixed_impls!`, with the jet's quotient
//! and composition.

use core::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Rem, RemAssign, Sub, SubAssign};

use super::DiagJet;
use crate::reading::convert::{IntoReading, ToPrimal};
use crate::reading::rdiv_derivatives;
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

mixed_impls!({DiagJet N}, value, with_value, map,
    rdiv: |x, c| {
        let q = x.value.rdiv(c);
        if x.is_flat() {
            return Self::constant(q);
        }
        let (f1, f2) = rdiv_derivatives(q, x.value);
        x.chain_sz(q, f1, f2)
    },
    // f, f′ and f″ at the value, each itself a reading: shifts of the list.
    compose: |x, derivs| {
        let a = x.value;
        let at = |n: usize| a.compose(derivs.get(n..).unwrap_or(&[]));
        x.chain_sz(at(0), at(1), at(2))
    },
);
