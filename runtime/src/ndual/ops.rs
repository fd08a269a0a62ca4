//! Arithmetic between duals: each operator's rule written once, stamped for owned and
//! borrowed operands; comparisons on the value only.

use core::cmp::Ordering;
use core::iter::{Product, Sum};
use core::ops::{
    Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Rem, RemAssign, Sub, SubAssign,
};

use super::NDual;
use crate::Real;

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
        Self::new(
            a * b,
            core::array::from_fn(|k| self.partials[k] * b + a * rhs.partials[k]),
        )
    }

    #[inline(always)]
    fn div_impl(&self, rhs: &Self) -> Self {
        // (ȧ - q ḃ) / b with the quotient q computed once; one reciprocal for all lanes.
        let q = self.value / rhs.value;
        let inv = S::one() / rhs.value;
        Self::new(
            q,
            core::array::from_fn(|k| (self.partials[k] - q * rhs.partials[k]) * inv),
        )
    }

    #[inline(always)]
    fn rem_impl(&self, rhs: &Self) -> Self {
        // a % b = a - n b with the integer n = (a - r) / b: ṙ = ȧ - n ḃ.
        let r = self.value % rhs.value;
        let n = ((self.value - r) / rhs.value).round();
        Self::new(
            r,
            core::array::from_fn(|k| self.partials[k] - n * rhs.partials[k]),
        )
    }
}

macro_rules! binop {
    ($Op:ident $op:ident $OpAssign:ident $op_assign:ident $imp:ident) => {
        impl<S: Real, const N: usize> $Op for NDual<S, N> {
            type Output = Self;
            #[inline(always)]
            fn $op(self, rhs: Self) -> Self {
                self.$imp(&rhs)
            }
        }
        impl<S: Real, const N: usize> $Op<&NDual<S, N>> for NDual<S, N> {
            type Output = Self;
            #[inline(always)]
            fn $op(self, rhs: &Self) -> Self {
                self.$imp(rhs)
            }
        }
        impl<S: Real, const N: usize> $Op<NDual<S, N>> for &NDual<S, N> {
            type Output = NDual<S, N>;
            #[inline(always)]
            fn $op(self, rhs: NDual<S, N>) -> NDual<S, N> {
                self.$imp(&rhs)
            }
        }
        impl<S: Real, const N: usize> $Op<&NDual<S, N>> for &NDual<S, N> {
            type Output = NDual<S, N>;
            #[inline(always)]
            fn $op(self, rhs: &NDual<S, N>) -> NDual<S, N> {
                self.$imp(rhs)
            }
        }
        impl<S: Real, const N: usize> $OpAssign for NDual<S, N> {
            #[inline(always)]
            fn $op_assign(&mut self, rhs: Self) {
                *self = self.$imp(&rhs);
            }
        }
        impl<S: Real, const N: usize> $OpAssign<&NDual<S, N>> for NDual<S, N> {
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

impl<S: Real, const N: usize> Neg for NDual<S, N> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        Self::new(-self.value, self.partials.map(|p| -p))
    }
}

impl<S: Real, const N: usize> Neg for &NDual<S, N> {
    type Output = NDual<S, N>;
    #[inline(always)]
    fn neg(self) -> NDual<S, N> {
        -*self
    }
}

/// Equality looks at the value only: two slots that agree in the primal take the same
/// branch, whatever their tangents.
impl<S: Real, const N: usize> PartialEq for NDual<S, N> {
    #[inline(always)]
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value
    }
}

/// Ordering looks at the value only (see [`PartialEq`]).
impl<S: Real, const N: usize> PartialOrd for NDual<S, N> {
    #[inline(always)]
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        self.value.partial_cmp(&other.value)
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

impl<S: Real, const N: usize> num_traits::One for NDual<S, N> {
    #[inline(always)]
    fn one() -> Self {
        Self::constant(S::one())
    }
}

/// Starts from `-0.0`, as `f64`'s `Sum` does, so sums of signed zeros match the primal.
impl<S: Real, const N: usize> Sum for NDual<S, N> {
    fn sum<I: Iterator<Item = Self>>(iter: I) -> Self {
        iter.fold(Self::constant(-S::zero()), |a, b| a + b)
    }
}

impl<'a, S: Real, const N: usize> Sum<&'a NDual<S, N>> for NDual<S, N> {
    fn sum<I: Iterator<Item = &'a Self>>(iter: I) -> Self {
        iter.fold(Self::constant(-S::zero()), |a, b| a + b)
    }
}

impl<S: Real, const N: usize> Product for NDual<S, N> {
    fn product<I: Iterator<Item = Self>>(iter: I) -> Self {
        iter.fold(Self::constant(S::one()), |a, b| a * b)
    }
}

impl<'a, S: Real, const N: usize> Product<&'a NDual<S, N>> for NDual<S, N> {
    fn product<I: Iterator<Item = &'a Self>>(iter: I) -> Self {
        iter.fold(Self::constant(S::one()), |a, b| a * b)
    }
}
