//! Arithmetic between a zero-skipping dual and a plain constant of the primal field,
//! on either side, the `Reading` impls that tie `ZDual` to that field, and the
//! conversions generated code uses: the shared `mixed_impls!`. Each formula is
//! `NDual`'s; a flat operand stays flat.

use core::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Rem, RemAssign, Sub, SubAssign};

use super::{ZDual, zmap};
use crate::reading::convert::{IntoReading, ToPrimal};
use crate::{NDual, Reading, Real};

impl<S: Real, const N: usize> ZDual<S, N> {
    /// The same partials (or none) with another value.
    #[inline(always)]
    fn with_value(self, value: S) -> Self {
        Self { value, ..self }
    }

    /// The given value with every partial through `f`; none stay none.
    #[inline(always)]
    fn map(self, value: S, f: impl Fn(S) -> S) -> Self {
        Self {
            value,
            partials: self.partials.map(|p| p.map(&f)),
        }
    }
}

mixed_impls!({ZDual N}, value, with_value, map,
    rdiv: |x, c| zmap!(x, |d| d.rdiv(c)),
    compose: |x, derivs| zmap!(x, |d| d.compose(derivs)),
);
