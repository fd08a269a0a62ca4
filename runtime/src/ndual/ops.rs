//! Arithmetic between duals: each operator's rule written once, stamped for owned and
//! borrowed operands; comparisons on the value only.

use core::cmp::Ordering;
use core::iter::{Product, Sum};
use core::ops::{
    Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Rem, RemAssign, Sub, SubAssign,
};

use super::NDual;
use crate::Real;
use crate::reading::{all_finite, safe_lanes, times_safe};

impl<S: Real, const N: usize> NDual<S, N> {
    #[inline(always)]
    fn add_impl(&self, rhs: &Self) -> Self {
        Self::new(
            self.value + rhs.value,
            core::array::from_fn(|k| self.partials[k] + rhs.partials[k]),
        )
    }

    #[inline(always)]
    fn sub_impl(&self, rhs: &Self) -> Self {
        Self::new(
            self.value - rhs.value,
            core::array::from_fn(|k| self.partials[k] - rhs.partials[k]),
        )
    }

    #[inline(always)]
    fn mul_impl(&self, rhs: &Self) -> Self {
        let (a, b) = (self.value, rhs.value);
        let (p, q) = (&self.partials, &rhs.partials);
        Self::new(
            a * b,
            safe_lanes(
                all_finite([a, b]),
                |k| b * p[k] + a * q[k],
                || (a, b, *p, *q),
                |(a, b, p, q), k| times_safe(*b, p[k]) + times_safe(*a, q[k]),
            ),
        )
    }

    #[inline(always)]
    fn div_impl(&self, rhs: &Self) -> Self {
        // (ȧ - q ḃ) / b with the quotient q computed once; one reciprocal for all lanes.
        let q = self.value / rhs.value;
        let inv = S::one() / rhs.value;
        let (p, r) = (&self.partials, &rhs.partials);
        Self::new(
            q,
            safe_lanes(
                all_finite([q, inv]),
                |k| inv * (p[k] - q * r[k]),
                || (q, inv, *p, *r),
                |(q, inv, p, r), k| times_safe(*inv, p[k] - times_safe(*q, r[k])),
            ),
        )
    }

    #[inline(always)]
    fn rem_impl(&self, rhs: &Self) -> Self {
        Self::rem(*self, *rhs)
    }

    operator_table!(linear_rules! value ndual_linear);
}

operator_impls!(NDual);

impl<S: Real, const N: usize> Neg for NDual<S, N> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        Self::new(-self.value, self.partials.map(|p| -p))
    }
}

impl<S: Real, const N: usize> num_traits::Zero for NDual<S, N> {
    #[inline(always)]
    fn zero() -> Self {
        Self::constant(S::zero())
    }
    /// Zero value *and* zero partials.
    #[inline(always)]
    fn is_zero(&self) -> bool {
        self.value.is_zero() && self.partials.iter().all(|p| p.is_zero())
    }
}
