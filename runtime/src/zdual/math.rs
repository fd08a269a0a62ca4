//! The float method surface of `ZDual`: each rule is `NDual`'s, run at width N on
//! values with partials and at width 0 (the value alone) on flat ones.

use super::{ZDual, zmap, zmap2, zmap3};
use crate::{NDual, Real};

/// Methods whose rule is `NDual`'s, through [`zmap!`].
macro_rules! zunary {
    ($($name:ident)*) => {
        $(
            #[inline(always)]
            fn $name(self) -> Self {
                zmap!(self, |d| Real::$name(d))
            }
        )*
    };
}

/// Integer-valued methods: flat whatever the operand (`NDual` gives zero partials).
macro_rules! zflat {
    ($($name:ident)*) => {
        $(
            #[inline(always)]
            fn $name(self) -> Self {
                Self::constant(Real::$name(self.value))
            }
        )*
    };
}

/// Two-operand methods whose rule is `NDual`'s, through [`zmap2!`].
macro_rules! zbinary {
    ($($name:ident)*) => {
        $(
            #[inline(always)]
            fn $name(self, other: Self) -> Self {
                zmap2!(self, other, |a, b| Real::$name(a, b))
            }
        )*
    };
}

/// The linear entries at `ZDual`: `NDual`'s rule through [`zmap2!`], or for flat ones
/// the value alone, whatever the operands carry.
macro_rules! zdual_linear {
    ($($name:ident($a:ident, $b:ident): $shape:ident { $($body:tt)* })*) => {
        $(zdual_linear!(@$shape $name);)*
    };
    (@linear $name:ident) => {
        #[inline(always)]
        fn $name(self, other: Self) -> Self {
            zmap2!(self, other, |a, b| Real::$name(a, b))
        }
    };
    (@flat $name:ident) => {
        #[inline(always)]
        fn $name(self, other: Self) -> Self {
            Self::constant(Real::$name(self.value, other.value))
        }
    };
}

/// A piecewise entry at `ZDual`: the value, the picked operand's partials (none when
/// it carries none).
macro_rules! zdual_select {
    ($v:ident, $chosen:ident) => {
        Self {
            value: $v,
            partials: $chosen.partials,
        }
    };
}

impl<S: Real, const N: usize> Real for ZDual<S, N> {
    type Field = S::Field;
    const ORDER: usize = S::ORDER + 1;

    #[inline(always)]
    fn cst(c: f64) -> Self {
        Self::constant(S::cst(c))
    }
    #[inline(always)]
    fn primal_f64(self) -> f64 {
        self.value.primal_f64()
    }
    #[inline(always)]
    fn is_exact_zero(&self) -> bool {
        num_traits::Zero::is_zero(self)
    }

    zunary! {
        sin cos tan asin acos atan sinh cosh tanh asinh acosh atanh
        exp exp2 exp_m1 ln log2 log10 ln_1p sqrt cbrt abs recip
        to_degrees to_radians fract
    }

    zflat! { signum floor ceil round trunc }

    zbinary! { atan2 log powf hypot }

    #[inline(always)]
    fn sin_cos(self) -> (Self, Self) {
        match self.partials {
            None => {
                let (s, c) = Real::sin_cos(self.bare());
                (Self::from_bare(s), Self::from_bare(c))
            }
            Some(p) => {
                let (s, c) = Real::sin_cos(NDual::new(self.value, p));
                (Self::from_ndual(s), Self::from_ndual(c))
            }
        }
    }
    #[inline(always)]
    fn powi(self, n: i32) -> Self {
        zmap!(self, |d| Real::powi(d, n))
    }
    #[inline(always)]
    fn mul_add(self, a: Self, b: Self) -> Self {
        zmap3!(self, a, b, |x, y, z| Real::mul_add(x, y, z))
    }

    select_table!(select_rules! value zdual_select);
    linear_table!(zdual_linear);

    value_query!(field value: is_nan is_finite is_infinite is_sign_negative is_sign_positive);
}
