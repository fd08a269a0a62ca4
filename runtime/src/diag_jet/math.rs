//! The float method surface of `DiagJet`: the value by the primal method, the
//! partials from the function's first two derivatives at the value
//! (`ȧ′ = f′ ȧ`, `ä′ = f′ ä + f″ ȧ²`), the primal transcendental computed once.
//! Functions singular somewhere go through the strong-zero chain, so an untouched
//! lane stays exactly zero at their singular points.

use core::f64::consts::{LN_2, LN_10, PI};

use super::DiagJet;
use crate::Real;

impl<S: Real, const N: usize> DiagJet<S, N> {
    /// The jet of the branch a piecewise function selects, with the function's value.
    #[inline(always)]
    fn branch(value: S, chosen: &Self) -> Self {
        Self::new(value, chosen.first, chosen.second)
    }

    /// Every partial times the constant `f` (linear maps: `to_degrees`, signs).
    #[inline(always)]
    fn scaled(&self, value: S, f: S) -> Self {
        Self::new(value, self.first.map(|c| c * f), self.second.map(|c| c * f))
    }
}

impl<S: Real, const N: usize> Real for DiagJet<S, N> {
    type Field = S::Field;
    const ORDER: usize = S::ORDER + 2;
    type Vec = Vec<Self>;
    type Ref<'a> = &'a [Self];
    type Mut<'a> = &'a mut [Self];

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
        self.value.is_exact_zero() && self.is_flat()
    }

    #[inline]
    fn sin(self) -> Self {
        let (s, c) = self.value.sin_cos();
        self.chain(s, c, -s)
    }
    #[inline]
    fn cos(self) -> Self {
        let (s, c) = self.value.sin_cos();
        self.chain(c, -s, -c)
    }
    #[inline]
    fn tan(self) -> Self {
        let t = self.value.tan();
        let d = S::one() + t * t;
        self.chain(t, d, (t + t) * d)
    }
    #[inline]
    fn asin(self) -> Self {
        // f′ = (1 − x²)^(−1/2), f″ = x (1 − x²)^(−3/2).
        let x = self.value;
        let r = (S::one() - x * x).recip();
        let f1 = r.sqrt();
        self.chain_sz(x.asin(), f1, x * f1 * r)
    }
    #[inline]
    fn acos(self) -> Self {
        let x = self.value;
        let r = (S::one() - x * x).recip();
        let f1 = r.sqrt();
        self.chain_sz(x.acos(), -f1, -(x * f1 * r))
    }
    #[inline]
    fn atan(self) -> Self {
        // f′ = 1 / (1 + x²), f″ = −2x / (1 + x²)².
        let x = self.value;
        let f1 = (S::one() + x * x).recip();
        self.chain(x.atan(), f1, -(x + x) * f1 * f1)
    }
    #[inline]
    fn sinh(self) -> Self {
        let (s, c) = (self.value.sinh(), self.value.cosh());
        self.chain(s, c, s)
    }
    #[inline]
    fn cosh(self) -> Self {
        let (s, c) = (self.value.sinh(), self.value.cosh());
        self.chain(c, s, c)
    }
    #[inline]
    fn tanh(self) -> Self {
        let t = self.value.tanh();
        let f1 = S::one() - t * t;
        self.chain(t, f1, -(t + t) * f1)
    }
    #[inline]
    fn asinh(self) -> Self {
        // f′ = (x² + 1)^(−1/2), f″ = −x (x² + 1)^(−3/2).
        let x = self.value;
        let r = (x * x + S::one()).recip();
        let f1 = r.sqrt();
        self.chain(x.asinh(), f1, -(x * f1 * r))
    }
    #[inline]
    fn acosh(self) -> Self {
        let x = self.value;
        let r = (x * x - S::one()).recip();
        let f1 = r.sqrt();
        self.chain_sz(x.acosh(), f1, -(x * f1 * r))
    }
    #[inline]
    fn atanh(self) -> Self {
        // f′ = 1 / (1 − x²), f″ = 2x / (1 − x²)².
        let x = self.value;
        let f1 = (S::one() - x * x).recip();
        self.chain_sz(x.atanh(), f1, (x + x) * f1 * f1)
    }
    #[inline]
    fn exp(self) -> Self {
        let e = self.value.exp();
        self.chain(e, e, e)
    }
    #[inline]
    fn exp2(self) -> Self {
        let e = self.value.exp2();
        let l = S::cst(LN_2);
        self.chain(e, e * l, e * l * l)
    }
    #[inline]
    fn exp_m1(self) -> Self {
        let e = self.value.exp_m1();
        let d = e + S::one();
        self.chain(e, d, d)
    }
    #[inline]
    fn ln(self) -> Self {
        let r = self.value.recip();
        self.chain_sz(self.value.ln(), r, -(r * r))
    }
    #[inline]
    fn log2(self) -> Self {
        let x = self.value;
        let f1 = (x * S::cst(LN_2)).recip();
        self.chain_sz(x.log2(), f1, -(f1 / x))
    }
    #[inline]
    fn log10(self) -> Self {
        let x = self.value;
        let f1 = (x * S::cst(LN_10)).recip();
        self.chain_sz(x.log10(), f1, -(f1 / x))
    }
    #[inline]
    fn ln_1p(self) -> Self {
        let r = (S::one() + self.value).recip();
        self.chain_sz(self.value.ln_1p(), r, -(r * r))
    }
    #[inline]
    fn sqrt(self) -> Self {
        // f′ = 1 / (2s), f″ = −f′ / (2x).
        let x = self.value;
        let s = x.sqrt();
        let f1 = (s + s).recip();
        self.chain_sz(s, f1, -(f1 / (x + x)))
    }
    #[inline]
    fn cbrt(self) -> Self {
        // f′ = 1 / (3c²), f″ = −2 f′ / (3x).
        let x = self.value;
        let c = x.cbrt();
        let f1 = (S::cst(3.0) * c * c).recip();
        self.chain_sz(c, f1, -(f1 + f1) / (S::cst(3.0) * x))
    }
    #[inline]
    fn abs(self) -> Self {
        // The branch follows the sign bit, as `signum` does.
        self.scaled(self.value.abs(), self.value.signum())
    }
    #[inline]
    fn signum(self) -> Self {
        Self::flat(self.value.signum())
    }
    #[inline]
    fn recip(self) -> Self {
        // f′ = −r², f″ = 2r³.
        let r = self.value.recip();
        let f1 = -(r * r);
        self.chain_sz(r, f1, -(f1 + f1) * r)
    }
    #[inline]
    fn to_degrees(self) -> Self {
        self.scaled(self.value.to_degrees(), S::cst(180.0 / PI))
    }
    #[inline]
    fn to_radians(self) -> Self {
        self.scaled(self.value.to_radians(), S::cst(PI / 180.0))
    }
    #[inline]
    fn floor(self) -> Self {
        Self::flat(self.value.floor())
    }
    #[inline]
    fn ceil(self) -> Self {
        Self::flat(self.value.ceil())
    }
    #[inline]
    fn round(self) -> Self {
        Self::flat(self.value.round())
    }
    #[inline]
    fn trunc(self) -> Self {
        Self::flat(self.value.trunc())
    }
    #[inline]
    fn fract(self) -> Self {
        // fract(x) = x - trunc(x): the partials pass through unchanged.
        Self::branch(self.value.fract(), &self)
    }

    #[inline]
    fn sin_cos(self) -> (Self, Self) {
        let (s, c) = self.value.sin_cos();
        (self.chain(s, c, -s), self.chain(c, -s, -c))
    }
    #[inline]
    fn atan2(self, other: Self) -> Self {
        // f(y, x): f_y = x / r², f_x = −y / r², f_yy = −2xy / r⁴ = −f_xx,
        // f_xy = (y² − x²) / r⁴. Dividing by the radius twice rather than by x² + y²
        // keeps it finite for tiny arguments.
        let (y, x) = (self.value, other.value);
        let r = x.hypot(y);
        let (cy, cx) = (x / r / r, y / r / r);
        let fyy = -(cy * cx + cy * cx);
        let fxy = cx * cx - cy * cy;
        self.chain2_sz(&other, y.atan2(x), [cy, -cx], [fyy, fxy, -fyy])
    }
    #[inline]
    fn log(self, base: Self) -> Self {
        // ln x / ln b: f_x = 1 / (x lb), f_b = −lx / (b lb²), f_xx = −f_x / x,
        // f_xb = f_b / (x lx) = −1 / (x b lb²), f_bb = lx (lb + 2) / (b² lb³).
        let (x, b) = (self.value, base.value);
        let (lx, lb) = (x.ln(), b.ln());
        let fx = (x * lb).recip();
        let fb = -lx / (b * lb * lb);
        let fxb = -(x * b * lb * lb).recip();
        let fbb = lx * (lb + S::cst(2.0)) / (b * b * lb * lb * lb);
        self.chain2_sz(&base, x.log(b), [fx, fb], [-(fx / x), fxb, fbb])
    }
    #[inline]
    fn powi(self, n: i32) -> Self {
        let x = self.value;
        // The value is the primal's own `powi`, so the primal reading stays bit-identical.
        let v = x.powi(n);
        let c = S::cst(f64::from(n));
        match n {
            0 => Self::constant(v),
            1 => Self::branch(v, &self),
            // For n ≥ 2 the derivatives are finite wherever x is.
            2.. => {
                let p = x.powi(n.saturating_sub(2));
                self.chain(v, c * p * x, c * S::cst(f64::from(n) - 1.0) * p)
            }
            // Negative powers are singular at 0: strong zero.
            _ => {
                let p = x.powi(n.saturating_sub(2));
                self.chain_sz(v, c * p * x, c * S::cst(f64::from(n) - 1.0) * p)
            }
        }
    }
    #[inline]
    fn powf(self, n: Self) -> Self {
        let (x, y) = (self.value, n.value);
        let v = x.powf(y);
        // d/dy = v ln x and d²/dy² = v ln² x, whose limits are 0 where v is 0.
        let (ly, lyy) = if v.is_exact_zero() {
            (S::zero(), S::zero())
        } else {
            let l = x.ln();
            (v * l, v * l * l)
        };
        // A constant exponent or a constant base moves only the other operand's lanes.
        if self.is_flat() {
            return n.chain_sz(v, ly, lyy);
        }
        // d/dx = y x^(y−1), d²/dx² = y (y−1) x^(y−2): at an exactly zero y the constant 1.
        let (lx, lxx, pm1) = if y.is_exact_zero() {
            (S::zero(), S::zero(), S::zero())
        } else {
            let pm1 = x.powf(y - S::one());
            let pm2 = x.powf(y - S::cst(2.0));
            (y * pm1, y * (y - S::one()) * pm2, pm1)
        };
        if n.is_flat() {
            return self.chain_sz(v, lx, lxx);
        }
        // d²/dxdy = x^(y−1) (1 + y ln x).
        let lxy = if pm1.is_exact_zero() {
            S::zero()
        } else {
            pm1 * (S::one() + y * x.ln())
        };
        self.chain2_sz(&n, v, [lx, ly], [lxx, lxy, lyy])
    }
    #[inline]
    fn hypot(self, other: Self) -> Self {
        // f_x = x / h, f_y = y / h, f_xx = y² / h³, f_xy = −xy / h³, f_yy = x² / h³.
        let (x, y) = (self.value, other.value);
        let h = x.hypot(y);
        let (cx, cy) = (x / h, y / h);
        let r = h.recip();
        self.chain2_sz(
            &other,
            h,
            [cx, cy],
            [cy * cy * r, -(cx * cy * r), cx * cx * r],
        )
    }
    #[inline]
    fn copysign(self, sign: Self) -> Self {
        let x = self.value;
        let flips = x.is_sign_negative() != sign.value.is_sign_negative();
        let v = x.copysign(sign.value);
        if flips {
            self.scaled(v, -S::one())
        } else {
            Self::branch(v, &self)
        }
    }
    #[inline]
    fn min(self, other: Self) -> Self {
        // The branch `f64::min` selects (the non-NaN one).
        let pick_other = other.value < self.value || self.value.is_nan();
        let chosen = if pick_other { &other } else { &self };
        Self::branch(self.value.min(other.value), chosen)
    }
    #[inline]
    fn max(self, other: Self) -> Self {
        let pick_other = other.value > self.value || self.value.is_nan();
        let chosen = if pick_other { &other } else { &self };
        Self::branch(self.value.max(other.value), chosen)
    }
    #[inline]
    fn clamp(self, lo: Self, hi: Self) -> Self {
        let v = self.value.clamp(lo.value, hi.value);
        let chosen = if self.value < lo.value {
            &lo
        } else if self.value > hi.value {
            &hi
        } else {
            &self
        };
        Self::branch(v, chosen)
    }
    #[inline]
    fn mul_add(self, a: Self, b: Self) -> Self {
        // The product's jet plus b's, the value rounded once as the primal's.
        let p = self * a;
        Self::new(
            self.value.mul_add(a.value, b.value),
            core::array::from_fn(|k| p.first[k] + b.first[k]),
            core::array::from_fn(|k| p.second[k] + b.second[k]),
        )
    }
    #[inline]
    fn rem_euclid(self, rhs: Self) -> Self {
        // r = a - n b with the integer n = (a - r) / b.
        let r = self.value.rem_euclid(rhs.value);
        let n = ((self.value - r) / rhs.value).round();
        Self::new(
            r,
            core::array::from_fn(|k| self.first[k] - n * rhs.first[k]),
            core::array::from_fn(|k| self.second[k] - n * rhs.second[k]),
        )
    }
    #[inline]
    fn div_euclid(self, rhs: Self) -> Self {
        Self::flat(self.value.div_euclid(rhs.value))
    }

    value_query!(field value: is_nan is_finite is_infinite is_sign_negative is_sign_positive);
}
