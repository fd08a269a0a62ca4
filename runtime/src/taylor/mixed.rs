//! Arithmetic between a Taylor polynomial and a plain constant of the primal field, on
//! either side, the `Reading` impls that tie `Taylor` to that field, and the
//! conversions generated code uses: the shared `mixed_impls!`, with the series'
//! quotient and composition.

use core::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Rem, RemAssign, Sub, SubAssign};

use super::Taylor;
use crate::reading::convert::{IntoReading, ToPrimal};
use crate::{Reading, Real};

mixed_impls!({Taylor K}, c0, with_value, map_hi,
    rdiv: |x, c| {
        let q = x.c0.rdiv(c);
        if x.is_flat() {
            return Self::constant(q);
        }
        Self::constant(S::constant(c)).div_series(&x, q)
    },
    // f⁽ⁿ⁾ at the value, itself a reading: the n-th shift of the list.
    compose: |x, derivs| {
        let a0 = x.c0;
        x.compose_series(|n| a0.compose(derivs.get(n..).unwrap_or(&[])))
    },
);
