//! The readings: what a user's float becomes inside a derived rule.
//!
//! A derived rule is generic over its *reading* `D`. Running it at `D = f64` reproduces
//! the primal function; at `D = NDual<f64, N>` it carries N tangent directions; at
//! `D = NDual<NDual<f64, 1>, 1>` it computes second derivatives; at
//! `D = Taylor<f64, K>` a derivative tower of order K along one direction; at
//! `D = DiagJet<f64, N>` first and pure second derivatives along N coordinates; at
//! `D = ZDual<f64, N>` the partials of values that carry none are skipped; at the CUDA
//! reading `DeviceDual<S, N>` arrays live on a GPU. A reading slots in by implementing
//! these two traits, without any change to generated code; the derivatives of the float
//! functions come from the derivative table (`reading::table`), so a reading adds only
//! its own algebra.
//!
//! * [`Real`] is the arithmetic and the float method surface of a reading, with no
//!   reference to the primal field. Rules for scalar maths are written once against it.
//! * [`Reading<F>`] adds what ties a reading to the primal field `F` the function is
//!   written in: mixed arithmetic with plain `F` constants, zero-lifting, and the primal
//!   scalar that comparisons and branches look at.

use core::fmt::{Debug, Display};
use core::iter::{Product, Sum};
use core::ops::{
    Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Rem, RemAssign, Sub, SubAssign,
};

use crate::Scalar;
use crate::array::{ArrayMut, ArrayOwned, ArrayRef};
use crate::reading::convert::{IntoReading, ToPrimal};

/// Declares the unary float methods once, so the trait, the primal impls and the
/// docs cannot drift apart.
macro_rules! unary_methods {
    ($m:ident $($pre:tt)*) => {
        $m! {
            [$($pre)*]
            sin cos tan asin acos atan sinh cosh tanh asinh acosh atanh
            exp exp2 exp_m1 ln log2 log10 ln_1p sqrt cbrt abs signum recip
            to_degrees to_radians floor ceil round trunc fract
        }
    };
}

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
/// [`DiagJet<S, N>`](crate::DiagJet) and [`ZDual<S, N>`](crate::ZDual) for every
/// `S: Real` (so readings nest), and by the CUDA reading `DeviceDual<S, N>`. Each method
/// has the meaning of the `f64` method of the same name on the primal value; readings
/// that carry derivatives propagate them.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a reading lifted rules can run on",
    note = "readings are `f64`, `f32`, `lifted::NDual<S, N>`, `lifted::Taylor<S, K>`, `lifted::DiagJet<S, N>`, `lifted::ZDual<S, N>` and `lifted::cuda::DeviceDual<S, N>` with `S` a reading"
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

    /// The owned array of this reading: `Vec<f64>` for the primal reading,
    /// [`NDualArray<S, N>`](crate::NDualArray) for `NDual<S, N>`.
    type Vec: ArrayOwned<Self> + crate::linalg::OwnedOperand<Self>;
    /// A shared view of an array of this reading (the forward value of `&[f64]`).
    type Ref<'a>: ArrayRef<'a, Self> + crate::linalg::Operand<Self>;
    /// A mutable view of an array of this reading (the forward value of `&mut [f64]`).
    type Mut<'a>: ArrayMut<'a, Self>;

    /// A constant of the reading from an `f64` (rounded for `f32`), zero-lifted.
    /// Used for the numeric constants inside derivative formulas.
    fn cst(c: f64) -> Self;

    /// The primal value as `f64` (the innermost scalar, widened).
    fn primal_f64(self) -> f64;

    /// `true` when this value and all its derivative components are exactly zero: the
    /// test behind strong zero (a zero tangent lane stays zero at singular points).
    fn is_exact_zero(&self) -> bool;

    unary_methods!(declare_unary);

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

    // The flat view below lets array primitives (`crate::linalg`) hand whole blocks to
    // BLAS-like kernels when the reading is the primal or a first-order `NDual` of the
    // primal field; every other reading answers `None` and the primitives fall back to
    // element-wise arithmetic on the reading. The defaults keep new readings correct.

    /// The tangent width of the flat view: `Some(0)` for the primal reading, `Some(N)`
    /// for `NDual<F, N>`, `None` when arrays of this reading have no flat view.
    #[doc(hidden)]
    fn __flat_width() -> Option<usize> {
        None
    }
    /// `Some(s)` when `Self` is the primal field itself.
    #[doc(hidden)]
    fn __as_flat(s: &[Self]) -> Option<&[Self::Field]> {
        let _ = s;
        None
    }
    /// `Some(v)` when `Self` is the primal field itself.
    #[doc(hidden)]
    fn __vec_from_flat(v: Vec<Self::Field>) -> Option<Vec<Self>> {
        let _ = v;
        None
    }
    /// The primal slice and the element-major tangent block of a view.
    #[doc(hidden)]
    #[allow(clippy::type_complexity)]
    fn __flat_ref<'a>(r: Self::Ref<'a>) -> Option<(&'a [Self::Field], &'a [Self::Field])> {
        let _ = r;
        None
    }
    /// The primal slice and the element-major tangent block of an owned array.
    #[doc(hidden)]
    #[allow(clippy::type_complexity)]
    fn __flat_vec(v: &Self::Vec) -> Option<(&[Self::Field], &[Self::Field])> {
        let _ = v;
        None
    }
    /// A value of this reading from its primal and `__flat_width()` tangent components.
    #[doc(hidden)]
    fn __scalar_from_flat(primal: Self::Field, tangent: &[Self::Field]) -> Option<Self> {
        let _ = (primal, tangent);
        None
    }
    /// Runs a whole-array operation elsewhere (on a device) and returns its result, or
    /// `None` to let the primitive run it on the host. See `crate::offload`.
    #[doc(hidden)]
    fn __array_op(op: crate::offload::ArrayOp<'_, Self>) -> Option<crate::offload::ArrayOut<Self>> {
        let _ = op;
        None
    }
    /// An owned array from a primal and an element-major tangent block of
    /// `__flat_width()` values per element.
    #[doc(hidden)]
    fn __from_flat(primal: Vec<Self::Field>, block: Vec<Self::Field>) -> Option<Self::Vec> {
        let _ = (primal, block);
        None
    }
}

/// A reading of the primal field `F`: the bound every derived rule carries on its
/// reading parameter (`fn frule<D: Reading<f64>>`).
///
/// Adds what involves plain `F` values: mixed arithmetic with constants on the right
/// (`x * 2.0`), the constant-on-the-left forms as methods (`2.0 - x` is lowered to
/// `x.rsub(2.0)`, because `impl Sub<D> for f64` cannot be written for a generic `D`),
/// comparisons with constants, zero-lifting and the primal scalar.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a reading of `{F}`",
    note = "a function written in `{F}` runs on readings of `{F}`: `{F}` itself, or `lifted::NDual<S, N>`, `Taylor<S, K>`, `DiagJet<S, N>`, `ZDual<S, N>` with `S` a reading of `{F}`"
)]
pub trait Reading<F: Scalar>:
    Real<Field = F>
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
            type Vec = Vec<$f>;
            type Ref<'a> = &'a [$f];
            type Mut<'a> = &'a mut [$f];
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
            unary_methods!(delegate_unary $f);
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
            fn __flat_width() -> Option<usize> {
                Some(0)
            }
            fn __as_flat(s: &[Self]) -> Option<&[$f]> {
                Some(s)
            }
            fn __vec_from_flat(v: Vec<$f>) -> Option<Vec<Self>> {
                Some(v)
            }
            fn __flat_ref<'a>(r: <Self as Real>::Ref<'a>) -> Option<(&'a [$f], &'a [$f])> {
                Some((r, &[]))
            }
            fn __flat_vec(v: &Vec<$f>) -> Option<(&[$f], &[$f])> {
                Some((v, &[]))
            }
            fn __scalar_from_flat(primal: $f, _tangent: &[$f]) -> Option<$f> {
                Some(primal)
            }
            fn __from_flat(primal: Vec<$f>, _block: Vec<$f>) -> Option<Vec<$f>> {
                Some(primal)
            }
        }

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

primal_real!(f64);
primal_real!(f32);
