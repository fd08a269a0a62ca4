//! `ZDual<S, N>`: the zero-skipping chunked dual, the reading of gradients of many
//! inputs.
//!
//! In one pass of a chunked gradient only N inputs are seeded; every value computed
//! from the others alone has an exactly zero tangent. `ZDual` knows when that is the
//! case (its partials are `None`) and then computes the value alone, so such values
//! cost what the primal costs instead of N + 1 times as much.
//!
//! Every rule is [`NDual`]'s: an operation on values with partials runs the `NDual`
//! rule itself, and one on flat values runs the same rule at width 0 (the value alone,
//! computed by the same primal operations). Values and partials therefore equal the
//! `NDual` reading's at the same chunking; the one difference is where `NDual` would
//! add an exactly zero tangent: the sign of a zero partial may differ, and a flat
//! operand contributes nothing even where its coefficient is infinite (`NDual` gives
//! `∞ · 0 = NaN` there).
//!
//! The module is split like `ndual`: `ops` the arithmetic between values, `mixed` the
//! arithmetic with plain constants and the [`Reading`](crate::Reading) impls, `math`
//! the float method surface ([`Real`]), `num` the `num-traits` impls. Arrays of
//! `ZDual`s are plain `Vec`s and slices (see `array/primal.rs`).

mod math;
mod mixed;
mod num;
mod ops;

use core::fmt;

use crate::{NDual, Real};

/// A scalar with N tangent directions that knows when they are all zero: the forward
/// value of `f64` / `f32` in zero-skipping gradients and Jacobians.
///
/// Plain `Copy` data: the value and `Option<[S; N]>` partials, `None` meaning every
/// partial is exactly zero. The flag costs one word more than [`NDual`]; the data
/// model allows it for this reading, which is not the canonical forward value of a
/// scalar but a faster one for gradients. An array of `ZDual`s is a `Vec<ZDual<S, N>>`
/// whose every element has room for N partials, so wide passes move more memory than
/// flat values need (a split layout would not). Operations whose operands are all flat compute the value alone; an
/// operation with one flat operand skips that operand's tangent arithmetic.
/// Comparisons look at the value only, as every reading's do.
///
/// ```
/// use lifted::{Real, ZDual};
/// let x = ZDual::<f64, 2>::variable(2.0, 0);
/// let c = ZDual::<f64, 2>::constant(0.5);
/// let y = x * c.sin();     // c is flat: sin(c) costs one primal sine
/// assert!(c.sin().is_flat());
/// assert_eq!(y.value(), 2.0 * 0.5f64.sin());
/// assert_eq!(y.partials(), [0.5f64.sin(), 0.0]);
/// ```
#[repr(C)]
#[derive(Copy)]
pub struct ZDual<S, const N: usize> {
    // Partials before the value, as in `NDual` and for the same reason: lane pairs keep
    // the alignment the operations write them with when a value is spilled.
    partials: Option<[S; N]>,
    value: S,
}

/// A copy that moves a flat value's value alone. The bitwise copy `*self` moves the room
/// for N partials too; the arrays read their elements through `clone`, and a wide
/// pass, most of whose elements are flat, paid that room on every read (at width 64 it
/// was a fifth of a gradient's instructions). They write through `clone_from`, which
/// likewise writes a flat value's value and flag alone (each pass relifts the
/// arguments, most of them flat).
#[allow(clippy::non_canonical_clone_impl)]
impl<S: Copy, const N: usize> Clone for ZDual<S, N> {
    #[inline(always)]
    fn clone(&self) -> Self {
        match &self.partials {
            None => Self {
                partials: None,
                value: self.value,
            },
            Some(p) => Self {
                partials: Some(*p),
                value: self.value,
            },
        }
    }

    #[inline(always)]
    fn clone_from(&mut self, source: &Self) {
        self.value = source.value;
        match &source.partials {
            None => self.partials = None,
            Some(p) => self.partials = Some(*p),
        }
    }
}

impl<S: Real, const N: usize> ZDual<S, N> {
    /// A value with the given partials (kept even when they are all zero).
    #[inline(always)]
    pub const fn new(value: S, partials: [S; N]) -> Self {
        Self {
            value,
            partials: Some(partials),
        }
    }

    /// A value with flat (exactly zero) partials.
    #[inline(always)]
    pub const fn constant(value: S) -> Self {
        Self {
            value,
            partials: None,
        }
    }

    /// A value seeded in direction `lane`: partial `lane` is one, the others zero. A
    /// `lane` outside `0..N` seeds nothing (the value is then flat).
    #[inline(always)]
    pub fn variable(value: S, lane: usize) -> Self {
        if lane >= N {
            return Self::constant(value);
        }
        let mut partials = [S::zero(); N];
        partials[lane] = S::one();
        Self::new(value, partials)
    }

    /// The value (the primal).
    #[inline(always)]
    pub fn value(&self) -> S {
        self.value
    }

    /// All N partials (zeros when flat).
    #[inline(always)]
    pub fn partials(&self) -> [S; N] {
        self.partials.unwrap_or([S::zero(); N])
    }

    /// The partials, `None` when they are known to be all zero.
    #[inline(always)]
    pub fn partials_if_any(&self) -> Option<&[S; N]> {
        self.partials.as_ref()
    }

    /// `true` when the partials are known to be all zero without looking at them (the
    /// value is a constant of the pass).
    #[inline(always)]
    pub fn is_flat(&self) -> bool {
        self.partials.is_none()
    }

    /// The same value as an [`NDual`] (flat partials become zeros).
    #[inline(always)]
    pub fn to_ndual(self) -> NDual<S, N> {
        NDual::new(self.value, self.partials())
    }

    /// The value and partials of an [`NDual`], kept as partials.
    #[inline(always)]
    pub fn from_ndual(d: NDual<S, N>) -> Self {
        Self::new(d.value(), *d.partials())
    }

    /// The value alone, as the width-0 `NDual` the flat branch of every rule runs on.
    #[inline(always)]
    pub(crate) fn bare(self) -> NDual<S, 0> {
        NDual::new(self.value, [])
    }

    /// The flat result of a rule run at width 0.
    #[inline(always)]
    pub(crate) fn from_bare(d: NDual<S, 0>) -> Self {
        Self::constant(d.value())
    }

    /// Partials of an operand of a rule some other operand of which has partials.
    #[inline(always)]
    pub(crate) fn dense(self) -> NDual<S, N> {
        self.to_ndual()
    }
}

/// Runs the `NDual` rule `$body` on `$d`: at width N when `$x` has partials, at width 0
/// (the value alone) when it is flat.
macro_rules! zmap {
    ($x:expr, |$d:ident| $body:expr) => {{
        let x = $x;
        match x.partials {
            None => {
                let $d = x.bare();
                ZDual::from_bare($body)
            }
            Some(p) => {
                let $d = NDual::new(x.value, p);
                ZDual::from_ndual($body)
            }
        }
    }};
}

/// [`zmap!`] for a rule of two operands: the value alone when both are flat.
macro_rules! zmap2 {
    ($a:expr, $b:expr, |$x:ident, $y:ident| $body:expr) => {{
        let (a, b) = ($a, $b);
        if a.partials.is_none() && b.partials.is_none() {
            let ($x, $y) = (a.bare(), b.bare());
            ZDual::from_bare($body)
        } else {
            let ($x, $y) = (a.dense(), b.dense());
            ZDual::from_ndual($body)
        }
    }};
}

/// [`zmap!`] for a rule of three operands: the value alone when all are flat.
macro_rules! zmap3 {
    ($a:expr, $b:expr, $c:expr, |$x:ident, $y:ident, $z:ident| $body:expr) => {{
        let (a, b, c) = ($a, $b, $c);
        if a.partials.is_none() && b.partials.is_none() && c.partials.is_none() {
            let ($x, $y, $z) = (a.bare(), b.bare(), c.bare());
            ZDual::from_bare($body)
        } else {
            let ($x, $y, $z) = (a.dense(), b.dense(), c.dense());
            ZDual::from_ndual($body)
        }
    }};
}

pub(crate) use {zmap, zmap2, zmap3};

impl<S: Real, const N: usize> Default for ZDual<S, N> {
    /// Zero, flat.
    fn default() -> Self {
        Self::constant(S::zero())
    }
}

impl<S: Real, const N: usize> fmt::Debug for ZDual<S, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.partials {
            Some(p) => write!(f, "ZDual({:?}; {:?})", self.value, p),
            None => write!(f, "ZDual({:?}; flat)", self.value),
        }
    }
}

impl<S: Real, const N: usize> fmt::Display for ZDual<S, N> {
    /// Shows the value and the partials as `NDual` does: `0.5 + [1, 0]ε`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_ndual(), f)
    }
}
