//! The readings: what a user's float becomes inside a derived rule.
//!
//! A derived rule is generic over its *reading* `D`. Running it at `D = f64` reproduces
//! the primal function; at `D = NDual<f64, N>` it carries N tangent directions; at
//! `D = NDual<NDual<f64, 1>, 1>` it computes second derivatives; at
//! `D = Taylor<f64, K>` a derivative tower of order K along one direction; at
//! `D = DiagJet<f64, N>` first and pure second derivatives along N coordinates; at
//! `D = HyperDual<f64>` the mixed second derivative of two seeded directions; at
//! `D = ZDual<f64, N>` the partials of values that carry none are skipped; at the CUDA
//! reading `DeviceDual<S, N>` arrays live on a GPU. A reading slots in by implementing
//! these two traits, without any change to generated code; the derivatives of the float
//! functions come from the derivative table (`reading::table`), so a reading adds only
//! its own algebra.
//!
//! * [`Real`] is the arithmetic and the float method surface of a reading, with no
//!   reference to the primal field. Rules for scalar maths are written once against it.
//!   It is the bottom of the house and names nothing above it.
//! * [`ArrayReading`](crate::array::ArrayReading), in the array layer above, gives a
//!   reading its arrays (the forward values of `Vec<f64>`, `&[f64]`, `&mut [f64]`).
//! * [`Reading<F>`](crate::Reading), above both, is the bound generated code names: mixed
//!   arithmetic with plain `F` constants, zero-lifting, the primal scalar that
//!   comparisons and branches look at, and the arrays.

use core::fmt::{Debug, Display};
use core::iter::{Product, Sum};
use core::ops::{
    Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Rem, RemAssign, Sub, SubAssign,
};

use crate::Scalar;

macro_rules! declare_unary {
    ([] $($name:ident)*) => {
        $(
            #[doc = concat!("`", stringify!($name), "` of the reading (the primal's `f64::", stringify!($name), "`).")]
            fn $name(self) -> Self;
        )*
    };
}

/// The arithmetic and float method surface shared by every reading.
///
/// Implemented by `f64` and `f32` (the primal readings) and by
/// [`NDual<S, N>`](crate::NDual), [`Taylor<S, K>`](crate::Taylor),
/// [`DiagJet<S, N>`](crate::DiagJet), [`HyperDual<S>`](crate::HyperDual) and
/// [`ZDual<S, N>`](crate::ZDual) for every `S: Real` (so readings nest), and by the CUDA
/// reading `DeviceDual<S, N>`. Each method has the meaning of the `f64` method of the
/// same name on the primal value; readings that carry derivatives propagate them.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a reading lifted rules can run on",
    note = "readings are `f64`, `f32`, `lifted::NDual<S, N>`, `lifted::Taylor<S, K>`, `lifted::DiagJet<S, N>`, `lifted::HyperDual<S>`, `lifted::ZDual<S, N>` and `lifted::cuda::DeviceDual<S, N>` with `S` a reading"
)]
pub trait Real:
    Copy
    + Debug
    + Display
    + Default
    + PartialEq
    + PartialOrd
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Rem<Output = Self>
    + Neg<Output = Self>
    + AddAssign
    + SubAssign
    + MulAssign
    + DivAssign
    + RemAssign
    + num_traits::Zero
    + num_traits::One
    + Sum
    + Product
    + for<'a> Sum<&'a Self>
    + for<'a> Product<&'a Self>
    + Send
    + Sync
    + 'static
{
    /// The primal field (`f64` or `f32`) at the innermost level of this reading.
    type Field: crate::Scalar + Real<Field = Self::Field>;

    /// The highest derivative order this reading carries: 0 for the primal reading, 1
    /// for `NDual<f64, N>`, 2 for `NDual<NDual<f64, 1>, 1>`, …. A hand-written rule that
    /// knows only its first derivative asserts `ORDER <= 1` at compile time.
    const ORDER: usize;

    /// A constant of the reading from an `f64` (rounded for `f32`), zero-lifted.
    /// Used for the numeric constants inside derivative formulas.
    fn cst(c: f64) -> Self;

    /// The primal value as `f64` (the innermost scalar, widened).
    fn primal_f64(self) -> f64;

    /// `true` when this value and all its derivative components are exactly zero: the
    /// test behind strong zero (a zero tangent lane stays zero at singular points).
    fn is_exact_zero(&self) -> bool;

    unary_names!(declare_unary);

    /// Sine and cosine at once (one evaluation of the primal pair).
    fn sin_cos(self) -> (Self, Self);
    /// Four-quadrant arctangent of `self / other`.
    fn atan2(self, other: Self) -> Self;
    /// Logarithm with respect to an arbitrary base.
    fn log(self, base: Self) -> Self;
    /// Integer power.
    fn powi(self, n: i32) -> Self;
    /// Real power.
    fn powf(self, n: Self) -> Self;
    /// `sqrt(self² + other²)` without undue overflow.
    fn hypot(self, other: Self) -> Self;
    /// Magnitude of `self` with the sign of `sign`.
    fn copysign(self, sign: Self) -> Self;
    /// Minimum (the non-NaN one, as `f64::min`).
    fn min(self, other: Self) -> Self;
    /// Maximum (the non-NaN one, as `f64::max`).
    fn max(self, other: Self) -> Self;
    /// Restricts to `[lo, hi]` (panics like `f64::clamp` when `lo > hi` or either is NaN).
    fn clamp(self, lo: Self, hi: Self) -> Self;
    /// Fused `self * a + b`, rounded once in the primal.
    fn mul_add(self, a: Self, b: Self) -> Self;
    /// Least non-negative remainder of `self / rhs`.
    fn rem_euclid(self, rhs: Self) -> Self;
    /// Euclidean quotient (integer-valued: zero derivative).
    fn div_euclid(self, rhs: Self) -> Self;

    /// Whether the primal is NaN.
    fn is_nan(self) -> bool;
    /// Whether the primal is finite.
    fn is_finite(self) -> bool;
    /// Whether the primal is infinite.
    fn is_infinite(self) -> bool;
    /// Whether the primal has a negative sign bit.
    fn is_sign_negative(self) -> bool;
    /// Whether the primal has a positive sign bit.
    fn is_sign_positive(self) -> bool;
    /// The primals in IEEE 754 total order, as `f64::total_cmp` orders them: what
    /// `sort_by(|a, b| a.total_cmp(b))` compares, the tangents following.
    fn total_cmp(&self, other: &Self) -> core::cmp::Ordering {
        self.primal_f64().total_cmp(&other.primal_f64())
    }
}

macro_rules! delegate_unary {
    ([$f:ident] $($name:ident)*) => {
        $(
            #[inline(always)]
            fn $name(self) -> Self {
                $f::$name(self)
            }
        )*
    };
}

macro_rules! primal_real {
    ($f:ident) => {
        impl Real for $f {
            type Field = $f;
            const ORDER: usize = 0;
            #[inline(always)]
            fn cst(c: f64) -> Self {
                <$f as Scalar>::from_f64(c)
            }
            #[inline(always)]
            fn primal_f64(self) -> f64 {
                <$f as Scalar>::to_f64(self)
            }
            #[inline(always)]
            fn is_exact_zero(&self) -> bool {
                *self == 0.0
            }
            unary_names!(delegate_unary $f);
            #[inline(always)]
            fn sin_cos(self) -> (Self, Self) {
                $f::sin_cos(self)
            }
            #[inline(always)]
            fn atan2(self, other: Self) -> Self {
                $f::atan2(self, other)
            }
            #[inline(always)]
            fn log(self, base: Self) -> Self {
                $f::log(self, base)
            }
            #[inline(always)]
            fn powi(self, n: i32) -> Self {
                $f::powi(self, n)
            }
            #[inline(always)]
            fn powf(self, n: Self) -> Self {
                $f::powf(self, n)
            }
            #[inline(always)]
            fn hypot(self, other: Self) -> Self {
                $f::hypot(self, other)
            }
            #[inline(always)]
            fn copysign(self, sign: Self) -> Self {
                $f::copysign(self, sign)
            }
            #[inline(always)]
            fn min(self, other: Self) -> Self {
                $f::min(self, other)
            }
            #[inline(always)]
            fn max(self, other: Self) -> Self {
                $f::max(self, other)
            }
            #[inline(always)]
            fn clamp(self, lo: Self, hi: Self) -> Self {
                $f::clamp(self, lo, hi)
            }
            #[inline(always)]
            fn mul_add(self, a: Self, b: Self) -> Self {
                $f::mul_add(self, a, b)
            }
            #[inline(always)]
            fn rem_euclid(self, rhs: Self) -> Self {
                $f::rem_euclid(self, rhs)
            }
            #[inline(always)]
            fn div_euclid(self, rhs: Self) -> Self {
                $f::div_euclid(self, rhs)
            }
            #[inline(always)]
            fn is_nan(self) -> bool {
                $f::is_nan(self)
            }
            #[inline(always)]
            fn is_finite(self) -> bool {
                $f::is_finite(self)
            }
            #[inline(always)]
            fn is_infinite(self) -> bool {
                $f::is_infinite(self)
            }
            #[inline(always)]
            fn is_sign_negative(self) -> bool {
                $f::is_sign_negative(self)
            }
            #[inline(always)]
            fn is_sign_positive(self) -> bool {
                $f::is_sign_positive(self)
            }
            #[inline(always)]
            fn total_cmp(&self, other: &Self) -> core::cmp::Ordering {
                $f::total_cmp(self, other)
            }
        }
    };
}

primal_real!(f64);
primal_real!(f32);
