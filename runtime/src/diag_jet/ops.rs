//! Arithmetic between diagonal jets: each operator's rule written once, stamped for
//! owned and borrowed operands by the shared macros; comparisons on the value only.

use core::cmp::Ordering;
use core::iter::{Product, Sum};
use core::ops::{
    Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Rem, RemAssign, Sub, SubAssign,
};

use super::DiagJet;
use crate::Real;
use crate::reading::{all_finite, or_zero, times_safe};

impl<S: Real, const N: usize> DiagJet<S, N> {
    #[inline(always)]
    fn add_impl(&self, rhs: &Self) -> Self {
        Self::new(
            self.value + rhs.value,
            core::array::from_fn(|k| self.first[k] + rhs.first[k]),
            core::array::from_fn(|k| self.second[k] + rhs.second[k]),
        )
    }

    #[inline(always)]
    fn sub_impl(&self, rhs: &Self) -> Self {
        Self::new(
            self.value - rhs.value,
            core::array::from_fn(|k| self.first[k] - rhs.first[k]),
            core::array::from_fn(|k| self.second[k] - rhs.second[k]),
        )
    }

    /// `(ab)˙ = ȧ b + a ḃ`, `(ab)¨ = ä b + 2 ȧ ḃ + a b̈`.
    #[inline(always)]
    fn mul_impl(&self, rhs: &Self) -> Self {
        if all_finite([self.value, rhs.value]) {
            self.mul_with(rhs, |c, d| c * d)
        } else {
            self.mul_with(rhs, times_safe)
        }
    }

    /// The product rule with `times` for each product of a value and a part: the
    /// plain product, or strong zero when a value is not finite (NaN-safe lanes).
    #[inline(always)]
    fn mul_with(&self, rhs: &Self, times: impl Fn(S, S) -> S) -> Self {
        let (a, b) = (self.value, rhs.value);
        Self::new(
            a * b,
            core::array::from_fn(|k| times(b, self.first[k]) + times(a, rhs.first[k])),
            core::array::from_fn(|k| {
                let cross = self.first[k] * rhs.first[k];
                times(b, self.second[k]) + (cross + cross) + times(a, rhs.second[k])
            }),
        )
    }

    /// From `a = q b`: `q̇ = (ȧ − q ḃ) / b`, `q̈ = (ä − 2 q̇ ḃ − q b̈) / b`.
    #[inline(always)]
    fn div_impl(&self, rhs: &Self) -> Self {
        let q = self.value / rhs.value;
        if all_finite([q]) && rhs.value != S::zero() {
            self.div_with(rhs, q, |c, d| c * d, |d, b| d / b)
        } else {
            self.div_with(rhs, q, times_safe, |d, b| or_zero(d, |d| d / b))
        }
    }

    /// The quotient rule with `times` and `over` for the products with `q` and the
    /// divisions by `b`: plain, or strong zero (NaN-safe lanes).
    #[inline(always)]
    fn div_with(
        &self,
        rhs: &Self,
        q: S,
        times: impl Fn(S, S) -> S,
        over: impl Fn(S, S) -> S,
    ) -> Self {
        let b = rhs.value;
        let first: [S; N] =
            core::array::from_fn(|k| over(self.first[k] - times(q, rhs.first[k]), b));
        let second = core::array::from_fn(|k| {
            let cross = first[k] * rhs.first[k];
            over(
                self.second[k] - (cross + cross) - times(q, rhs.second[k]),
                b,
            )
        });
        Self::new(q, first, second)
    }

    #[inline(always)]
    fn rem_impl(&self, rhs: &Self) -> Self {
        Self::rem(*self, *rhs)
    }

    operator_table!(linear_rules! value second_order_linear);
}

operator_impls!(DiagJet);

impl<S: Real, const N: usize> Neg for DiagJet<S, N> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        Self::new(-self.value, self.first.map(|c| -c), self.second.map(|c| -c))
    }
}

impl<S: Real, const N: usize> num_traits::Zero for DiagJet<S, N> {
    #[inline(always)]
    fn zero() -> Self {
        Self::constant(S::zero())
    }
    /// Zero value *and* zero partials.
    #[inline(always)]
    fn is_zero(&self) -> bool {
        self.value.is_zero()
            && self.first.iter().all(|c| c.is_zero())
            && self.second.iter().all(|c| c.is_zero())
    }
}
