//! Arithmetic between a hyper-dual number and a plain constant of the primal field, on
//! either side, the `Reading` impls that tie `HyperDual` to that field, and the
//! conversions generated code uses: the shared `mixed_impls!`, with its quotient and
//! composition.

use core::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Rem, RemAssign, Sub, SubAssign};

use super::HyperDual;
use crate::reading::convert::{IntoReading, ToPrimal};
use crate::reading::rdiv_derivatives;
use crate::{Reading, Real};

mixed_impls!({HyperDual}, value, with_value, map,
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
