//! `HyperDual<S>`: a value, two first-order parts `e1`, `e2` and the mixed
//! second-order part `e12`, carried together through one pass.
//!
//! A mixed partial `∂²f/∂x∂y` by nested duals carries four components and runs the
//! inner dual's rules inside the outer's; a hyper-dual number carries the same four
//! components with one flat rule per primitive. For `f(a)`: `e1′ = f′ e1`,
//! `e2′ = f′ e2`, `e12′ = f′ e12 + f″ e1 e2`; for products
//! `(ab)₁₂ = a₁₂ b + a₁ b₂ + a₂ b₁ + a b₁₂`. Seeding `x.e1 = 1`, `y.e2 = 1` gives
//! `∂²f/∂x∂y` in `e12`; seeding both parts of one input gives `∂²f/∂x²`.
//!
//! Split like `DiagJet`: `ops` the arithmetic between hyper-duals, `mixed` the
//! arithmetic with plain constants and the [`Reading`](crate::Reading) impls, `math`
//! the float method surface ([`Real`]) from the derivative table, `num` the
//! `num-traits` impls. Arrays of them are plain `Vec`s and slices (see
//! `array/primal.rs`).

mod math;
mod mixed;
mod num;
mod ops;

use core::fmt;

use crate::Real;
use crate::reading::{all_finite, times_sz};

/// A hyper-dual number: the forward value of a float that carries two first-order
/// perturbations `e1`, `e2` and their mixed second-order part `e12`, in one pass.
///
/// With `x.e1 = 1` and `y.e2 = 1` (every other part zero), `f(x, y).e12` is the
/// mixed partial `∂²f/∂x∂y`, exact to rounding, and `e1`, `e2` hold `∂f/∂x`, `∂f/∂y`;
/// with both parts of `x` seeded ([`variable`](Self::variable)), `e12` is `∂²f/∂x²`.
///
/// Plain `Copy` data, `#[repr(C)]`. The value of every operation is the primal
/// operation itself, so it is bit for bit what the primal function computes;
/// comparisons look at the value only, and piecewise functions follow the branch the
/// value selects. A part that is exactly zero stays exactly zero through every rule,
/// singular points of `ln`, `sqrt`, `cbrt`, `hypot`, `powf` included (strong zero),
/// and `e1`, `e2` never read each other, so a NaN in one leaves the other alone.
///
/// ```
/// use lifted::{HyperDual, Real};
/// // f(x, y) = x² sin(y) at (3, 0.5): ∂²f/∂x∂y = 2x cos(y).
/// let x = HyperDual::along_e1(3.0);
/// let y = HyperDual::along_e2(0.5);
/// let f = x * x * y.sin();
/// assert_eq!(f.value(), 9.0 * 0.5f64.sin());
/// assert_eq!(f.e1(), 6.0 * 0.5f64.sin()); // ∂f/∂x
/// assert_eq!(f.e2(), 9.0 * 0.5f64.cos()); // ∂f/∂y
/// assert_eq!(f.e12(), 6.0 * 0.5f64.cos()); // ∂²f/∂x∂y
///
/// // Both parts of one input: the pure second derivative, d²/dx² x³ = 6x.
/// let x = HyperDual::variable(2.0);
/// assert_eq!(x.powi(3).e12(), 12.0);
/// ```
#[repr(C)]
#[derive(Clone, Copy)]
pub struct HyperDual<S> {
    value: S,
    e1: S,
    e2: S,
    e12: S,
}

impl<S: Real> HyperDual<S> {
    /// A hyper-dual number from its value, first-order parts and mixed part.
    #[inline(always)]
    pub const fn new(value: S, e1: S, e2: S, e12: S) -> Self {
        Self { value, e1, e2, e12 }
    }

    /// A constant: every part zero.
    #[inline(always)]
    pub fn constant(value: S) -> Self {
        Self::new(value, S::zero(), S::zero(), S::zero())
    }

    /// An input perturbed along `e1` only (`e1 = 1`).
    #[inline(always)]
    pub fn along_e1(value: S) -> Self {
        Self::new(value, S::one(), S::zero(), S::zero())
    }

    /// An input perturbed along `e2` only (`e2 = 1`).
    #[inline(always)]
    pub fn along_e2(value: S) -> Self {
        Self::new(value, S::zero(), S::one(), S::zero())
    }

    /// An input perturbed along both (`e1 = e2 = 1`): `e12` of a function of it is
    /// the function's second derivative.
    #[inline(always)]
    pub fn variable(value: S) -> Self {
        Self::new(value, S::one(), S::one(), S::zero())
    }

    /// The value (the primal).
    #[inline(always)]
    pub fn value(&self) -> S {
        self.value
    }

    /// The first-order part along `e1`.
    #[inline(always)]
    pub fn e1(&self) -> S {
        self.e1
    }

    /// The first-order part along `e2`.
    #[inline(always)]
    pub fn e2(&self) -> S {
        self.e2
    }

    /// The mixed second-order part `e12`.
    #[inline(always)]
    pub fn e12(&self) -> S {
        self.e12
    }

    /// `true` when every part is exactly zero: a function of it is then a constant
    /// too, even where the function's derivatives are infinite or NaN.
    #[inline(always)]
    pub(crate) fn is_flat(&self) -> bool {
        self.e1.is_exact_zero() && self.e2.is_exact_zero() && self.e12.is_exact_zero()
    }

    /// The same parts with another value: a shift by a constant, or the branch a
    /// piecewise function selects.
    #[inline(always)]
    pub(crate) fn with_value(self, value: S) -> Self {
        Self { value, ..self }
    }

    /// The given value with every part through `f`: the linear maps of the parts
    /// (scalings, negation) that leave `e12` without a product term.
    #[inline(always)]
    pub(crate) fn map(self, value: S, f: impl Fn(S) -> S) -> Self {
        Self::new(value, f(self.e1), f(self.e2), f(self.e12))
    }

    /// The given value with every part negated.
    #[inline(always)]
    pub(crate) fn negated(&self, value: S) -> Self {
        self.map(value, |p| -p)
    }

    /// The given value with the parts combined part by part (sums, differences).
    #[inline(always)]
    pub(crate) fn zip(&self, other: &Self, value: S, f: impl Fn(S, S) -> S) -> Self {
        let (x, y) = (self, other);
        Self::new(value, f(x.e1, y.e1), f(x.e2, y.e2), f(x.e12, y.e12))
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
            f1 * self.e1,
            f1 * self.e2,
            f1 * self.e12 + f2 * (self.e1 * self.e2),
        )
    }

    /// [`chain`](Self::chain) for functions singular somewhere (`ln`, `sqrt`, …): a
    /// term whose part is exactly zero contributes nothing, so `0 · ∞` never reaches
    /// an untouched part (strong zero).
    #[inline(always)]
    pub(crate) fn chain_sz(&self, f0: S, f1: S, f2: S) -> Self {
        Self::new(
            f0,
            times_sz(f1, self.e1),
            times_sz(f1, self.e2),
            times_sz(f1, self.e12) + times_sz(f2, self.e1 * self.e2),
        )
    }

    /// `f(self, other)` from the value and the partials of `f` at the two values:
    /// `[fa, fb]` first, `[faa, fab, fbb]` second. Strong zero per term, as
    /// [`chain_sz`](Self::chain_sz).
    #[inline(always)]
    pub(crate) fn chain2_sz(&self, other: &Self, f0: S, g: [S; 2], h: [S; 3]) -> Self {
        let ([fa, fb], [faa, fab, fbb]) = (g, h);
        let (x, y) = (self, other);
        Self::new(
            f0,
            times_sz(fa, x.e1) + times_sz(fb, y.e1),
            times_sz(fa, x.e2) + times_sz(fb, y.e2),
            times_sz(fa, x.e12)
                + times_sz(fb, y.e12)
                + times_sz(faa, x.e1 * x.e2)
                + times_sz(fab, x.e1 * y.e2 + y.e1 * x.e2)
                + times_sz(fbb, y.e1 * y.e2),
        )
    }
}

impl<S: Real> Default for HyperDual<S> {
    /// The constant zero.
    fn default() -> Self {
        Self::constant(S::zero())
    }
}

impl<S: Real> fmt::Debug for HyperDual<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Self { value, e1, e2, e12 } = self;
        write!(f, "HyperDual({value:?}; {e1:?}, {e2:?}; {e12:?})")
    }
}

impl<S: Real> fmt::Display for HyperDual<S> {
    /// Shows the value and the parts: `1.5 + 1ε₁ + 0ε₂ + 0ε₁ε₂`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Self { value, e1, e2, e12 } = self;
        write!(f, "{value} + {e1}ε₁ + {e2}ε₂ + {e12}ε₁ε₂")
    }
}
