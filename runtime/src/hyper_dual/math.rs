//! The float method surface of `HyperDual`: the value by the primal method, the parts
//! from the function's first two derivatives at the value (`eᵢ′ = f′ eᵢ`,
//! `e12′ = f′ e12 + f″ e1 e2`). Every one- and two-argument function of the derivative
//! table comes from it; those singular somewhere go through the strong-zero chain, so
//! an untouched part stays exactly zero at their singular points.

use super::HyperDual;
use crate::Real;
use crate::reading::table::power;

/// A table entry at `HyperDual`: the second-order chain rule (strong zero where
/// singular), a scaling for piecewise-linear functions, zero, or unchanged.
macro_rules! hyper_dual_rule {
    (smooth, $x:ident, $v:ident, $d1:ident, $d2:ident) => {
        $x.chain($v, $d1, $d2)
    };
    (singular, $x:ident, $v:ident, $d1:ident, $d2:ident) => {
        $x.chain_sz($v, $d1, $d2)
    };
    (linear, $x:ident, $v:ident, $d1:ident, $d2:ident) => {{
        let _ = $d2;
        $x.map($v, |p| p * $d1)
    }};
    (flat, $x:ident, $v:ident, $d1:ident, $d2:ident) => {{
        let _ = ($d1, $d2);
        Self::constant($v)
    }};
    (pass, $x:ident, $v:ident, $d1:ident, $d2:ident) => {{
        let _ = ($d1, $d2);
        $x.with_value($v)
    }};
}

/// A two-argument table entry at `HyperDual`: the second-order chain rule, strong zero
/// per term.
macro_rules! hyper_dual_rule2 {
    ($x:ident, $y:ident, $v:ident, $g:expr, $h:expr) => {
        $x.chain2_sz(&$y, $v, $g, $h)
    };
}

/// A piecewise entry at `HyperDual`: the value, the picked operand's parts.
macro_rules! hyper_dual_select {
    ($v:ident, $chosen:ident) => {
        $chosen.with_value($v)
    };
}

impl<S: Real> Real for HyperDual<S> {
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

    unary_table!(unary_rules! order2 hyper_dual_rule);
    binary_table!(binary_rules! order2 hyper_dual_rule2);
    select_table!(select_rules! value hyper_dual_select);

    value_query!(field value: is_nan is_finite is_infinite is_sign_negative is_sign_positive);

    // ----------------------------------------------------------------------------
    // Not in a table yet: these follow `DiagJet`'s (`diag_jet/math.rs`); the powers read
    // their derivatives from `table::power`.

    #[inline]
    fn sin_cos(self) -> (Self, Self) {
        (Real::sin(self), Real::cos(self))
    }
    #[inline]
    fn powi(self, n: i32) -> Self {
        let x = self.value;
        // The value is the primal's own `powi`, so the primal reading stays bit-identical.
        let v = x.powi(n);
        let (f1, f2) = power::powi_d2(x, n);
        match n {
            0 => Self::constant(v),
            1 => self.with_value(v),
            // For n ≥ 2 the derivatives are finite wherever x is.
            2.. => self.chain(v, f1, f2),
            // Negative powers are singular at 0: strong zero.
            _ => self.chain_sz(v, f1, f2),
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
            self.map(v, |p| -p)
        } else {
            self.with_value(v)
        }
    }
    #[inline]
    fn mul_add(self, a: Self, b: Self) -> Self {
        // The product's parts plus b's, the value rounded once as the primal's.
        let p = self * a;
        p.zip(&b, self.value.mul_add(a.value, b.value), |p, q| p + q)
    }
    #[inline]
    fn rem_euclid(self, rhs: Self) -> Self {
        // r = a - n b with the integer n = (a - r) / b.
        let r = self.value.rem_euclid(rhs.value);
        let n = ((self.value - r) / rhs.value).round();
        self.zip(&rhs, r, |p, q| p - n * q)
    }
    #[inline]
    fn div_euclid(self, rhs: Self) -> Self {
        Self::constant(self.value.div_euclid(rhs.value))
    }
}
