//! `Pattern<S>`: the sparsity-pattern reading. A value carries its primal and the set
//! of inputs it depends on, as a handle on the thread's tape (`sparse::trace`); a
//! derived rule runs at it unchanged, and the sets of its outputs are the rows of the
//! Jacobian's sparsity pattern.
//!
//! Every operation's set is the union of its operands' sets, the same whatever the
//! values: the structural pattern, as SparseConnectivityTracer's, with no cancellation
//! (`x - x` keeps `x`) and with the operands of `min`, `max`, `clamp` and `abs` all
//! kept, so that a pattern stays valid where another operand is picked. Integer-valued
//! functions (`floor`, `round`, `signum`, …) have no derivative and an empty set.
//! Comparisons, value queries (`is_nan`, …) and casts to integers are *decisions*:
//! the tape records them (see [`PatternMode`](crate::sparse::PatternMode)).
//!
//! The module is split like the other readings: `ops` the arithmetic and comparisons
//! between values, `mixed` the arithmetic and comparisons with plain constants and the
//! [`Reading`](crate::Reading) impls, `math` the float method surface ([`Real`]),
//! `num` the `num-traits` impls. Arrays of patterns are plain `Vec`s and slices.

mod math;
mod mixed;
mod num;
mod ops;

use core::fmt;

use super::trace::{self, EMPTY};
use crate::Real;
use crate::array::SliceReading;

/// A value of the sparsity-pattern reading: the primal value and the set of inputs it
/// depends on.
///
/// Built by [`sparsity`](crate::sparse::sparsity) and
/// [`SparseJacobian`](crate::sparse::SparseJacobian), which seed input `j` with the set
/// `{j}` and read the sets of the outputs; outside such a run its sets are not
/// recorded. Plain `Copy` data: the value and a 32-bit handle.
#[derive(Clone, Copy)]
pub struct Pattern<S> {
    value: S,
    set: u32,
}

impl<S: Real> Pattern<S> {
    /// A value that depends on no input.
    #[inline(always)]
    pub fn constant(value: S) -> Self {
        Self { value, set: EMPTY }
    }

    /// Input `index` (counted from 0) of a run.
    #[inline(always)]
    pub(crate) fn input(value: S, index: u32) -> Self {
        Self {
            value,
            set: index + 1,
        }
    }

    /// The value (the primal).
    #[inline(always)]
    pub fn value(&self) -> S {
        self.value
    }

    /// Whether the value depends on no input.
    #[inline(always)]
    pub fn is_constant(&self) -> bool {
        self.set == EMPTY
    }

    /// The set's handle on the tape.
    #[inline(always)]
    pub(crate) fn set(&self) -> u32 {
        self.set
    }

    /// The same set with another value.
    #[inline(always)]
    fn with_value(self, value: S) -> Self {
        Self { value, ..self }
    }

    /// A value whose set is the union of `self`'s and `other`'s.
    #[inline(always)]
    fn joined(self, other: Self, value: S) -> Self {
        Self {
            value,
            set: trace::union(self.set, other.set),
        }
    }

    /// Records a decision on this value alone.
    #[inline(always)]
    #[track_caller]
    fn decide(&self, outcome: u64) {
        trace::decide(self.set, EMPTY, outcome);
    }
}

impl<S: Real> Default for Pattern<S> {
    /// Zero, depending on no input.
    fn default() -> Self {
        Self::constant(S::zero())
    }
}

impl<S: Real> fmt::Debug for Pattern<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.set == EMPTY {
            write!(f, "Pattern({:?}; constant)", self.value)
        } else {
            write!(f, "Pattern({:?}; set #{})", self.value, self.set)
        }
    }
}

impl<S: Real> fmt::Display for Pattern<S> {
    /// Shows the value, as the primal would.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.value, f)
    }
}

impl<S: Real> SliceReading for Pattern<S> {}

/// The outcome of a comparison as a decision's record.
#[inline(always)]
fn ordering_code(o: Option<core::cmp::Ordering>) -> u64 {
    match o {
        None => 3,
        Some(o) => (o as i8 + 1) as u64,
    }
}
