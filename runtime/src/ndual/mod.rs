//! `NDual<S, N>`: a value and N partials, the forward value of a scalar.

#[macro_use]
mod math;
mod mixed;
mod num;
mod ops;

use core::fmt;

use crate::Real;
use crate::reading::{all_finite, safe_lanes, times_sz};

/// A scalar with N tangent directions: the forward value of `f64` / `f32` at chunk
/// width N, and (with `S` itself an `NDual`) of nested, higher-order readings.
///
/// Plain `Copy` data, `#[repr(C)]`: the N partials followed by the value, so
/// `size_of::<NDual<f64, N>>() == size_of::<[f64; N + 1]>()` and the primal is not
/// stored twice. Comparisons look at the value only, so a rule follows the same
/// branches as the primal function.
///
/// ```
/// use lifted::{NDual, Real};
/// // d/dx sin(x) at x = 0.5, one direction.
/// let x = NDual::<f64, 1>::variable(0.5, 0);
/// let y = x.sin();
/// assert_eq!(y.value(), 0.5f64.sin());
/// assert_eq!(y.partial(0), 0.5f64.cos());
/// ```
#[repr(C)]
#[derive(Clone, Copy)]
pub struct NDual<S, const N: usize> {
    // Partials first: at the start of the value, 16-byte pairs of lanes stay aligned
    // with the pairs an operation writes when the optimiser spills a dual to the stack.
    // With the value first, fat LTO read them back across two stores, which the
    // processor cannot forward: W2's dense passes ran three times slower.
    partials: [S; N],
    value: S,
}

impl<S: Real, const N: usize> NDual<S, N> {
    /// A value with the given partials.
    #[inline(always)]
    pub const fn new(value: S, partials: [S; N]) -> Self {
        Self { value, partials }
    }

    /// A value with all partials zero (a constant of the computation).
    #[inline(always)]
    pub fn constant(value: S) -> Self {
        Self {
            value,
            partials: [S::zero(); N],
        }
    }

    /// A value seeded in direction `lane`: partial `lane` is one, the others zero.
    /// A `lane` outside `0..N` seeds nothing (the value is then a constant).
    #[inline(always)]
    pub fn variable(value: S, lane: usize) -> Self {
        let mut partials = [S::zero(); N];
        if let Some(p) = partials.get_mut(lane) {
            *p = S::one();
        }
        Self { value, partials }
    }

    /// The value (the primal of this slot).
    #[inline(always)]
    pub fn value(&self) -> S {
        self.value
    }

    /// All N partials.
    #[inline(always)]
    pub fn partials(&self) -> &[S; N] {
        &self.partials
    }

    /// All N partials, mutably.
    #[inline(always)]
    pub fn partials_mut(&mut self) -> &mut [S; N] {
        &mut self.partials
    }

    /// Partial `lane`. Panics when `lane >= N`, as indexing does.
    #[inline(always)]
    #[track_caller]
    pub fn partial(&self, lane: usize) -> S {
        self.partials[lane]
    }

    /// The chain rule for a unary function: `value = f(x)`, each partial times `df =
    /// f'(x)`. Every scalar rule goes through here (or its strong-zero twin), so the
    /// primal transcendental is computed once by the caller and never again.
    ///
    /// NaN-safe: where `df` is not finite (`exp` at ∞), the lanes go through
    /// [`chain_sz`](Self::chain_sz), so a direction `x` does not move in stays zero.
    #[inline(always)]
    pub(crate) fn chain(&self, value: S, df: S) -> Self {
        let p = &self.partials;
        Self {
            value,
            partials: safe_lanes(
                all_finite([df]),
                |k| p[k] * df,
                || (df, *p),
                |(df, p), k| times_sz(*df, p[k]),
            ),
        }
    }

    /// [`chain`](Self::chain) with strong zero: a lane whose partial is exactly zero
    /// stays exactly zero even where `df` is infinite or NaN (`ln`, `sqrt` at 0, …).
    #[inline(always)]
    pub(crate) fn chain_sz(&self, value: S, df: S) -> Self {
        Self {
            value,
            partials: core::array::from_fn(|k| times_sz(df, self.partials[k])),
        }
    }

    /// The chain rule for a binary function with strong zero in each argument:
    /// `value = f(x, y)`, partials `dfdx * ẋ + dfdy * ẏ`, a zero `ẋ` (or `ẏ`)
    /// contributing exactly nothing.
    #[inline(always)]
    pub(crate) fn chain2_sz(&self, other: &Self, value: S, dfdx: S, dfdy: S) -> Self {
        Self {
            value,
            partials: core::array::from_fn(|k| {
                times_sz(dfdx, self.partials[k]) + times_sz(dfdy, other.partials[k])
            }),
        }
    }

    /// Same value, zero partials: for integer-valued functions (`floor`, `round`, …).
    #[inline(always)]
    pub(crate) fn flat(value: S) -> Self {
        Self::constant(value)
    }
}

impl<S: Real, const N: usize> Default for NDual<S, N> {
    /// Zero with zero partials (written by hand: derived `Default` stops at N = 32).
    fn default() -> Self {
        Self::constant(S::zero())
    }
}

impl<S: Real, const N: usize> fmt::Debug for NDual<S, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "NDual({:?}; {:?})", self.value, self.partials)
    }
}

impl<S: Real, const N: usize> fmt::Display for NDual<S, N> {
    /// Shows the value and the partials: `0.5 + [1, 0]ε`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.value, f)?;
        f.write_str(" + [")?;
        for (k, p) in self.partials.iter().enumerate() {
            if k > 0 {
                f.write_str(", ")?;
            }
            fmt::Display::fmt(p, f)?;
        }
        f.write_str("]ε")
    }
}
