//! The one-argument functions: each entry's value, first, second and (where a jet rule
//! needs it) third derivative, its domain and its singular-point policy. A reading
//! takes only the orders it carries: a first-order reading never evaluates `d2`.
//!
//! Entry grammar:
//!
//! ```text
//! name(x): policy, domain(lo, hi) {
//!     v  = value          [, where a = …, b = …];
//!     d1 = f′ in x, v     [, where …];
//!     d2 = f″ in x, v, d1 [, where …];
//!    [d3 = f‴ in v, d1, d2 [, where …];]
//! }
//! ```
//!
//! `where` bindings are evaluated before the line they belong to, and every binding is
//! visible to the lines after it. `d3` reads the lower orders only, not `x`: the jet
//! rules that want it keep the value and derivatives, not the argument. Policies say
//! how a reading applies the derivatives:
//!
//! * `smooth`: finite wherever the value is; the plain chain rule.
//! * `singular`: a derivative is infinite or NaN somewhere inside the domain's closure
//!   (`ln`, `sqrt` at 0): strong zero, a tangent lane that is exactly zero stays
//!   exactly zero there instead of becoming `0 · ∞`.
//! * `linear`: `d2` is identically zero; the tangents are scaled by `d1` (which is
//!   piecewise constant), with no second-order term.
//! * `flat`: integer-valued; every tangent is zero.
//! * `pass`: `d1` is identically one; the tangents pass through unchanged.
//!
//! `domain(lo, hi)` is the open interval the tests sample derivatives from (the
//! function may be defined beyond it: `tan` has poles, `atanh` ends at ±1).

use super::{Line, Policy};

/// Invokes `$callback!` with every entry of the table (see the module docs).
macro_rules! unary_table {
    ($callback:ident $(! $($prefix:tt)*)?) => {
        $callback! {
            $($($prefix)*)?
            sin(x): smooth, domain(-10.0, 10.0) {
                v = S::sin(x);
                d1 = S::cos(x);
                d2 = -v;
                d3 = -d1;
            }
            cos(x): smooth, domain(-10.0, 10.0) {
                v = S::cos(x);
                d1 = -S::sin(x);
                d2 = -v;
                d3 = -d1;
            }
            tan(x): smooth, domain(-1.4, 1.4) {
                v = S::tan(x);
                d1 = S::one() + v * v;
                d2 = (v + v) * d1;
            }
            asin(x): singular, domain(-0.95, 0.95) {
                v = S::asin(x);
                d1 = S::recip(S::sqrt(S::one() - x * x));
                d2 = x * d1 * r, where r = S::recip(S::one() - x * x);
            }
            acos(x): singular, domain(-0.95, 0.95) {
                v = S::acos(x);
                d1 = -S::recip(S::sqrt(S::one() - x * x));
                d2 = x * d1 * r, where r = S::recip(S::one() - x * x);
            }
            atan(x): smooth, domain(-10.0, 10.0) {
                v = S::atan(x);
                d1 = S::recip(S::one() + x * x);
                d2 = -(x + x) * d1 * d1;
            }
            sinh(x): smooth, domain(-5.0, 5.0) {
                v = S::sinh(x);
                d1 = S::cosh(x);
                d2 = v;
            }
            cosh(x): smooth, domain(-5.0, 5.0) {
                v = S::cosh(x);
                d1 = S::sinh(x);
                d2 = v;
            }
            tanh(x): smooth, domain(-5.0, 5.0) {
                v = S::tanh(x);
                d1 = S::one() - v * v;
                d2 = -(v + v) * d1;
                d3 = S::cst(-2.0) * d1 * d1 - S::cst(2.0) * v * d2;
            }
            asinh(x): smooth, domain(-10.0, 10.0) {
                v = S::asinh(x);
                d1 = S::recip(S::sqrt(x * x + S::one()));
                d2 = -(x * d1 * r), where r = S::recip(x * x + S::one());
            }
            acosh(x): singular, domain(1.05, 10.0) {
                v = S::acosh(x);
                d1 = S::recip(S::sqrt(x * x - S::one()));
                d2 = -(x * d1 * r), where r = S::recip(x * x - S::one());
            }
            atanh(x): singular, domain(-0.95, 0.95) {
                v = S::atanh(x);
                d1 = S::recip(S::one() - x * x);
                d2 = (x + x) * d1 * d1;
            }
            exp(x): smooth, domain(-5.0, 5.0) {
                v = S::exp(x);
                d1 = v;
                d2 = v;
            }
            exp2(x): smooth, domain(-5.0, 5.0) {
                v = S::exp2(x);
                d1 = v * S::cst(LN_2);
                d2 = d1 * S::cst(LN_2);
            }
            exp_m1(x): smooth, domain(-5.0, 5.0) {
                v = S::exp_m1(x);
                d1 = v + S::one();
                d2 = d1;
            }
            ln(x): singular, domain(0.05, 10.0) {
                v = S::ln(x);
                d1 = S::recip(x);
                d2 = -(d1 * d1);
            }
            log2(x): singular, domain(0.05, 10.0) {
                v = S::log2(x);
                d1 = S::recip(x * S::cst(LN_2));
                d2 = -(d1 / x);
            }
            log10(x): singular, domain(0.05, 10.0) {
                v = S::log10(x);
                d1 = S::recip(x * S::cst(LN_10));
                d2 = -(d1 / x);
            }
            ln_1p(x): singular, domain(-0.95, 10.0) {
                v = S::ln_1p(x);
                d1 = S::recip(S::one() + x);
                d2 = -(d1 * d1);
            }
            sqrt(x): singular, domain(0.05, 10.0) {
                v = S::sqrt(x);
                d1 = S::recip(v + v);
                d2 = -(d1 / (x + x));
            }
            cbrt(x): singular, domain(0.05, 10.0) {
                v = S::cbrt(x);
                d1 = S::recip(S::cst(3.0) * v * v);
                d2 = -(d1 + d1) / (S::cst(3.0) * x);
            }
            // At ±0 the slope follows the sign bit, as `signum` does.
            abs(x): linear, domain(-10.0, 10.0) {
                v = S::abs(x);
                d1 = S::signum(x);
                d2 = S::zero();
            }
            signum(x): flat, domain(-10.0, 10.0) {
                v = S::signum(x);
                d1 = S::zero();
                d2 = S::zero();
            }
            recip(x): singular, domain(0.1, 10.0) {
                v = S::recip(x);
                d1 = -(v * v);
                d2 = -(d1 + d1) * v;
            }
            to_degrees(x): linear, domain(-10.0, 10.0) {
                v = S::to_degrees(x);
                d1 = S::cst(180.0 / PI);
                d2 = S::zero();
            }
            to_radians(x): linear, domain(-10.0, 10.0) {
                v = S::to_radians(x);
                d1 = S::cst(PI / 180.0);
                d2 = S::zero();
            }
            floor(x): flat, domain(0.1, 0.9) {
                v = S::floor(x);
                d1 = S::zero();
                d2 = S::zero();
            }
            ceil(x): flat, domain(0.1, 0.9) {
                v = S::ceil(x);
                d1 = S::zero();
                d2 = S::zero();
            }
            round(x): flat, domain(0.1, 0.4) {
                v = S::round(x);
                d1 = S::zero();
                d2 = S::zero();
            }
            trunc(x): flat, domain(0.1, 0.9) {
                v = S::trunc(x);
                d1 = S::zero();
                d2 = S::zero();
            }
            // fract(x) = x − trunc(x).
            fract(x): pass, domain(0.1, 0.9) {
                v = S::fract(x);
                d1 = S::one();
                d2 = S::zero();
            }
        }
    };
}

/// Invokes `$callback! { [prefix…] name name … }` with the name of every entry of
/// [`unary_table!`]: for the trait's declarations and the impls that only forward the
/// methods (the primal fields, `num_traits::Float`, the CUDA reading), so that no list
/// of names can drift from the table.
macro_rules! unary_names {
    ($callback:ident $($prefix:tt)*) => {
        unary_table!(unary_names! @names $callback [$($prefix)*]);
    };
    (@names $callback:ident [$($prefix:tt)*]
        $($name:ident($x:ident): $policy:ident, domain($lo:expr, $hi:expr) { $($body:tt)* })*
    ) => {
        $callback! { [$($prefix)*] $($name)* }
    };
}

/// Expands one reading's one-argument methods from the table, inside its `impl Real`
/// block: `unary_table!(unary_rules! order1 ndual_rule)`, where `ndual_rule` maps
/// `(policy, self, v, d1)` to the result (see `ndual/math.rs`). `order2` passes `d2`
/// too; order 1 never evaluates it.
macro_rules! unary_rules {
    (
        $order:ident $apply:ident
        $(
            $name:ident($x:ident): $policy:ident, domain($lo:expr, $hi:expr) {
                $v:ident = $val:expr $(, where $($vl:ident = $ve:expr),+)?;
                $f1:ident = $d1:expr $(, where $($al:ident = $ae:expr),+)?;
                $f2:ident = $d2:expr $(, where $($bl:ident = $be:expr),+)?;
                $($f3:ident = $d3:expr $(, where $($cl:ident = $ce:expr),+)?;)?
            }
        )*
    ) => {
        $(
            #[inline]
            fn $name(self) -> Self {
                #[allow(unused_imports)]
                use core::f64::consts::{LN_2, LN_10, PI};
                let $x = self.value;
                $($(let $vl = $ve;)+)?
                let $v = $val;
                $($(let $al = $ae;)+)?
                let $f1 = $d1;
                unary_rules!(@$order $apply, $policy, self, $v, $f1;
                    $($($bl = $be,)+)? $f2 = $d2, => $f2)
            }
        )*
    };
    (@order1 $apply:ident, $policy:ident, $x:ident, $v:ident, $f1:ident;
        $($l:ident = $e:expr,)* => $f2:ident) => {
        $apply!($policy, $x, $v, $f1)
    };
    (@order2 $apply:ident, $policy:ident, $x:ident, $v:ident, $f1:ident;
        $($l:ident = $e:expr,)* => $f2:ident) => {{
        $(let $l = $e;)*
        $apply!($policy, $x, $v, $f1, $f2)
    }};
}

/// An entry of the table as source text, for the kernel generator (the element-wise
/// kernels are first-order and read the value and `f′`; the PINN pass's jets read `f″`
/// too) and the tests.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(not(feature = "cuda"), allow(dead_code))]
pub(crate) struct Entry {
    /// The `Real` method name.
    pub(crate) name: &'static str,
    pub(crate) policy: Policy,
    pub(crate) value: Line,
    pub(crate) d1: Line,
    pub(crate) d2: Line,
}

macro_rules! entries {
    (
        $(
            $name:ident($x:ident): $policy:ident, domain($lo:expr, $hi:expr) {
                $v:ident = $val:expr $(, where $($vl:ident = $ve:expr),+)?;
                $f1:ident = $d1:expr $(, where $($al:ident = $ae:expr),+)?;
                $f2:ident = $d2:expr $(, where $($bl:ident = $be:expr),+)?;
                $($f3:ident = $d3:expr $(, where $($cl:ident = $ce:expr),+)?;)?
            }
        )*
    ) => {
        /// Every entry, in table order.
        #[cfg_attr(not(feature = "cuda"), allow(dead_code))]
        pub(crate) const UNARY: &[Entry] = &[
            $(
                Entry {
                    name: stringify!($name),
                    policy: policy_of!($policy),
                    value: line!($v = $val $(, where $($vl = $ve),+)?),
                    d1: line!($f1 = $d1 $(, where $($al = $ae),+)?),
                    d2: line!($f2 = $d2 $(, where $($bl = $be),+)?),
                },
            )*
        ];
    };
}

unary_table!(entries);

/// The lines of every entry as functions, one per line, for jet rules that keep the
/// derivatives in buffers of their own (`pinn`'s batched streams):
/// `lines::tanh::d2(x, v, d1)` is the table's `d2` of `tanh`, `lines::tanh::d3(v, d1, d2)`
/// its `d3`.
macro_rules! line_fns {
    (
        $(
            $name:ident($x:ident): $policy:ident, domain($lo:expr, $hi:expr) {
                $v:ident = $val:expr $(, where $($vl:ident = $ve:expr),+)?;
                $f1:ident = $d1:expr $(, where $($al:ident = $ae:expr),+)?;
                $f2:ident = $d2:expr $(, where $($bl:ident = $be:expr),+)?;
                $($f3:ident = $d3:expr $(, where $($cl:ident = $ce:expr),+)?;)?
            }
        )*
    ) => {
        /// One module per entry.
        pub(crate) mod lines {
            $(
                /// The table's lines for this function.
                #[allow(dead_code, unused_variables, clippy::all)]
                pub(crate) mod $name {
                    #[allow(unused_imports)]
                    use core::f64::consts::{LN_2, LN_10, PI};

                    use crate::Real;

                    /// The value.
                    #[inline(always)]
                    pub(crate) fn value<S: Real>($x: S) -> S {
                        $($(let $vl = $ve;)+)?
                        $val
                    }
                    /// `f′`, given the value.
                    #[inline(always)]
                    pub(crate) fn d1<S: Real>($x: S, $v: S) -> S {
                        $($(let $al = $ae;)+)?
                        $d1
                    }
                    /// `f″`, given the value and `f′`.
                    #[inline(always)]
                    pub(crate) fn d2<S: Real>($x: S, $v: S, $f1: S) -> S {
                        $($(let $bl = $be;)+)?
                        $d2
                    }
                    $(
                        /// `f‴`, given the value, `f′` and `f″` (the table's `d3` does not
                        /// read the argument).
                        #[inline(always)]
                        pub(crate) fn $f3<S: Real>($v: S, $f1: S, $f2: S) -> S {
                            $($(let $cl = $ce;)+)?
                            $d3
                        }
                    )?
                }
            )*
        }
    };
}

unary_table!(line_fns);
