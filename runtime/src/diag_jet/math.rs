//! The float method surface of `DiagJet`: the value by the primal method, the
//! partials from the function's first two derivatives at the value
//! (`ȧ′ = f′ ȧ`, `ä′ = f′ ä + f″ ȧ²`). The one-argument functions read `f′` and `f″`
//! from the derivative table; those singular somewhere go through the strong-zero
//! chain, so an untouched lane stays exactly zero at their singular points.

use super::DiagJet;
use crate::Real;
use crate::reading::table::power;

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

/// A table entry at `DiagJet`: the second-order chain rule (strong zero where
/// singular), a scaling for piecewise-linear functions, zero, or unchanged.
macro_rules! diag_jet_rule {
    (smooth, $x:ident, $v:ident, $d1:ident, $d2:ident) => {
        $x.chain($v, $d1, $d2)
    };
    (singular, $x:ident, $v:ident, $d1:ident, $d2:ident) => {
        $x.chain_sz($v, $d1, $d2)
    };
    (linear, $x:ident, $v:ident, $d1:ident, $d2:ident) => {{
        let _ = $d2;
        $x.scaled($v, $d1)
    }};
    (flat, $x:ident, $v:ident, $d1:ident, $d2:ident) => {{
        let _ = ($d1, $d2);
        Self::flat($v)
    }};
    (pass, $x:ident, $v:ident, $d1:ident, $d2:ident) => {{
        let _ = ($d1, $d2);
        Self::branch($v, &$x)
    }};
}

/// A two-argument table entry at `DiagJet`: the second-order chain rule, strong zero
/// per term.
macro_rules! diag_jet_rule2 {
    ($x:ident, $y:ident, $v:ident, $g:expr, $h:expr) => {
        $x.chain2_sz(&$y, $v, $g, $h)
    };
}

/// A piecewise entry at `DiagJet`: the value, the picked operand's partials.
macro_rules! diag_jet_select {
    ($v:ident, $chosen:ident) => {
        Self::branch($v, $chosen)
    };
}

impl<S: Real, const N: usize> Real for DiagJet<S, N> {
    type Field = S::Field;
    const ORDER: usize = S::ORDER + 2;

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

    unary_table!(unary_rules! order2 diag_jet_rule);
    binary_table!(binary_rules! order2 diag_jet_rule2);

    #[inline]
    fn sin_cos(self) -> (Self, Self) {
        (Real::sin(self), Real::cos(self))
    }
    #[inline]
    fn powi(self, n: i32) -> Self {
        let x = self.value;
        // The value is the primal's own `powi`, so the primal reading stays bit-identical.
        let v = x.powi(n);
        match n {
            0 => Self::constant(v),
            1 => Self::branch(v, &self),
            // For n ≥ 2 the derivatives are finite wherever x is.
            2.. => {
                let (f1, f2) = power::powi_d2(x, n);
                self.chain(v, f1, f2)
            }
            // Negative powers are singular at 0: strong zero.
            _ => {
                let (f1, f2) = power::powi_d2(x, n);
                self.chain_sz(v, f1, f2)
            }
        }
    }
    #[inline]
    fn powf(self, n: Self) -> Self {
        let (x, y) = (self.value, n.value);
        let v = x.powf(y);
        let (ly, lyy) = power::powf_dy2(x, v);
        // A constant exponent or a constant base moves only the other operand's parts.
        if self.is_flat() {
            return n.chain_sz(v, ly, lyy);
        }
        let (lx, lxx, pm1) = power::powf_dx2(x, y);
        if n.is_flat() {
            return self.chain_sz(v, lx, lxx);
        }
        let lxy = power::powf_dxy(x, y, pm1);
        self.chain2_sz(&n, v, [lx, ly], [lxx, lxy, lyy])
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

    select_table!(select_rules! value diag_jet_select);

    value_query!(field value: is_nan is_finite is_infinite is_sign_negative is_sign_positive);
}
