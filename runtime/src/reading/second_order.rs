//! The float method surface of the second-order readings ([`DiagJet`](crate::DiagJet),
//! [`HyperDual`](crate::HyperDual)), written once: both carry a value and parts of
//! first and second order, and differ only in how their parts are laid out, which the
//! methods they provide hide (see `second_order_real!`).

/// A one-argument table entry at a second-order reading: the second-order chain rule
/// (strong zero where singular), a scaling for piecewise-linear functions, zero, or
/// unchanged.
macro_rules! second_order_rule {
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

/// A two-argument table entry at a second-order reading: the second-order chain rule,
/// strong zero per term.
macro_rules! second_order_rule2 {
    ($x:ident, $y:ident, $v:ident, $g:expr, $h:expr) => {
        $x.chain2_sz(&$y, $v, $g, $h)
    };
}

/// A piecewise entry at a second-order reading: the value, the picked operand's parts.
macro_rules! second_order_select {
    ($v:ident, $chosen:ident) => {
        $chosen.with_value($v)
    };
}

/// A linear entry at a second-order reading: both orders of parts map alike, the
/// coefficients being constant near the point.
macro_rules! second_order_linear {
    (negated $x:ident, $v:ident, $flip:ident) => {
        if $flip {
            $x.negated($v)
        } else {
            $x.with_value($v)
        }
    };
    (minus $x:ident, $y:ident, $v:ident, $n:ident) => {
        $x.zip(&$y, $v, |p, q| p - $n * q)
    };
    (flat $v:ident) => {
        Self::constant($v)
    };
}

/// The [`Real`](crate::Real) impl of a second-order reading:
/// `second_order_real!({DiagJet N})`, `second_order_real!({HyperDual})`. Every
/// function of the derivative table, through the reading's chain rules; the powers
/// from the table's power derivatives; `mul_add` as a product and a sum rounded once.
///
/// The reading provides, besides `constant` and its `value` field:
///
/// * `is_flat()`: every part exactly zero;
/// * `with_value(v)`: the parts unchanged (a shift, a branch taken);
/// * `map(v, f)`: every part through the linear map `f` (a scaling);
/// * `negated(v)`: every part negated;
/// * `zip(other, v, f)`: the parts of both combined part by part (sums, differences);
/// * `chain(v, f′, f″)` and `chain_sz` (strong zero), `chain2_sz(other, v, [fa, fb],
///   [faa, fab, fbb])`: the second-order chain rules.
macro_rules! second_order_real {
    ({$T:ident $($N:ident)?}) => {
        impl<S: Real $(, const $N: usize)?> Real for $T<S $(, $N)?> {
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

            unary_table!(unary_rules! order2 second_order_rule);
            binary_table!(binary_rules! order2 second_order_rule2);
            select_table!(select_rules! value second_order_select);
            linear_table!(linear_rules! value second_order_linear);

            value_query!(field value: is_nan is_finite is_infinite is_sign_negative is_sign_positive);

            #[inline]
            fn sin_cos(self) -> (Self, Self) {
                (Real::sin(self), Real::cos(self))
            }
            #[inline]
            fn powi(self, n: i32) -> Self {
                use crate::reading::table::power;
                let x = self.value;
                // The value is the primal's own `powi`, so the primal reading stays
                // bit-identical.
                let v = x.powi(n);
                match n {
                    0 => Self::constant(v),
                    1 => self.with_value(v),
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
                use crate::reading::table::power;
                let (x, y) = (self.value, n.value);
                let v = x.powf(y);
                let (ly, lyy) = power::powf_dy2(x, v);
                // A constant exponent or a constant base moves only the other operand's
                // parts.
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
            fn mul_add(self, a: Self, b: Self) -> Self {
                // The product's parts plus b's, the value rounded once as the primal's.
                let p = self * a;
                p.zip(&b, self.value.mul_add(a.value, b.value), |p, q| p + q)
            }
        }
    };
}
