//! Arithmetic between hyper-dual numbers: each operator's rule written once, stamped
//! for owned and borrowed operands by the shared macros; comparisons on the value only.

use core::cmp::Ordering;
use core::iter::{Product, Sum};
use core::ops::{
    Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Rem, RemAssign, Sub, SubAssign,
};

use super::HyperDual;
use crate::Real;
use crate::reading::{all_finite, or_zero, times_safe};

impl<S: Real> HyperDual<S> {
    #[inline(always)]
    fn add_impl(&self, rhs: &Self) -> Self {
        self.zip(rhs, self.value + rhs.value, |p, q| p + q)
    }

    #[inline(always)]
    fn sub_impl(&self, rhs: &Self) -> Self {
        self.zip(rhs, self.value - rhs.value, |p, q| p - q)
    }

    /// `(ab)ᵢ = aᵢ b + a bᵢ`, `(ab)₁₂ = a₁₂ b + a₁ b₂ + a₂ b₁ + a b₁₂`.
    #[inline(always)]
    fn mul_impl(&self, rhs: &Self) -> Self {
        if all_finite([self.value, rhs.value]) {
            self.mul_with(rhs, |c, d| c * d)
        } else {
            self.mul_with(rhs, times_safe)
        }
    }

    /// The product rule with `times` for each product of a value and a part: the
    /// plain product, or strong zero when a value is not finite (NaN-safe parts).
    #[inline(always)]
    fn mul_with(&self, rhs: &Self, times: impl Fn(S, S) -> S) -> Self {
        let (x, y) = (self, rhs);
        let (a, b) = (x.value, y.value);
        Self::new(
            a * b,
            times(b, x.e1) + times(a, y.e1),
            times(b, x.e2) + times(a, y.e2),
            times(b, x.e12) + x.e1 * y.e2 + x.e2 * y.e1 + times(a, y.e12),
        )
    }

    /// From `a = q b`: `qᵢ = (aᵢ − q bᵢ) / b`, `q₁₂ = (a₁₂ − q₁ b₂ − q₂ b₁ − q b₁₂) / b`.
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
    /// divisions by `b`: plain, or strong zero (NaN-safe parts).
    #[inline(always)]
    fn div_with(
        &self,
        rhs: &Self,
        q: S,
        times: impl Fn(S, S) -> S,
        over: impl Fn(S, S) -> S,
    ) -> Self {
        let (x, y) = (self, rhs);
        let b = y.value;
        let q1 = over(x.e1 - times(q, y.e1), b);
        let q2 = over(x.e2 - times(q, y.e2), b);
        Self::new(
            q,
            q1,
            q2,
            over(x.e12 - q1 * y.e2 - q2 * y.e1 - times(q, y.e12), b),
        )
    }

    #[inline(always)]
    fn rem_impl(&self, rhs: &Self) -> Self {
        Self::rem(*self, *rhs)
    }

    operator_table!(linear_rules! value second_order_linear);
}

operator_impls!(HyperDual<S>);

impl<S: Real> Neg for HyperDual<S> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        self.map(-self.value, |p| -p)
    }
}

impl<S: Real> num_traits::Zero for HyperDual<S> {
    #[inline(always)]
    fn zero() -> Self {
        Self::constant(S::zero())
    }
    /// Zero value *and* zero parts.
    #[inline(always)]
    fn is_zero(&self) -> bool {
        self.value.is_zero() && self.e1.is_zero() && self.e2.is_zero() && self.e12.is_zero()
    }
}
