//! Arithmetic between Taylor polynomials: each operator's rule written once, stamped
//! for owned and borrowed operands; comparisons on the value only.

use core::cmp::Ordering;
use core::iter::{Product, Sum};
use core::ops::{
    Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Rem, RemAssign, Sub, SubAssign,
};

use super::Taylor;
use crate::Real;

impl<S: Real, const K: usize> Taylor<S, K> {
    #[inline(always)]
    fn add_impl(&self, rhs: &Self) -> Self {
        Self::new(
            self.c0 + rhs.c0,
            core::array::from_fn(|k| self.hi[k] + rhs.hi[k]),
        )
    }

    #[inline(always)]
    fn sub_impl(&self, rhs: &Self) -> Self {
        Self::new(
            self.c0 - rhs.c0,
            core::array::from_fn(|k| self.hi[k] - rhs.hi[k]),
        )
    }

    #[inline(always)]
    fn mul_impl(&self, rhs: &Self) -> Self {
        self.mul_series(rhs, self.c0 * rhs.c0)
    }

    #[inline(always)]
    fn div_impl(&self, rhs: &Self) -> Self {
        self.div_series(rhs, self.c0 / rhs.c0)
    }

    #[inline(always)]
    fn rem_impl(&self, rhs: &Self) -> Self {
        Self::rem(*self, *rhs)
    }

    operator_table!(linear_rules! c0 taylor_linear);
}

operator_impls!(Taylor);

impl<S: Real, const K: usize> Neg for Taylor<S, K> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        Self::new(-self.c0, self.hi.map(|c| -c))
    }
}

impl<S: Real, const K: usize> num_traits::Zero for Taylor<S, K> {
    #[inline(always)]
    fn zero() -> Self {
        Self::constant(S::zero())
    }
    /// Zero value *and* zero higher coefficients.
    #[inline(always)]
    fn is_zero(&self) -> bool {
        self.c0.is_zero() && self.hi.iter().all(|c| c.is_zero())
    }
}
