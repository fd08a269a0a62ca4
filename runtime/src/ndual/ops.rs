//! Arithmetic between duals: each operator's rule written once, stamped for owned and
//! borrowed operands; comparisons on the value only.

use core::cmp::Ordering;
use core::iter::{Product, Sum};
use core::ops::{
    Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Rem, RemAssign, Sub, SubAssign,
};

use super::NDual;
use crate::Real;
use crate::reading::{all_finite, times_safe};

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
        if all_finite([self.value, rhs.value]) {
            self.mul_with(rhs, |c, d| c * d)
        } else {
            self.mul_with(rhs, times_safe)
        }
    }

    /// The product rule with `times` for each product of a value and a partial: the
    /// plain product, or strong zero when a value is not finite (NaN-safe lanes).
    #[inline(always)]
    fn mul_with(&self, rhs: &Self, times: impl Fn(S, S) -> S) -> Self {
        let (a, b) = (self.value, rhs.value);
        Self::new(
            a * b,
            core::array::from_fn(|k| times(b, self.partials[k]) + times(a, rhs.partials[k])),
        )
    }

    #[inline(always)]
    fn div_impl(&self, rhs: &Self) -> Self {
        // (ȧ - q ḃ) / b with the quotient q computed once; one reciprocal for all lanes.
        let q = self.value / rhs.value;
        let inv = S::one() / rhs.value;
        if all_finite([q, inv]) {
            self.div_with(rhs, q, inv, |c, d| c * d)
        } else {
            self.div_with(rhs, q, inv, times_safe)
        }
    }

    /// The quotient rule with `times` for the products with `q` and `1 / b`: plain,
    /// or strong zero (NaN-safe lanes).
    #[inline(always)]
    fn div_with(&self, rhs: &Self, q: S, inv: S, times: impl Fn(S, S) -> S) -> Self {
        Self::new(
            q,
            core::array::from_fn(|k| times(inv, self.partials[k] - times(q, rhs.partials[k]))),
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
