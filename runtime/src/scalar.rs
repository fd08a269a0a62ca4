//! The scalar fields a primal function can be written in: `f64` and `f32`.

use core::fmt::{Debug, Display};

/// A primal floating-point field (`f64` or `f32`): the type a user's function is
/// written in, and the innermost component of every reading.
///
/// Sealed: readings, rules and tolerances are written for exactly these two.
pub trait Scalar:
    num_traits::Float
    + num_traits::FloatConst
    + num_traits::FromPrimitive
    + Debug
    + Display
    + Default
    + Send
    + Sync
    + core::iter::Sum
    + core::iter::Product
    + 'static
    + sealed::Sealed
{
    /// Machine epsilon of the field, as `f64`.
    const EPS: f64;
    /// Number of bits in the representation (for bitwise comparisons).
    const BITS: u32;
    /// The field's name, for messages.
    const NAME: &'static str;
    /// Converts from `f64` (rounding for `f32`).
    fn from_f64(x: f64) -> Self;
    /// Converts to `f64` (exact).
    fn to_f64(self) -> f64;
    /// The raw bits, widened to `u64`, for bitwise comparisons.
    fn to_bits_u64(self) -> u64;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for f64 {}
    impl Sealed for f32 {}
}

impl Scalar for f64 {
    const EPS: f64 = f64::EPSILON;
    const BITS: u32 = 64;
    const NAME: &'static str = "f64";
    #[inline(always)]
    fn from_f64(x: f64) -> Self {
        x
    }
    #[inline(always)]
    fn to_f64(self) -> f64 {
        self
    }
    #[inline(always)]
    fn to_bits_u64(self) -> u64 {
        self.to_bits()
    }
}

impl Scalar for f32 {
    const EPS: f64 = f32::EPSILON as f64;
    const BITS: u32 = 32;
    const NAME: &'static str = "f32";
    #[inline(always)]
    fn from_f64(x: f64) -> Self {
        x as f32
    }
    #[inline(always)]
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
    #[inline(always)]
    fn to_bits_u64(self) -> u64 {
        u64::from(self.to_bits())
    }
}
