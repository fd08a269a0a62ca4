//! `DeviceDual<S, N>`, the scalar of the CUDA reading: an [`NDual`] in every respect
//! (each rule is `NDual`'s, delegated), whose arrays are [`DeviceVec`]s.

use core::cmp::Ordering;
use core::fmt;
use core::iter::{Product, Sum};
use core::ops::{
    Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Rem, RemAssign, Sub, SubAssign,
};

use crate::cuda::DeviceFloat;
use crate::reading::convert::{IntoReading, ToPrimal};
use crate::{NDual, Reading, Real};

/// The reading that runs derived rules on device arrays: scalars are host values with
/// N tangent lanes (an [`NDual`], every rule delegated to it); arrays are [`DeviceVec`](super::DeviceVec)s,
/// whose whole-array operations (the functions of [`crate::elementwise`], products,
/// sums) run on the GPU as one kernel or cuBLAS call when an operand lives there.
///
/// A derived rule needs no change to run at this reading: call its `frule` with
/// `D = DeviceDual<f64, N>` (or `f32` for a function written in `f32`) and device
/// arrays as the lifted arguments. See the book's GPU chapter.
#[repr(transparent)]
#[derive(Clone, Copy)]
pub struct DeviceDual<S, const N: usize>(pub NDual<S, N>);

impl<S: Real, const N: usize> DeviceDual<S, N> {
    /// A value with the given partials.
    #[inline(always)]
    pub const fn new(value: S, partials: [S; N]) -> Self {
        Self(NDual::new(value, partials))
    }

    /// A constant (zero partials).
    #[inline(always)]
    pub fn constant(value: S) -> Self {
        Self(NDual::constant(value))
    }

    /// The value (the primal).
    #[inline(always)]
    pub fn value(&self) -> S {
        self.0.value()
    }

    /// The N partials.
    #[inline(always)]
    pub fn partials(&self) -> &[S; N] {
        self.0.partials()
    }

    #[inline(always)]
    fn add_impl(&self, rhs: &Self) -> Self {
        Self(self.0 + rhs.0)
    }
    #[inline(always)]
    fn sub_impl(&self, rhs: &Self) -> Self {
        Self(self.0 - rhs.0)
    }
    #[inline(always)]
    fn mul_impl(&self, rhs: &Self) -> Self {
        Self(self.0 * rhs.0)
    }
    #[inline(always)]
    fn div_impl(&self, rhs: &Self) -> Self {
        Self(self.0 / rhs.0)
    }
    #[inline(always)]
    fn rem_impl(&self, rhs: &Self) -> Self {
        Self(self.0 % rhs.0)
    }
}

impl<S, const N: usize> From<NDual<S, N>> for DeviceDual<S, N> {
    #[inline(always)]
    fn from(x: NDual<S, N>) -> Self {
        Self(x)
    }
}

impl<S, const N: usize> From<DeviceDual<S, N>> for NDual<S, N> {
    #[inline(always)]
    fn from(x: DeviceDual<S, N>) -> Self {
        x.0
    }
}

operator_impls!(DeviceDual);

impl<S: Real, const N: usize> Neg for DeviceDual<S, N> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        Self(-self.0)
    }
}

impl<S: Real, const N: usize> num_traits::Zero for DeviceDual<S, N> {
    #[inline(always)]
    fn zero() -> Self {
        Self(NDual::zero())
    }
    #[inline(always)]
    fn is_zero(&self) -> bool {
        self.0.is_zero()
    }
}

impl<S: Real, const N: usize> Default for DeviceDual<S, N> {
    fn default() -> Self {
        Self(NDual::default())
    }
}

impl<S: Real, const N: usize> fmt::Debug for DeviceDual<S, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DeviceDual({:?})", self.0)
    }
}

impl<S: Real, const N: usize> fmt::Display for DeviceDual<S, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// Forwards methods of `Real` to `NDual`'s rule, wrapping `Self` arguments and results.
macro_rules! forward {
    ([unary] $($name:ident)*) => {
        forward!(unary $($name)*);
    };
    (unary $($name:ident)*) => {$(
        #[inline(always)]
        fn $name(self) -> Self {
            Self(Real::$name(self.0))
        }
    )*};
    (binary $($name:ident)*) => {$(
        #[inline(always)]
        fn $name(self, other: Self) -> Self {
            Self(Real::$name(self.0, other.0))
        }
    )*};
    (query $($name:ident)*) => {$(
        #[inline(always)]
        fn $name(self) -> bool {
            Real::$name(self.0)
        }
    )*};
}

impl<S: DeviceFloat, const N: usize> Real for DeviceDual<S, N> {
    type Field = S;
    const ORDER: usize = 1;

    #[inline(always)]
    fn cst(c: f64) -> Self {
        Self(NDual::cst(c))
    }
    #[inline(always)]
    fn primal_f64(self) -> f64 {
        self.0.primal_f64()
    }
    #[inline(always)]
    fn is_exact_zero(&self) -> bool {
        self.0.is_exact_zero()
    }

    unary_names!(forward unary);
    forward!(binary atan2 log powf hypot copysign min max rem_euclid div_euclid);
    forward!(query is_nan is_finite is_infinite is_sign_negative is_sign_positive);

    #[inline(always)]
    fn sin_cos(self) -> (Self, Self) {
        let (s, c) = self.0.sin_cos();
        (Self(s), Self(c))
    }
    #[inline(always)]
    fn powi(self, n: i32) -> Self {
        Self(self.0.powi(n))
    }
    #[inline(always)]
    fn clamp(self, lo: Self, hi: Self) -> Self {
        Self(self.0.clamp(lo.0, hi.0))
    }
    #[inline(always)]
    fn mul_add(self, a: Self, b: Self) -> Self {
        Self(self.0.mul_add(a.0, b.0))
    }
}

macro_rules! reading {
    ($f:ident) => {
        reading!(@op $f Add add AddAssign add_assign);
        reading!(@op $f Sub sub SubAssign sub_assign);
        reading!(@op $f Mul mul MulAssign mul_assign);
        reading!(@op $f Div div DivAssign div_assign);
        reading!(@op $f Rem rem RemAssign rem_assign);

        /// Compares the value with a constant.
        impl<const N: usize> PartialEq<$f> for DeviceDual<$f, N> {
            #[inline(always)]
            fn eq(&self, other: &$f) -> bool {
                self.0 == *other
            }
        }
        /// Compares the value with a constant.
        impl<const N: usize> PartialOrd<$f> for DeviceDual<$f, N> {
            #[inline(always)]
            fn partial_cmp(&self, other: &$f) -> Option<core::cmp::Ordering> {
                self.0.partial_cmp(other)
            }
        }

        /// The sum of plain constants, as a constant.
        impl<const N: usize> core::iter::Sum<$f> for DeviceDual<$f, N> {
            #[inline]
            fn sum<I: Iterator<Item = $f>>(iter: I) -> Self {
                Self(<NDual<$f, N> as Reading<$f>>::constant(iter.sum::<$f>()))
            }
        }

        impl<const N: usize> Reading<$f> for DeviceDual<$f, N> {
            #[inline(always)]
            fn constant(c: $f) -> Self {
                Self(<NDual<$f, N> as Reading<$f>>::constant(c))
            }
            #[inline(always)]
            fn primal_scalar(self) -> $f {
                self.0.primal_scalar()
            }
            #[inline(always)]
            fn radd(self, c: $f) -> Self {
                Self(self.0.radd(c))
            }
            #[inline(always)]
            fn rsub(self, c: $f) -> Self {
                Self(self.0.rsub(c))
            }
            #[inline(always)]
            fn rmul(self, c: $f) -> Self {
                Self(self.0.rmul(c))
            }
            #[inline(always)]
            fn rdiv(self, c: $f) -> Self {
                Self(self.0.rdiv(c))
            }
            #[inline(always)]
            fn rrem(self, c: $f) -> Self {
                Self(self.0.rrem(c))
            }
            #[inline]
            fn compose(self, derivs: &[$f]) -> Self {
                Self(self.0.compose(derivs))
            }
        }

        impl<const N: usize> IntoReading<$f, DeviceDual<$f, N>> for DeviceDual<$f, N> {
            #[inline(always)]
            fn into_reading(self) -> Self {
                self
            }
        }

        impl<const N: usize> ToPrimal for DeviceDual<$f, N> {
            type Primal = $f;
            #[inline(always)]
            fn to_primal(self) -> $f {
                self.0.to_primal()
            }
        }
    };
    (@op $f:ident $Op:ident $op:ident $OpAssign:ident $op_assign:ident) => {
        impl<const N: usize> $Op<$f> for DeviceDual<$f, N> {
            type Output = Self;
            #[inline(always)]
            fn $op(self, c: $f) -> Self {
                Self($Op::$op(self.0, c))
            }
        }
        impl<const N: usize> $OpAssign<$f> for DeviceDual<$f, N> {
            #[inline(always)]
            fn $op_assign(&mut self, c: $f) {
                $OpAssign::$op_assign(&mut self.0, c);
            }
        }
    };
}

reading!(f64);
reading!(f32);
