//! Arithmetic between zero-skipping duals: each operator's rule written once, stamped
//! for owned and borrowed operands by the shared `operator_impls!`; comparisons on the
//! value only.
//!
//! `+ - * /` skip a flat operand's tangent arithmetic by hand (they dominate the
//! passes of a gradient); the result is `NDual`'s with that operand's zero terms left
//! out. `%` runs `NDual`'s rule through [`zmap2!`].

use core::cmp::Ordering;
use core::iter::{Product, Sum};
use core::ops::{
    Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Rem, RemAssign, Sub, SubAssign,
};

use super::{ZDual, zmap2};
use crate::Real;
use crate::reading::{all_finite, times_safe};

impl<S: Real, const N: usize> ZDual<S, N> {
    #[inline(always)]
    fn add_impl(&self, rhs: &Self) -> Self {
        let value = self.value + rhs.value;
        let partials = match (&self.partials, &rhs.partials) {
            (Some(p), Some(q)) => Some(core::array::from_fn(|k| p[k] + q[k])),
            (Some(p), None) => Some(*p),
            (None, Some(q)) => Some(*q),
            (None, None) => None,
        };
        Self { value, partials }
    }

    #[inline(always)]
    fn sub_impl(&self, rhs: &Self) -> Self {
        let value = self.value - rhs.value;
        let partials = match (&self.partials, &rhs.partials) {
            (Some(p), Some(q)) => Some(core::array::from_fn(|k| p[k] - q[k])),
            (Some(p), None) => Some(*p),
            (None, Some(q)) => Some(q.map(|q| -q)),
            (None, None) => None,
        };
        Self { value, partials }
    }

    #[inline(always)]
    fn mul_impl(&self, rhs: &Self) -> Self {
        if all_finite([self.value, rhs.value]) {
            self.mul_with(rhs, |c, d| c * d)
        } else {
            self.mul_with(rhs, times_safe)
        }
    }

    /// NDual's product rule, a flat operand's term left out, with `times` for each
    /// product of a value and a partial (strong zero when a value is not finite).
    #[inline(always)]
    fn mul_with(&self, rhs: &Self, times: impl Fn(S, S) -> S) -> Self {
        let (a, b) = (self.value, rhs.value);
        let partials = match (&self.partials, &rhs.partials) {
            (Some(p), Some(q)) => Some(core::array::from_fn(|k| times(b, p[k]) + times(a, q[k]))),
            (Some(p), None) => Some(p.map(|p| times(b, p))),
            (None, Some(q)) => Some(q.map(|q| times(a, q))),
            (None, None) => None,
        };
        Self {
            value: a * b,
            partials,
        }
    }

    #[inline(always)]
    fn div_impl(&self, rhs: &Self) -> Self {
        // NDual's (ȧ - q ḃ) / b, one reciprocal for all lanes, a flat operand's term
        // left out.
        let q = self.value / rhs.value;
        if self.partials.is_none() && rhs.partials.is_none() {
            return Self {
                value: q,
                partials: None,
            };
        }
        let inv = S::one() / rhs.value;
        if all_finite([q, inv]) {
            self.div_with(rhs, q, inv, |c, d| c * d)
        } else {
            self.div_with(rhs, q, inv, times_safe)
        }
    }

    /// [`div_impl`](Self::div_impl) with `times` for the products with `q` and
    /// `1 / b` (strong zero when either is not finite).
    #[inline(always)]
    fn div_with(&self, rhs: &Self, q: S, inv: S, times: impl Fn(S, S) -> S) -> Self {
        let partials = match (&self.partials, &rhs.partials) {
            (Some(p), Some(r)) => Some(core::array::from_fn(|k| times(inv, p[k] - times(q, r[k])))),
            (Some(p), None) => Some(p.map(|p| times(inv, p))),
            (None, Some(r)) => Some(r.map(|r| times(inv, -times(q, r)))),
            (None, None) => None,
        };
        Self { value: q, partials }
    }

    #[inline(always)]
    fn rem_impl(&self, rhs: &Self) -> Self {
        zmap2!(*self, *rhs, |a, b| a % b)
    }
}

operator_impls!(ZDual);

impl<S: Real, const N: usize> Neg for ZDual<S, N> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        Self {
            value: -self.value,
            partials: self.partials.map(|p| p.map(|p| -p)),
        }
    }
}

impl<S: Real, const N: usize> num_traits::Zero for ZDual<S, N> {
    #[inline(always)]
    fn zero() -> Self {
        Self::constant(S::zero())
    }
    /// Zero value *and* zero partials.
    #[inline(always)]
    fn is_zero(&self) -> bool {
        self.value.is_zero()
            && self
                .partials
                .as_ref()
                .is_none_or(|p| p.iter().all(|p| p.is_zero()))
    }
}
