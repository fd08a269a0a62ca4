//! The float method surface of `Taylor`: the primal value by the primal method, the
//! higher coefficients by the recurrences of `series`. A polynomial whose higher
//! coefficients are all exactly zero (a constant of the computation) maps to a
//! constant without running any recurrence, so singular points of a function's
//! derivatives (`sqrt` at 0, `ln` at 0) cannot turn a constant into NaNs. The
//! piecewise and linear two-argument functions need no series: they come from the
//! derivative table's `select` and `linear` entries.

use core::f64::consts::{LN_2, LN_10, PI};

use super::Taylor;
use num_traits::One;

use crate::Real;

impl<S: Real, const K: usize> Taylor<S, K> {
    /// A unary function: `c0` is its primal value, `series` gives the rest (run only
    /// for a non-constant input).
    #[inline(always)]
    fn unary(self, c0: S, series: impl FnOnce(&Self) -> Self) -> Self {
        if self.is_flat() {
            Self::constant(c0)
        } else {
            series(&self).with_value(c0)
        }
    }

    /// Every coefficient times `f`.
    #[inline(always)]
    fn scaled(&self, f: S) -> Self {
        self.map_hi(self.c0 * f, |c| c * f)
    }

    /// `d` with `b' = ± a' / d` for the inverse functions (`asin`, `atan`, …).
    #[inline(always)]
    fn inverse(self, c0: S, negate: bool, d: impl FnOnce(&Self) -> Self) -> Self {
        self.unary(c0, |a| {
            let d = d(a);
            if negate {
                Self::quotient_integral(c0, |m| -a.dcoef(m), &d)
            } else {
                Self::quotient_integral(c0, |m| a.dcoef(m), &d)
            }
        })
    }

    /// `ln` of a non-constant input, given its primal value `c0`.
    #[inline(always)]
    fn ln_series(&self, c0: S) -> Self {
        Self::quotient_integral(c0, |m| self.dcoef(m), self)
    }

    /// `self^r` for a constant exponent `r`, given the primal value `v = a0^r`. At
    /// `a0 = 0` the power recurrence divides by zero, so the derivatives
    /// `r (r−1) … (r−j+1) a0^(r−j)` are composed instead (a zero falling factorial
    /// contributing exactly zero: `x²` has third derivative 0 at 0, not `0 · ∞`).
    fn pow_const(self, r: S, v: S, pow: impl Fn(S, S) -> S) -> Self {
        if self.is_flat() || r.is_exact_zero() {
            return Self::constant(v);
        }
        let a0 = self.c0;
        if !a0.is_exact_zero() {
            return self.pow_series(r, v).with_value(v);
        }
        let mut falling = S::one();
        self.compose_series(|j| {
            if j == 0 {
                return v;
            }
            falling *= r - S::cst((j - 1) as f64);
            if falling.is_exact_zero() {
                S::zero()
            } else {
                falling * pow(a0, r - S::cst(j as f64))
            }
        })
    }

    /// The higher coefficients of the branch taken, the value given.
    #[inline(always)]
    fn branch(value: S, chosen: &Self) -> Self {
        Self::new(value, chosen.hi)
    }
}

/// A piecewise entry at `Taylor`: the value, the picked operand's higher coefficients.
macro_rules! taylor_select {
    ($v:ident, $chosen:ident) => {
        Self::branch($v, $chosen)
    };
}

/// A linear entry at `Taylor`: every higher coefficient maps as a tangent does, the
/// coefficients being constant near the point.
macro_rules! taylor_linear {
    (negated $x:ident, $v:ident, $flip:ident) => {
        if $flip {
            $x.map_hi($v, |c| -c)
        } else {
            $x.with_value($v)
        }
    };
    (minus $x:ident, $y:ident, $v:ident, $n:ident) => {
        Self::new($v, core::array::from_fn(|k| $x.hi[k] - $n * $y.hi[k]))
    };
    (flat $v:ident) => {
        Self::constant($v)
    };
}

impl<S: Real, const K: usize> Real for Taylor<S, K> {
    type Field = S::Field;
    const ORDER: usize = S::ORDER + K;

    #[inline(always)]
    fn cst(c: f64) -> Self {
        Self::constant(S::cst(c))
    }
    #[inline(always)]
    fn primal_f64(self) -> f64 {
        self.c0.primal_f64()
    }
    #[inline(always)]
    fn is_exact_zero(&self) -> bool {
        self.c0.is_exact_zero() && self.is_flat()
    }

    #[inline]
    fn sin(self) -> Self {
        let (s, c) = self.c0.sin_cos();
        self.unary(s, |a| a.sin_cos_series(s, c, -S::one()).0)
    }
    #[inline]
    fn cos(self) -> Self {
        let (s, c) = self.c0.sin_cos();
        self.unary(c, |a| a.sin_cos_series(s, c, -S::one()).1)
    }
    #[inline]
    fn tan(self) -> Self {
        let t = self.c0.tan();
        self.unary(t, |a| a.tan_series(t, S::one()))
    }
    #[inline]
    fn asin(self) -> Self {
        self.inverse(self.c0.asin(), false, |a| (Self::one() - *a * *a).sqrt())
    }
    #[inline]
    fn acos(self) -> Self {
        self.inverse(self.c0.acos(), true, |a| (Self::one() - *a * *a).sqrt())
    }
    #[inline]
    fn atan(self) -> Self {
        self.inverse(self.c0.atan(), false, |a| Self::one() + *a * *a)
    }
    #[inline]
    fn sinh(self) -> Self {
        let (s, c) = (self.c0.sinh(), self.c0.cosh());
        self.unary(s, |a| a.sin_cos_series(s, c, S::one()).0)
    }
    #[inline]
    fn cosh(self) -> Self {
        let (s, c) = (self.c0.sinh(), self.c0.cosh());
        self.unary(c, |a| a.sin_cos_series(s, c, S::one()).1)
    }
    #[inline]
    fn tanh(self) -> Self {
        let t = self.c0.tanh();
        self.unary(t, |a| a.tan_series(t, -S::one()))
    }
    #[inline]
    fn asinh(self) -> Self {
        self.inverse(self.c0.asinh(), false, |a| (*a * *a + Self::one()).sqrt())
    }
    #[inline]
    fn acosh(self) -> Self {
        self.inverse(self.c0.acosh(), false, |a| (*a * *a - Self::one()).sqrt())
    }
    #[inline]
    fn atanh(self) -> Self {
        self.inverse(self.c0.atanh(), false, |a| Self::one() - *a * *a)
    }
    #[inline]
    fn exp(self) -> Self {
        let e = self.c0.exp();
        self.unary(e, |a| a.exp_series(e))
    }
    #[inline]
    fn exp2(self) -> Self {
        let e = self.c0.exp2();
        self.unary(e, |a| a.scaled(S::cst(LN_2)).exp_series(e))
    }
    #[inline]
    fn exp_m1(self) -> Self {
        // The higher coefficients are those of exp; only the value differs.
        let x = self.c0;
        self.unary(x.exp_m1(), |a| a.exp_series(x.exp()))
    }
    #[inline]
    fn ln(self) -> Self {
        let l = self.c0.ln();
        self.unary(l, |a| a.ln_series(l))
    }
    #[inline]
    fn log2(self) -> Self {
        let x = self.c0;
        self.unary(x.log2(), |a| {
            let inv = S::cst(LN_2).recip();
            a.ln_series(x.ln()).scaled(inv)
        })
    }
    #[inline]
    fn log10(self) -> Self {
        let x = self.c0;
        self.unary(x.log10(), |a| {
            let inv = S::cst(LN_10).recip();
            a.ln_series(x.ln()).scaled(inv)
        })
    }
    #[inline]
    fn ln_1p(self) -> Self {
        let l = self.c0.ln_1p();
        self.unary(l, |a| {
            Self::quotient_integral(l, |m| a.dcoef(m), &(*a + Self::one()))
        })
    }
    #[inline]
    fn sqrt(self) -> Self {
        let s = self.c0.sqrt();
        self.unary(s, |a| a.sqrt_series(s))
    }
    #[inline]
    fn cbrt(self) -> Self {
        let c = self.c0.cbrt();
        self.unary(c, |a| a.pow_series(S::cst(1.0 / 3.0), c))
    }
    #[inline]
    fn abs(self) -> Self {
        // The branch follows the sign bit, as `signum` does (and as NDual's derivative).
        let sign = self.c0.signum();
        self.map_hi(self.c0.abs(), |c| c * sign)
    }
    #[inline]
    fn signum(self) -> Self {
        Self::constant(self.c0.signum())
    }
    #[inline]
    fn recip(self) -> Self {
        let r = self.c0.recip();
        self.unary(r, |a| Self::one().div_series(a, r))
    }
    #[inline]
    fn to_degrees(self) -> Self {
        let f = S::cst(180.0 / PI);
        self.map_hi(self.c0.to_degrees(), |c| c * f)
    }
    #[inline]
    fn to_radians(self) -> Self {
        let f = S::cst(PI / 180.0);
        self.map_hi(self.c0.to_radians(), |c| c * f)
    }
    #[inline]
    fn floor(self) -> Self {
        Self::constant(self.c0.floor())
    }
    #[inline]
    fn ceil(self) -> Self {
        Self::constant(self.c0.ceil())
    }
    #[inline]
    fn round(self) -> Self {
        Self::constant(self.c0.round())
    }
    #[inline]
    fn trunc(self) -> Self {
        Self::constant(self.c0.trunc())
    }
    #[inline]
    fn fract(self) -> Self {
        // fract(x) = x - trunc(x), the integer part constant near the point.
        Self::new(self.c0.fract(), self.hi)
    }

    #[inline]
    fn sin_cos(self) -> (Self, Self) {
        let (s, c) = self.c0.sin_cos();
        if self.is_flat() {
            return (Self::constant(s), Self::constant(c));
        }
        self.sin_cos_series(s, c, -S::one())
    }
    #[inline]
    fn atan2(self, other: Self) -> Self {
        let (y, x) = (self, other);
        let v = y.c0.atan2(x.c0);
        if y.is_flat() && x.is_flat() {
            return Self::constant(v);
        }
        // atan2 is invariant under positive scaling: dividing both by the radius keeps
        // x² + y² near one, away from overflow and underflow.
        let r = x.c0.hypot(y.c0);
        let (y, x) = if r.is_finite() && !r.is_exact_zero() {
            let inv = r.recip();
            (y.scaled(inv), x.scaled(inv))
        } else {
            (y, x)
        };
        // b' = (x y' − y x') / (x² + y²)
        let d = x * x + y * y;
        let q = |m: usize| {
            let mut s = S::zero();
            for i in 0..=m {
                s += x.c(i) * y.dcoef(m - i) - y.c(i) * x.dcoef(m - i);
            }
            s
        };
        Self::quotient_integral(v, q, &d)
    }
    #[inline]
    fn log(self, base: Self) -> Self {
        let v = self.c0.log(base.c0);
        if self.is_flat() && base.is_flat() {
            return Self::constant(v);
        }
        Real::ln(self).div_series(&Real::ln(base), v)
    }
    #[inline]
    fn powi(self, n: i32) -> Self {
        let v = self.c0.powi(n);
        self.pow_const(S::cst(f64::from(n)), v, |x, e| {
            x.powi(e.primal_f64() as i32)
        })
    }
    #[inline]
    fn powf(self, n: Self) -> Self {
        let (x, y) = (self.c0, n.c0);
        let v = x.powf(y);
        if n.is_flat() {
            return self.pow_const(y, v, |x, e| x.powf(e));
        }
        if self.is_flat() && v.is_exact_zero() {
            // 0^y for y > 0 stays 0 while y moves.
            return Self::constant(v);
        }
        // x^y = exp(y ln x) near the point; the value is the primal power.
        (n * Real::ln(self)).exp_series(v).with_value(v)
    }
    #[inline]
    fn hypot(self, other: Self) -> Self {
        let h = self.c0.hypot(other.c0);
        if self.is_flat() && other.is_flat() {
            return Self::constant(h);
        }
        if h.is_finite() && !h.is_exact_zero() {
            // √((x/h)² + (y/h)²) · h: the squares stay near one.
            let inv = h.recip();
            let (x, y) = (self.scaled(inv), other.scaled(inv));
            (x * x + y * y)
                .sqrt_series(S::one())
                .scaled(h)
                .with_value(h)
        } else {
            (self * self + other * other).sqrt_series(h).with_value(h)
        }
    }
    #[inline]
    fn mul_add(self, a: Self, b: Self) -> Self {
        let v = self.c0.mul_add(a.c0, b.c0);
        let p = self.mul_series(&a, v);
        Self::new(v, core::array::from_fn(|k| p.hi[k] + b.hi[k]))
    }

    select_table!(select_rules! c0 taylor_select);
    linear_table!(linear_rules! c0 taylor_linear);

    value_query!(field c0: is_nan is_finite is_infinite is_sign_negative is_sign_positive);
}
