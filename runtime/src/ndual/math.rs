//! The float method surface of `NDual`: the derivative table's entries through the
//! first-order chain rule; the powers apply the table's power derivatives in cases of
//! their own, and `mul_add` is a product and a sum rounded once.

use super::NDual;
use crate::Real;
use crate::reading::table::power;
use crate::reading::{all_finite, safe_lanes, times_sz};

/// A table entry at `NDual`: the tangents times `f′` (with strong zero where the
/// function is singular), zero, or unchanged.
macro_rules! ndual_rule {
    (smooth, $x:ident, $v:ident, $d1:ident) => {
        $x.chain($v, $d1)
    };
    (singular, $x:ident, $v:ident, $d1:ident) => {
        $x.chain_sz($v, $d1)
    };
    (linear, $x:ident, $v:ident, $d1:ident) => {
        $x.chain($v, $d1)
    };
    (flat, $x:ident, $v:ident, $d1:ident) => {{
        let _ = $d1;
        Self::flat($v)
    }};
    (pass, $x:ident, $v:ident, $d1:ident) => {{
        let _ = $d1;
        Self::new($v, $x.partials)
    }};
}

/// A two-argument table entry at `NDual`: the first-order chain rule, strong zero in
/// each argument.
macro_rules! ndual_rule2 {
    ($x:ident, $y:ident, $v:ident, $da:ident, $db:ident) => {
        $x.chain2_sz(&$y, $v, $da, $db)
    };
}

/// A piecewise entry at `NDual`: the value, the picked operand's tangents.
macro_rules! ndual_select {
    ($v:ident, $chosen:ident) => {
        Self::new($v, $chosen.partials)
    };
}

/// A linear entry at `NDual`: the tangents times the sign, `ȧ − n ḃ` lane by lane, or
/// zero.
macro_rules! ndual_linear {
    (negated $x:ident, $v:ident, $flip:ident) => {{
        let d = if $flip { -S::one() } else { S::one() };
        $x.chain($v, d)
    }};
    (minus $x:ident, $y:ident, $v:ident, $n:ident) => {
        Self::new(
            $v,
            core::array::from_fn(|k| $x.partials[k] - $n * $y.partials[k]),
        )
    };
    (flat $v:ident) => {
        Self::flat($v)
    };
}

impl<S: Real, const N: usize> Real for NDual<S, N> {
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

    unary_table!(unary_rules! order1 ndual_rule);
    binary_table!(binary_rules! order1 ndual_rule2);

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
            // Squares are the common case: the product rule of `x * x` (exactly
            // `2 x ẋ`), which the optimiser schedules better at width 1 than `ẋ (x + x)`
            // (measured in the derived-rule benchmark).
            2 => {
                let p = &self.partials;
                let lanes = safe_lanes(
                    all_finite([x]),
                    |k| p[k] * x + x * p[k],
                    || (x + x, *p),
                    |(d, p), k| times_sz(*d, p[k]),
                );
                Self::new(v, lanes)
            }
            // For n ≥ 1 the derivative n x^(n−1) is finite wherever x is, so a zero
            // lane stays zero without the strong-zero test.
            1.. => self.chain(v, power::powi_d1(x, n)),
            0 => self.chain_sz(v, S::zero()),
            // Negative powers are singular at 0: strong zero.
            _ => self.chain_sz(v, power::powi_d1(x, n)),
        }
    }
    #[inline]
    fn powf(self, n: Self) -> Self {
        let (x, y) = (self.value, n.value);
        let v = x.powf(y);
        // A constant base or a constant exponent (`10.31_f64.powf(y)`, `x.powf(2.5)`:
        // the macro lifts the plain operand to a constant of the reading) moves only the
        // other operand's lanes. Its test folds away where the constant is visible to
        // the optimiser, and skips the other operand's derivative (a division, or a
        // logarithm) where it is not. Each branch gives what the general formula below
        // gives for those lanes.
        if self.partials.iter().all(S::is_exact_zero) {
            return n.chain_sz(v, power::powf_dy(x, v));
        }
        if n.partials.iter().all(S::is_exact_zero) {
            return self.chain_sz(v, power::powf_dx(x, y, v));
        }
        let (dx, dy) = (power::powf_dx(x, y, v), power::powf_dy(x, v));
        self.chain2_sz(&n, v, dx, dy)
    }
    #[inline]
    fn mul_add(self, a: Self, b: Self) -> Self {
        // The product's parts plus b's, the value rounded once as the primal's.
        let p = self * a;
        Self::new(
            self.value.mul_add(a.value, b.value),
            core::array::from_fn(|k| p.partials[k] + b.partials[k]),
        )
    }

    select_table!(select_rules! value ndual_select);
    linear_table!(linear_rules! value ndual_linear);

    value_query!(field value: is_nan is_finite is_infinite is_sign_negative is_sign_positive);
}
