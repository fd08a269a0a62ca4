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
        // a % b = a - n b with the integer n = (a - r) / b, constant near the point.
        let r = self.c0 % rhs.c0;
        let n = ((self.c0 - r) / rhs.c0).round();
        Self::new(r, core::array::from_fn(|k| self.hi[k] - n * rhs.hi[k]))
    }
}

macro_rules! binop {
    ($Op:ident $op:ident $OpAssign:ident $op_assign:ident $imp:ident) => {
        impl<S: Real, const K: usize> $Op for Taylor<S, K> {
            type Output = Self;
            #[inline(always)]
            fn $op(self, rhs: Self) -> Self {
                self.$imp(&rhs)
            }
        }
        impl<S: Real, const K: usize> $Op<&Taylor<S, K>> for Taylor<S, K> {
            type Output = Self;
            #[inline(always)]
            fn $op(self, rhs: &Self) -> Self {
                self.$imp(rhs)
            }
        }
        impl<S: Real, const K: usize> $Op<Taylor<S, K>> for &Taylor<S, K> {
            type Output = Taylor<S, K>;
            #[inline(always)]
            fn $op(self, rhs: Taylor<S, K>) -> Taylor<S, K> {
                self.$imp(&rhs)
            }
        }
        impl<S: Real, const K: usize> $Op<&Taylor<S, K>> for &Taylor<S, K> {
            type Output = Taylor<S, K>;
            #[inline(always)]
            fn $op(self, rhs: &Taylor<S, K>) -> Taylor<S, K> {
                self.$imp(rhs)
            }
        }
        impl<S: Real, const K: usize> $OpAssign for Taylor<S, K> {
            #[inline(always)]
            fn $op_assign(&mut self, rhs: Self) {
                *self = self.$imp(&rhs);
            }
        }
        impl<S: Real, const K: usize> $OpAssign<&Taylor<S, K>> for Taylor<S, K> {
            #[inline(always)]
            fn $op_assign(&mut self, rhs: &Self) {
                *self = self.$imp(rhs);
            }
        }
    };
}

binop!(Add add AddAssign add_assign add_impl);
binop!(Sub sub SubAssign sub_assign sub_impl);
binop!(Mul mul MulAssign mul_assign mul_impl);
binop!(Div div DivAssign div_assign div_impl);
binop!(Rem rem RemAssign rem_assign rem_impl);

impl<S: Real, const K: usize> Neg for Taylor<S, K> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        Self::new(-self.c0, self.hi.map(|c| -c))
    }
}

impl<S: Real, const K: usize> Neg for &Taylor<S, K> {
    type Output = Taylor<S, K>;
    #[inline(always)]
    fn neg(self) -> Taylor<S, K> {
        -*self
    }
}

/// Equality looks at the value only: two values that agree in the primal take the same
/// branch, whatever their higher coefficients.
impl<S: Real, const K: usize> PartialEq for Taylor<S, K> {
    #[inline(always)]
    fn eq(&self, other: &Self) -> bool {
        self.c0 == other.c0
    }
}

/// Ordering looks at the value only (see [`PartialEq`]).
impl<S: Real, const K: usize> PartialOrd for Taylor<S, K> {
    #[inline(always)]
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        self.c0.partial_cmp(&other.c0)
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

impl<S: Real, const K: usize> num_traits::One for Taylor<S, K> {
    #[inline(always)]
    fn one() -> Self {
        Self::constant(S::one())
    }
}

/// Starts from `-0.0`, as `f64`'s `Sum` does, so sums of signed zeros match the primal.
impl<S: Real, const K: usize> Sum for Taylor<S, K> {
    fn sum<I: Iterator<Item = Self>>(iter: I) -> Self {
        iter.fold(Self::constant(-S::zero()), |a, b| a + b)
    }
}

impl<'a, S: Real, const K: usize> Sum<&'a Taylor<S, K>> for Taylor<S, K> {
    fn sum<I: Iterator<Item = &'a Self>>(iter: I) -> Self {
        iter.fold(Self::constant(-S::zero()), |a, b| a + b)
    }
}

impl<S: Real, const K: usize> Product for Taylor<S, K> {
    fn product<I: Iterator<Item = Self>>(iter: I) -> Self {
        iter.fold(Self::constant(S::one()), |a, b| a * b)
    }
}

impl<'a, S: Real, const K: usize> Product<&'a Taylor<S, K>> for Taylor<S, K> {
    fn product<I: Iterator<Item = &'a Self>>(iter: I) -> Self {
        iter.fold(Self::constant(S::one()), |a, b| a * b)
    }
}
