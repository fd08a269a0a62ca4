//! [`Reading<F>`]: the bound every derived rule carries on its reading parameter.
//!
//! It sits above the scalar trait [`Real`] and the array family
//! ([`ArrayReading`]): a derived rule needs both, and one bound keeps generated code and
//! the signatures of [`FRule::frule`](crate::FRule::frule) to a single name. What it adds
//! itself is what involves plain values of the primal field `F`.

use core::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Rem, RemAssign, Sub, SubAssign};

use crate::array::ArrayReading;
use crate::reading::convert::{IntoReading, ToPrimal};
use crate::{Real, Scalar};

/// A reading of the primal field `F`: the bound every derived rule carries on its
/// reading parameter (`fn frule<D: Reading<f64>>`).
///
/// Adds what involves plain `F` values: mixed arithmetic with constants on the right
/// (`x * 2.0`), the constant-on-the-left forms as methods (`2.0 - x` is lowered to
/// `x.rsub(2.0)`, because `impl Sub<D> for f64` cannot be written for a generic `D`),
/// comparisons with constants, zero-lifting and the primal scalar.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a reading of `{F}`",
    note = "a function written in `{F}` runs on readings of `{F}`: `{F}` itself, or `lifted::NDual<S, N>`, `Taylor<S, K>`, `DiagJet<S, N>`, `HyperDual<S>`, `ZDual<S, N>` with `S` a reading of `{F}`"
)]
pub trait Reading<F: Scalar>:
    Real<Field = F>
    + ArrayReading
    + IntoReading<F, Self>
    + ToPrimal<Primal = F>
    + PartialEq<F>
    + PartialOrd<F>
    + Add<F, Output = Self>
    + Sub<F, Output = Self>
    + Mul<F, Output = Self>
    + Div<F, Output = Self>
    + Rem<F, Output = Self>
    + AddAssign<F>
    + SubAssign<F>
    + MulAssign<F>
    + DivAssign<F>
    + RemAssign<F>
    + core::iter::Sum<F>
{
    /// The constant `c`, zero-lifted (every tangent component is zero).
    fn constant(c: F) -> Self;
    /// The primal scalar: what comparisons, branches and casts to integers look at.
    fn primal_scalar(self) -> F;
    /// `c + self`.
    fn radd(self, c: F) -> Self;
    /// `c - self`.
    fn rsub(self, c: F) -> Self;
    /// `c * self`.
    fn rmul(self, c: F) -> Self;
    /// `c / self`.
    fn rdiv(self, c: F) -> Self;
    /// `c % self`.
    fn rrem(self, c: F) -> Self;
    /// Applies a scalar function given its value and derivatives at the primal:
    /// `derivs[j]` is the j-th derivative of the function at `self.primal_scalar()`.
    /// Needs `derivs.len() > Self::ORDER`; missing derivatives read as NaN.
    /// This is how a hand-written scalar primitive runs on any reading.
    fn compose(self, derivs: &[F]) -> Self;
}

/// The primal readings: `f64` and `f32` read as themselves.
macro_rules! primal_reading {
    ($f:ident) => {
        impl Reading<$f> for $f {
            #[inline(always)]
            fn constant(c: $f) -> Self {
                c
            }
            #[inline(always)]
            fn primal_scalar(self) -> $f {
                self
            }
            #[inline(always)]
            fn radd(self, c: $f) -> Self {
                c + self
            }
            #[inline(always)]
            fn rsub(self, c: $f) -> Self {
                c - self
            }
            #[inline(always)]
            fn rmul(self, c: $f) -> Self {
                c * self
            }
            #[inline(always)]
            fn rdiv(self, c: $f) -> Self {
                c / self
            }
            #[inline(always)]
            fn rrem(self, c: $f) -> Self {
                c % self
            }
            #[inline(always)]
            fn compose(self, derivs: &[$f]) -> Self {
                derivs.first().copied().unwrap_or($f::NAN)
            }
        }
    };
}

primal_reading!(f64);
primal_reading!(f32);
