//! The float method surface of `ZDual`: each rule is `NDual`'s, run at width N on
//! values with partials and at width 0 (the value alone) on flat ones.

use super::{ZDual, zmap, zmap2, zmap3};
use crate::{NDual, Real};

/// The table's one-argument entries at `ZDual`: `NDual`'s rule through [`zmap!`], or
/// for flat (integer-valued) entries the value alone, whatever the operand carries
/// (`NDual` gives them zero partials).
macro_rules! zdual_unary {
    ($($name:ident($x:ident): $policy:ident, domain($lo:expr, $hi:expr) { $($body:tt)* })*) => {
        $(zdual_unary!(@$policy $name);)*
    };
    (@flat $name:ident) => {
        #[inline(always)]
        fn $name(self) -> Self {
            Self::constant(Real::$name(self.value))
        }
    };
    (@$policy:ident $name:ident) => {
        #[inline(always)]
        fn $name(self) -> Self {
            zmap!(self, |d| Real::$name(d))
        }
    };
}

/// The table's two-argument entries at `ZDual`: `NDual`'s rule through [`zmap2!`].
macro_rules! zdual_binary {
    ($($name:ident($a:ident, $b:ident): domain $domain:tt { $($body:tt)* })*) => {
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

    unary_table!(zdual_unary);
    binary_table!(zdual_binary);

    #[inline(always)]
    fn powf(self, n: Self) -> Self {
        zmap2!(self, n, |x, n| Real::powf(x, n))
    }

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

#[cfg(test)]
mod tests {
    use crate::{NDual, Real, ZDual};

    /// Every entry of the tables: at a point inside its domain, a seeded `ZDual` gives
    /// `NDual`'s value and partials bit for bit, and an unseeded one the primal's value
    /// with no partials. Flat entries give no partials even when seeded.
    macro_rules! agree_unary {
        ($($name:ident($x:ident): $policy:ident, domain($lo:expr, $hi:expr) { $($body:tt)* })*) => {
            $({
                let at: f64 = 0.3 * $lo + 0.7 * $hi;
                let dense = NDual::<f64, 3>::new(at, [1.0, -0.5, 0.0]);
                let got = Real::$name(ZDual::from_ndual(dense));
                let want = Real::$name(dense);
                let name = stringify!($name);
                assert_eq!(got.value().to_bits(), want.value().to_bits(), "{name}");
                if stringify!($policy) == "flat" {
                    assert!(got.is_flat(), "{name} of a seeded value has partials");
                } else {
                    let bits = |p: [f64; 3]| p.map(f64::to_bits);
                    assert_eq!(bits(got.partials()), bits(*want.partials()), "{name}");
                }
                let flat = Real::$name(ZDual::<f64, 3>::constant(at));
                assert!(flat.is_flat(), "{name} of a constant has partials");
                assert_eq!(flat.value().to_bits(), Real::$name(at).to_bits(), "{name}");
            })*
        };
    }

    macro_rules! agree_binary {
        ($($name:ident($a:ident, $b:ident): domain(($alo:expr, $ahi:expr), ($blo:expr, $bhi:expr)) { $($body:tt)* })*) => {
            $({
                let (a, b): (f64, f64) = (0.3 * $alo + 0.7 * $ahi, 0.6 * $blo + 0.4 * $bhi);
                let (da, db) = (NDual::<f64, 3>::new(a, [1.0, 0.0, 0.5]), NDual::new(b, [0.0, 2.0, 0.0]));
                let got = Real::$name(ZDual::from_ndual(da), ZDual::from_ndual(db));
                let want = Real::$name(da, db);
                let bits = |p: [f64; 3]| p.map(f64::to_bits);
                assert_eq!(got.value().to_bits(), want.value().to_bits(), stringify!($name));
                assert_eq!(bits(got.partials()), bits(*want.partials()), stringify!($name));
                let flat = Real::$name(ZDual::<f64, 3>::constant(a), ZDual::constant(b));
                assert!(flat.is_flat(), stringify!($name));
            })*
        };
    }

    #[test]
    fn table_entries_agree_with_ndual() {
        unary_table!(agree_unary);
        binary_table!(agree_binary);
    }
}
