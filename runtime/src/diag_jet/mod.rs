//! `DiagJet<S, N>`: the value, N first-order partials and the N pure second-order
//! partials along the same N coordinates — the diagonal of the Hessian, no cross
//! terms — carried together through one pass.
//!
//! A PDE residual needs the values, the first derivatives and a few pure second
//! derivatives (a Laplacian) at once. Nesting `NDual`s for the second derivatives runs
//! the function again and carries the cross terms it then throws away; a diagonal jet
//! carries `1 + 2N` components and nothing else. Every rule needs only the first two
//! derivatives of each primitive at the primal: for `f(a)`,
//! `ȧ′ₖ = f′ ȧₖ` and `ä′ₖ = f′ äₖ + f″ ȧₖ²`; for products
//! `(ab)¨ = ä b + 2 ȧ ḃ + a b̈`.
//!
//! Split like the other readings: `ops` the arithmetic between jets, `mixed` the
//! arithmetic with plain constants and the [`Reading`](crate::Reading) impls, `math`
//! the float method surface ([`Real`]), `num` the `num-traits` impls. Arrays of jets are
//! plain `Vec`s and slices (see `array/primal.rs`).

mod math;
mod mixed;
mod num;
mod ops;

use core::fmt;

use crate::Real;
use crate::reading::{all_finite, times_sz};

/// A diagonal jet: the forward value of a float that carries, along each of N
/// coordinates `k`, the first derivative `∂ₖ` and the pure second derivative `∂ₖ²`,
/// in one pass (no cross terms `∂ⱼ∂ₖ`).
///
/// Plain `Copy` data, `#[repr(C)]`. The value of every operation is the primal
/// operation itself, so it is bit for bit what the primal function computes;
/// comparisons look at the value only, and piecewise functions follow the branch the
/// value selects. A lane whose first and second parts are exactly zero stays exactly
/// zero through every rule, singular points of `ln`, `sqrt`, `cbrt`, `hypot`, `powf`
/// included (strong zero).
///
/// ```
/// use lifted::{DiagJet, Real};
/// // f(x, y) = x² sin(y) at (3, 0.5), both coordinates seeded.
/// let x = DiagJet::<f64, 2>::variable(3.0, 0);
/// let y = DiagJet::<f64, 2>::variable(0.5, 1);
/// let f = x * x * y.sin();
/// assert_eq!(f.value(), 9.0 * 0.5f64.sin());
/// assert_eq!(f.first(), &[6.0 * 0.5f64.sin(), 9.0 * 0.5f64.cos()]);
/// assert_eq!(f.second()[0], 2.0 * 0.5f64.sin()); // ∂²f/∂x²
/// assert!((f.second()[1] + 9.0 * 0.5f64.sin()).abs() < 1e-14); // ∂²f/∂y²
/// ```
#[repr(C)]
#[derive(Clone, Copy)]
pub struct DiagJet<S, const N: usize> {
    value: S,
    first: [S; N],
    second: [S; N],
}

impl<S: Real, const N: usize> DiagJet<S, N> {
    /// A jet from its value, first partials and pure second partials.
    #[inline(always)]
    pub const fn new(value: S, first: [S; N], second: [S; N]) -> Self {
        Self {
            value,
            first,
            second,
        }
    }

    /// A constant: every partial zero.
    #[inline(always)]
    pub fn constant(value: S) -> Self {
        Self::new(value, [S::zero(); N], [S::zero(); N])
    }

    /// Coordinate `k` at `value`: first partial 1 along `k`, every other partial zero
    /// (a coordinate is linear in itself).
    ///
    /// # Panics
    ///
    /// When `k >= N`, as indexing does.
    #[inline(always)]
    #[track_caller]
    pub fn variable(value: S, k: usize) -> Self {
        let mut out = Self::constant(value);
        out.first[k] = S::one();
        out
    }

    /// The value (the primal).
    #[inline(always)]
    pub fn value(&self) -> S {
        self.value
    }

    /// The first partials, one per coordinate.
    #[inline(always)]
    pub fn first(&self) -> &[S; N] {
        &self.first
    }

    /// The pure second partials `∂ₖ²`, one per coordinate.
    #[inline(always)]
    pub fn second(&self) -> &[S; N] {
        &self.second
    }

    /// `true` when every partial is exactly zero: a function of it is then a constant
    /// too, even where the function's derivatives are infinite or NaN.
    #[inline(always)]
    pub(crate) fn is_flat(&self) -> bool {
        self.first.iter().all(S::is_exact_zero) && self.second.iter().all(S::is_exact_zero)
    }

    /// The same partials with another value: a shift by a constant, or the branch a
    /// piecewise function selects.
    #[inline(always)]
    pub(crate) fn with_value(self, value: S) -> Self {
        Self::new(value, self.first, self.second)
    }

    /// The given value with every partial through the linear map `f` (scalings).
    #[inline(always)]
    pub(crate) fn map(self, value: S, f: impl Fn(S) -> S) -> Self {
        Self::new(value, self.first.map(&f), self.second.map(&f))
    }

    /// The given value with every partial times −1.
    #[inline(always)]
    pub(crate) fn negated(&self, value: S) -> Self {
        let f = -S::one();
        self.map(value, |c| c * f)
    }

    /// The given value with the partials combined lane by lane (sums, differences).
    #[inline(always)]
    pub(crate) fn zip(&self, other: &Self, value: S, f: impl Fn(S, S) -> S) -> Self {
        let (x, y) = (self, other);
        Self::new(
            value,
            core::array::from_fn(|k| f(x.first[k], y.first[k])),
            core::array::from_fn(|k| f(x.second[k], y.second[k])),
        )
    }

    /// `f(self)` from `f`, `f′` and `f″` at the value, for functions whose
    /// derivatives are finite wherever the value is: no zero test needed there, and
    /// where the value is not (`exp` at ∞) the NaN-safe [`chain_sz`](Self::chain_sz).
    #[inline(always)]
    pub(crate) fn chain(&self, f0: S, f1: S, f2: S) -> Self {
        if !all_finite([f1, f2]) {
            return self.chain_sz(f0, f1, f2);
        }
        Self::new(
            f0,
            self.first.map(|d| f1 * d),
            core::array::from_fn(|k| {
                let d = self.first[k];
                f1 * self.second[k] + f2 * (d * d)
            }),
        )
    }

    /// [`chain`](Self::chain) for functions singular somewhere (`ln`, `sqrt`, …): a
    /// term whose jet part is exactly zero contributes nothing, so `0 · ∞` never
    /// reaches an untouched lane (strong zero).
    #[inline(always)]
    pub(crate) fn chain_sz(&self, f0: S, f1: S, f2: S) -> Self {
        Self::new(
            f0,
            self.first.map(|d| times_sz(f1, d)),
            core::array::from_fn(|k| {
                let d = self.first[k];
                times_sz(f1, self.second[k]) + times_sz(f2, d * d)
            }),
        )
    }

    /// `f(self, other)` from the value and the partials of `f` at the two values:
    /// `[fa, fb]` first, `[faa, fab, fbb]` second. Strong zero per term, as
    /// [`chain_sz`](Self::chain_sz).
    #[inline(always)]
    pub(crate) fn chain2_sz(&self, other: &Self, f0: S, g: [S; 2], h: [S; 3]) -> Self {
        let [fa, fb] = g;
        let [faa, fab, fbb] = h;
        Self::new(
            f0,
            core::array::from_fn(|k| times_sz(fa, self.first[k]) + times_sz(fb, other.first[k])),
            core::array::from_fn(|k| {
                let (da, db) = (self.first[k], other.first[k]);
                times_sz(fa, self.second[k])
                    + times_sz(fb, other.second[k])
                    + times_sz(faa, da * da)
                    + times_sz(S::cst(2.0) * fab, da * db)
                    + times_sz(fbb, db * db)
            }),
        )
    }
}

impl<S: Real, const N: usize> Default for DiagJet<S, N> {
    /// The constant zero.
    fn default() -> Self {
        Self::constant(S::zero())
    }
}

impl<S: Real, const N: usize> fmt::Debug for DiagJet<S, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "DiagJet({:?}; {:?}; {:?})",
            self.value, self.first, self.second
        )
    }
}

impl<S: Real, const N: usize> fmt::Display for DiagJet<S, N> {
    /// Shows the value, then the first and second partials: `1.5 [1, 0] [0, 0]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.value, f)?;
        for part in [&self.first, &self.second] {
            f.write_str(" [")?;
            for (k, c) in part.iter().enumerate() {
                if k > 0 {
                    f.write_str(", ")?;
                }
                fmt::Display::fmt(c, f)?;
            }
            f.write_str("]")?;
        }
        Ok(())
    }
}
