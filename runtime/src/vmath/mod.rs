//! Vectorisable `tanh` and `exp` over `f64`, scalar and over slices, giving the same
//! bits either way.
//!
//! The scalar functions [`tanh()`](fn@tanh) and [`exp()`](fn@exp) are branch-free:
//! every input runs the same straight-line code, the cases chosen by selects, with no
//! call into libm. A loop over them therefore vectorises, and [`tanh_in_place`],
//! [`tanh_into`], [`exp_in_place`] and [`exp_into`] are such loops, compiled for the
//! baseline instruction set and, on x86-64, for AVX2 and AVX-512F too, picked at run
//! time. No version fuses a multiply and an add (nothing here calls `mul_add`, and
//! Rust never contracts `a * b + c`), so every version performs the same IEEE
//! operations in the same order: an element of a slice gets exactly the bits the scalar
//! function gives it, and the same bits on every x86-64 CPU (and on every target whose
//! `f64` arithmetic is plain IEEE binary64, which excludes only x87-based 32-bit x86).
//! That is what lets a network evaluated point by point with [`tanh()`](fn@tanh) and
//! one evaluated in batches with [`tanh_in_place`] agree bit for bit.
//!
//! # Accuracy
//!
//! Measured against a double-double reference (about 100 bits) by this module's tests:
//! a logarithmic sweep of `|x|` from 1e-300 to 710 of both signs, dense linear sweeps
//! where the functions vary, random bit patterns, and a few hundred floats either side
//! of every branch boundary; and by a denser random probe (`dense_random_probe`, 21
//! million points, run with `--ignored`):
//!
//! | function | max error | where it peaks |
//! |----------|-----------|----------------|
//! | `tanh`   | 1.34 ulp  | magnitudes just above 0.625 (the `exp` form); 0.86 ulp below |
//! | `exp`    | 0.78 ulp  | subnormal results, in their grid's ulps; 0.69 ulp elsewhere |
//!
//! (`cargo test -p lifted --lib vmath -- --nocapture --include-ignored` prints them.)
//! libm's `tanh` and `exp` stay what `f64::tanh` and `f64::exp` call everywhere else;
//! these functions are for the loops that need the speed.
//!
//! # Special values
//!
//! * `tanh`: odd, `tanh(−0) = −0`, `tanh(±∞) = ±1`, ±1 from `|x| ≈ 19.06` on (where
//!   `1 − tanh |x|` falls below half an ulp of 1), NaN for NaN.
//! * `exp`: `exp(x)` overflows to `+∞` above `ln(f64::MAX) ≈ 709.78`; below
//!   `ln(f64::MIN_POSITIVE) ≈ −708.40` the result is subnormal, the full-precision
//!   value rounded once onto the subnormal grid (so it stays within an ulp of that
//!   grid), and it reaches 0 below about −745.13; `exp(−∞) = 0`, `exp(+∞) = +∞`,
//!   NaN for NaN.
//!
//! # In derived rules
//!
//! Both functions have forward rules of their own ([`mod@tanh`], [`mod@exp`]): their
//! value is the function above at every reading, their derivatives are those of the
//! derivative table at the primal (`1 − a²`, `−2a(1 − a²)`, … for `tanh`). Called by
//! a path that does not start with `lifted::` (import the module: `use
//! lifted::vmath;`), a call inside an `#[autodiff]` function dispatches to the rule:
//!
//! ```
//! use lifted::{NDual, autodiff, vmath};
//!
//! #[autodiff(forward)]
//! fn unit(x: f64, w: f64) -> f64 {
//!     vmath::tanh(w * x) * w
//! }
//!
//! fn main() {
//!     // The primal reading is `vmath::tanh` bit for bit…
//!     assert_eq!(unit::frule::<f64>(0.3, 2.0), vmath::tanh(0.6) * 2.0);
//!     // …and so is every other reading's value; the derivative is w²(1 − tanh² wx).
//!     let d = unit::frule(NDual::<f64, 1>::variable(0.3, 0), NDual::constant(2.0));
//!     assert_eq!(d.value(), vmath::tanh(0.6) * 2.0);
//!     assert!((d.partial(0) - 4.0 * (1.0 - 0.6f64.tanh().powi(2))).abs() < 1e-15);
//! }
//! ```

mod kernels;
mod rules;
pub(crate) mod simd;
#[cfg(test)]
mod tests;

pub use rules::{MAX_RULE_ORDER, exp, tanh};

use kernels::{exp_kernel, tanh_kernel};
use simd::{Exp, Isa, Tanh, map_in_place, map_into};

/// `tanh x`, within 1.34 ulp, branch-free; what an element of
/// [`tanh_in_place`] gets, bit for bit. See the [module docs](self).
///
/// ```
/// use lifted::vmath;
/// assert_eq!(vmath::tanh(0.0), 0.0);
/// assert!(vmath::tanh(-0.0).is_sign_negative());
/// assert_eq!(vmath::tanh(f64::INFINITY), 1.0);
/// assert!((vmath::tanh(0.5) - 0.5f64.tanh()).abs() <= f64::EPSILON);
/// ```
#[inline]
pub fn tanh(x: f64) -> f64 {
    tanh_kernel(x)
}

/// `eˣ`, within 0.78 ulp, branch-free; what an element of [`exp_in_place`]
/// gets, bit for bit. See the [module docs](self).
///
/// ```
/// use lifted::vmath;
/// assert_eq!(vmath::exp(0.0), 1.0);
/// assert_eq!(vmath::exp(f64::NEG_INFINITY), 0.0);
/// assert_eq!(vmath::exp(710.0), f64::INFINITY);
/// assert!((vmath::exp(1.0) - std::f64::consts::E).abs() <= f64::EPSILON);
/// ```
#[inline]
pub fn exp(x: f64) -> f64 {
    exp_kernel(x)
}

/// `xs[i] ← tanh(xs[i])` for every element, vectorised, each element bit for bit
/// [`tanh()`](fn@tanh).
pub fn tanh_in_place(xs: &mut [f64]) {
    map_in_place::<Tanh>(Isa::best(), xs);
}

/// `dst[i] ← tanh(src[i])` for every element, vectorised, each element bit for bit
/// [`tanh()`](fn@tanh).
///
/// # Panics
///
/// When the slices' lengths differ.
pub fn tanh_into(src: &[f64], dst: &mut [f64]) {
    map_into::<Tanh>(Isa::best(), src, dst);
}

/// `xs[i] ← exp(xs[i])` for every element, vectorised, each element bit for bit
/// [`exp()`](fn@exp).
pub fn exp_in_place(xs: &mut [f64]) {
    map_in_place::<Exp>(Isa::best(), xs);
}

/// `dst[i] ← exp(src[i])` for every element, vectorised, each element bit for bit
/// [`exp()`](fn@exp).
///
/// # Panics
///
/// When the slices' lengths differ.
pub fn exp_into(src: &[f64], dst: &mut [f64]) {
    map_into::<Exp>(Isa::best(), src, dst);
}
