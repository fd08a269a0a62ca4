//! The Taylor recurrences: each output coefficient `c_k` from the inputs' coefficients
//! and the output's own `c_0 .. c_{k-1}`, O(K²) per operation. The constant term of
//! every result is passed in, computed by the primal operation, so it is the primal's
//! bit for bit; the recurrences only fill in the coefficients of order 1 to K.
//!
//! Most transcendental functions are solutions of a first-order linear ODE in `t`
//! (`b' = a' b` for `exp`, `b' = a' / d` for `ln`, `atan`, `asin`, …), which is where
//! the recurrences come from.

use super::Taylor;
use crate::Real;

/// `k` as a constant of the reading.
#[inline(always)]
fn k_<S: Real>(k: usize) -> S {
    S::cst(k as f64)
}

impl<S: Real, const K: usize> Taylor<S, K> {
    /// The Cauchy product, truncated: `c_k = Σ a_i b_{k-i}`.
    pub(crate) fn mul_series(&self, rhs: &Self, c0: S) -> Self {
        Self::build(c0, |k, _| {
            let mut s = self.c(0) * rhs.c(k);
            for i in 1..=k {
                s += self.c(i) * rhs.c(k - i);
            }
            s
        })
    }

    /// `self / rhs`: `c_k = (a_k − Σ_{i≥1} b_i c_{k-i}) / b_0`.
    pub(crate) fn div_series(&self, rhs: &Self, c0: S) -> Self {
        let b0 = rhs.c0;
        Self::build(c0, |k, c| {
            let mut s = self.c(k);
            for i in 1..=k {
                s -= rhs.c(i) * c.c(k - i);
            }
            s / b0
        })
    }

    /// `exp(self)` given `b0 = exp(a0)` (or any multiple of it: `exp2`, `powf`):
    /// from `b' = a' b`, `b_k = Σ_{j=1..k} j a_j b_{k-j} / k`.
    pub(crate) fn exp_series(&self, b0: S) -> Self {
        Self::build(b0, |k, b| {
            let mut s = S::zero();
            for j in 1..=k {
                s += k_::<S>(j) * self.c(j) * b.c(k - j);
            }
            s / k_(k)
        })
    }

    /// The `b` with `b' = q / d`, `b(0) = b0`, where `q` is given by the coefficients
    /// of the derivative's numerator (`q(m)` is the coefficient of `t^m`, m < K). This
    /// is `ln` (`q = a'`, `d = a`), `atan` (`d = 1 + a²`), `asin` (`d = √(1 − a²)`), ….
    pub(crate) fn quotient_integral(b0: S, q: impl Fn(usize) -> S, d: &Self) -> Self {
        let d0 = d.c0;
        Self::build(b0, |k, b| {
            // k b_k d_0 = q_{k-1} − Σ_{i=1..k-1} d_i (k−i) b_{k−i}
            let mut s = q(k - 1);
            for i in 1..k {
                s -= d.c(i) * k_::<S>(k - i) * b.c(k - i);
            }
            s / (k_::<S>(k) * d0)
        })
    }

    /// The coefficient of `t^m` in the derivative `a'` (m < K): `(m + 1) a_{m+1}`.
    #[inline(always)]
    pub(crate) fn dcoef(&self, m: usize) -> S {
        k_::<S>(m + 1) * self.c(m + 1)
    }

    /// `√self` given `b0 = √a0`: from `b² = a`, `b_k = (a_k − Σ_{j=1..k-1} b_j b_{k-j}) / 2b_0`.
    pub(crate) fn sqrt_series(&self, b0: S) -> Self {
        let two_b0 = b0 + b0;
        Self::build(b0, |k, b| {
            let mut s = self.c(k);
            for j in 1..k {
                s -= b.c(j) * b.c(k - j);
            }
            s / two_b0
        })
    }

    /// `self^r` for a constant `r`, given `b0 = a0^r` and `a0 ≠ 0`: from `a b' = r a' b`,
    /// `b_k = Σ_{j=1..k} ((r + 1) j − k) a_j b_{k-j} / (k a_0)`.
    pub(crate) fn pow_series(&self, r: S, b0: S) -> Self {
        let a0 = self.c0;
        let r1 = r + S::one();
        Self::build(b0, |k, b| {
            let mut s = S::zero();
            for j in 1..=k {
                s += (r1 * k_::<S>(j) - k_::<S>(k)) * self.c(j) * b.c(k - j);
            }
            s / (k_::<S>(k) * a0)
        })
    }

    /// `(sin, cos)` (`sign = −1`) or `(sinh, cosh)` (`sign = +1`) jointly, given their
    /// constant terms: `s' = a' c`, `c' = sign · a' s`.
    pub(crate) fn sin_cos_series(&self, s0: S, c0: S, sign: S) -> (Self, Self) {
        let mut s = Self::constant(s0);
        let mut c = Self::constant(c0);
        for k in 1..=K {
            let (mut ss, mut cc) = (S::zero(), S::zero());
            for j in 1..=k {
                let ja = k_::<S>(j) * self.c(j);
                ss += ja * c.c(k - j);
                cc += ja * s.c(k - j);
            }
            s.hi[k - 1] = ss / k_(k);
            c.hi[k - 1] = sign * cc / k_(k);
        }
        (s, c)
    }

    /// `tan` (`sign = +1`) or `tanh` (`sign = −1`) given `t0`: from
    /// `t' = (1 + sign · t²) a'`, carrying `u = 1 + sign · t²` along.
    pub(crate) fn tan_series(&self, t0: S, sign: S) -> Self {
        let mut t = Self::constant(t0);
        let mut u = Self::constant(S::one() + sign * t0 * t0);
        for k in 1..=K {
            let mut s = S::zero();
            for j in 1..=k {
                s += k_::<S>(j) * self.c(j) * u.c(k - j);
            }
            t.hi[k - 1] = s / k_(k);
            let mut sq = S::zero();
            for i in 0..=k {
                sq += t.c(i) * t.c(k - i);
            }
            u.hi[k - 1] = sign * sq;
        }
        t
    }

    /// `f(self)` from the derivatives of `f` at `a0`: Faà di Bruno in Taylor form,
    /// `Σ_n f⁽ⁿ⁾(a0)/n! · (a − a0)ⁿ`, the powers of `a − a0` by truncated products
    /// (O(K³), for hand-written primitives that know their derivatives only).
    /// `deriv(n)` returns `f⁽ⁿ⁾(a0)` for `n = 0..=K`.
    pub(crate) fn compose_series(&self, mut deriv: impl FnMut(usize) -> S) -> Self {
        let mut out = Self::constant(deriv(0));
        if self.is_flat() {
            return out;
        }
        let delta = self.with_value(S::zero());
        let mut power = delta;
        let mut fact = S::one();
        for n in 1..=K {
            fact *= k_::<S>(n);
            let coef = deriv(n) / fact;
            // δⁿ starts at t^n: lower coefficients are zero.
            for j in n..=K {
                out.hi[j - 1] += coef * power.c(j);
            }
            if n < K {
                power = power.mul_series(&delta, S::zero());
            }
        }
        out
    }
}
