//! The derivative table: every one-argument float function of the reading surface,
//! written once — its value, first, second and (where a jet rule needs it) third
//! derivative, its domain and its singular-point policy.
//!
//! Each entry is data for a callback macro. The expressions are valid both as Rust,
//! generic over a reading `S` (`S::sqrt(x)` is `<S as Real>::sqrt`), and as CUDA C++,
//! where the kernel prelude defines `S` as a struct of static functions of the unit's
//! precision; so the readings ([`NDual`](crate::NDual), [`DiagJet`](crate::DiagJet),
//! [`HyperDual`](crate::HyperDual), and through them `ZDual` and the CUDA reading) and
//! the generated kernels read the same formulas and cannot drift apart. A reading takes
//! only the orders it carries: a first-order reading never evaluates `d2`.
//!
//! Entry grammar:
//!
//! ```text
//! name(x): policy, domain(lo, hi) {
//!     v  = value          [, where a = …, b = …];
//!     d1 = f′ in x, v     [, where …];
//!     d2 = f″ in x, v, d1 [, where …];
//!    [d3 = f‴ in x, v, d1, d2 [, where …];]
//! }
//! ```
//!
//! `where` bindings are evaluated before the line they belong to, and every binding is
//! visible to the lines after it. Policies say how a reading applies the derivatives:
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
//!
//! The two-argument functions (`atan2`, `log`, `hypot`) are in [`binary_table!`]; the
//! piecewise ones that pass on one operand's derivatives (`min`, `max`, `clamp`) in
//! [`select_table!`], with the conditions that pick the operand.
//!
//! The powers' derivatives are functions in [`power`], since their cases depend on an
//! integer or on which operands carry derivatives. [`lines`] offers every entry's
//! lines as functions, for jet rules that keep derivatives in buffers of their own.
//!
//! Not in these tables: the operators (each reading's own algebra: product, quotient,
//! and `mul_add`, which is a product and a sum rounded once), `copysign` and
//! `rem_euclid` (still written per reading), and Taylor's series, which for every entry but
//! the `linear`, `flat` and `pass` ones runs recurrences of its own, since a table of
//! three derivatives cannot give a tower of order K.

/// The named constants the table's expressions use, in `f64` (a reading rounds them
/// with `S::cst`); the kernel generator defines the same names.
#[cfg_attr(not(feature = "cuda"), allow(dead_code))]
pub(crate) const CONSTANTS: &[(&str, f64)] = &[
    ("LN_2", core::f64::consts::LN_2),
    ("LN_10", core::f64::consts::LN_10),
    ("PI", core::f64::consts::PI),
];

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

/// Invokes `$callback!` with every two-argument entry: the value, the first partials
/// `da`, `db`, and the second `daa`, `dab`, `dbb`. All are singular somewhere (a zero
/// radius, a base of one), so every reading applies them with strong zero per term.
macro_rules! binary_table {
    ($callback:ident $(! $($prefix:tt)*)?) => {
        $callback! {
            $($($prefix)*)?
            // Dividing by the radius twice rather than by a² + b², which underflows to
            // zero below ~1e-154 where the derivative is still finite.
            atan2(a, b): domain((-2.0, 2.0), (0.5, 2.0)) {
                v = S::atan2(a, b), where r = S::hypot(b, a);
                da = b / r / r;
                db = -a / r / r;
                daa = -(da * c + da * c), where c = a / r / r;
                dab = c * c - da * da;
                dbb = -daa;
            }
            log(a, b): domain((0.2, 5.0), (1.5, 5.0)) {
                v = S::log(a, b), where la = S::ln(a), lb = S::ln(b);
                da = S::recip(a * lb);
                db = -la / (b * lb * lb);
                daa = -(da / a);
                dab = -S::recip(a * b * lb * lb);
                dbb = la * (lb + S::cst(2.0)) / (b * b * lb * lb * lb);
            }
            hypot(a, b): domain((-2.0, 2.0), (0.5, 2.0)) {
                v = S::hypot(a, b);
                da = a / v;
                db = b / v;
                daa = db * db * r, where r = S::recip(v);
                dab = -(da * db * r);
                dbb = da * da * r;
            }
        }
    };
}

/// Invokes `$callback!` with every piecewise function that passes on the derivatives
/// of one of its operands: the value, then the operand picked by the first condition
/// that holds (on the primal values), the first operand when none does.
///
/// ```text
/// name(x, y, …) { v = value; [pick y if condition;]+ }
/// ```
macro_rules! select_table {
    ($callback:ident $(! $($prefix:tt)*)?) => {
        $callback! {
            $($($prefix)*)?
            // The operand `f64::min` returns: the other one when it is smaller or self is
            // NaN.
            min(a, b) {
                v = S::min(a, b);
                pick b if b < a || S::is_nan(a);
            }
            max(a, b) {
                v = S::max(a, b);
                pick b if b > a || S::is_nan(a);
            }
            // The host refuses `lo > hi` (as `f64::clamp`); a kernel cannot, and returns
            // `hi` there, so the lanes follow `hi` too.
            clamp(a, lo, hi) {
                v = S::clamp(a, lo, hi);
                pick hi if a > hi || (a < lo && lo > hi);
                pick lo if a < lo;
            }
        }
    };
}

/// Expands one reading's piecewise methods from [`select_table!`]:
/// `select_table!(select_rules! value ndual_select)`, where `value` is the field holding
/// the reading's primal part and `ndual_select!(v, chosen)` builds the result from the
/// value and a reference to the picked operand.
macro_rules! select_rules {
    (
        $field:ident $apply:ident
        $(
            $name:ident($x:ident $(, $y:ident)*) {
                v = $val:expr;
                $(pick $p:ident if $c:expr;)+
            }
        )*
    ) => {
        $(
            #[inline]
            fn $name(self $(, $y: Self)*) -> Self {
                let $x = self;
                // The conditions and the value read the primal parts, under the names
                // of the operands.
                let (value, holds) = {
                    let ($x $(, $y)*) = ($x.$field $(, $y.$field)*);
                    ($val, [$($c),+])
                };
                let picks = [$(&$p),+];
                let mut chosen = &$x;
                for (holds, pick) in holds.into_iter().zip(picks) {
                    if holds {
                        chosen = pick;
                        break;
                    }
                }
                $apply!(value, chosen)
            }
        )*
    };
}

/// Expands one reading's two-argument methods from [`binary_table!`]: order 1 passes
/// `(self, other, v, da, db)` to the reading's macro, order 2 adds `daa`, `dab`, `dbb`.
macro_rules! binary_rules {
    (
        $order:ident $apply:ident
        $(
            $name:ident($a:ident, $b:ident): domain(($alo:expr, $ahi:expr), ($blo:expr, $bhi:expr)) {
                $v:ident = $val:expr $(, where $($vl:ident = $ve:expr),+)?;
                $fa:ident = $da:expr $(, where $($al:ident = $ae:expr),+)?;
                $fb:ident = $db:expr $(, where $($bl:ident = $be:expr),+)?;
                $faa:ident = $daa:expr $(, where $($cl:ident = $ce:expr),+)?;
                $fab:ident = $dab:expr $(, where $($dl:ident = $de:expr),+)?;
                $fbb:ident = $dbb:expr $(, where $($el:ident = $ee:expr),+)?;
            }
        )*
    ) => {
        $(
            #[inline]
            fn $name(self, other: Self) -> Self {
                let ($a, $b) = (self.value, other.value);
                $($(let $vl = $ve;)+)?
                let $v = $val;
                $($(let $al = $ae;)+)?
                let $fa = $da;
                $($(let $bl = $be;)+)?
                let $fb = $db;
                binary_rules!(@$order $apply, self, other, $v, $fa, $fb;
                    $($($cl = $ce,)+)? $faa = $daa,
                    $($($dl = $de,)+)? $fab = $dab,
                    $($($el = $ee,)+)? $fbb = $dbb,
                    => $faa, $fab, $fbb)
            }
        )*
    };
    (@order1 $apply:ident, $x:ident, $y:ident, $v:ident, $fa:ident, $fb:ident;
        $($l:ident = $e:expr,)* => $faa:ident, $fab:ident, $fbb:ident) => {
        $apply!($x, $y, $v, $fa, $fb)
    };
    (@order2 $apply:ident, $x:ident, $y:ident, $v:ident, $fa:ident, $fb:ident;
        $($l:ident = $e:expr,)* => $faa:ident, $fab:ident, $fbb:ident) => {{
        $(let $l = $e;)*
        $apply!($x, $y, $v, [$fa, $fb], [$faa, $fab, $fbb])
    }};
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

/// How a reading applies an entry's derivatives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(not(feature = "cuda"), allow(dead_code))]
pub(crate) enum Policy {
    /// The plain chain rule.
    Smooth,
    /// The chain rule with strong zero.
    Singular,
    /// Tangents scaled by the piecewise-constant `d1`; no second-order term.
    Linear,
    /// Zero tangents.
    Flat,
    /// Tangents unchanged.
    Pass,
}

/// One line of an entry, as source text: the `where` bindings in order,
/// then the binding the order defines.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(not(feature = "cuda"), allow(dead_code))]
pub(crate) struct Line {
    /// `(name, expression)` pairs evaluated first.
    pub(crate) bindings: &'static [(&'static str, &'static str)],
    /// The name this line binds (`v`, `d1`, …).
    pub(crate) name: &'static str,
    /// Its expression.
    pub(crate) expr: &'static str,
}

/// An entry of the table as source text, for the kernel generator (which reads the
/// value and `f′`: the kernels are first-order) and the tests.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(not(feature = "cuda"), allow(dead_code))]
pub(crate) struct Entry {
    /// The `Real` method name.
    pub(crate) name: &'static str,
    pub(crate) policy: Policy,
    pub(crate) value: Line,
    pub(crate) d1: Line,
}

macro_rules! policy_of {
    (smooth) => {
        Policy::Smooth
    };
    (singular) => {
        Policy::Singular
    };
    (linear) => {
        Policy::Linear
    };
    (flat) => {
        Policy::Flat
    };
    (pass) => {
        Policy::Pass
    };
}

macro_rules! line {
    ($name:ident = $e:expr $(, where $($b:ident = $be:expr),+)?) => {
        Line {
            bindings: &[$($((stringify!($b), stringify!($be)),)+)?],
            name: stringify!($name),
            expr: stringify!($e),
        }
    };
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
                },
            )*
        ];
    };
}

unary_table!(entries);

/// The lines of every entry as functions, one per line, for jet rules that keep the
/// derivatives in buffers of their own (`pinn`'s batched streams):
/// `lines::tanh::d2(x, v, d1)` is the table's `d2` of `tanh`.
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
                        /// `f‴`, given the value, `f′` and `f″`.
                        #[inline(always)]
                        pub(crate) fn $f3<S: Real>($x: S, $v: S, $f1: S, $f2: S) -> S {
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

/// A two-argument entry as source text, for the kernel generator (value and first
/// partials).
#[derive(Clone, Copy, Debug)]
#[cfg_attr(not(feature = "cuda"), allow(dead_code))]
pub(crate) struct BinaryEntry {
    /// The `Real` method name.
    pub(crate) name: &'static str,
    pub(crate) value: Line,
    pub(crate) da: Line,
    pub(crate) db: Line,
}

macro_rules! binary_entries {
    (
        $(
            $name:ident($a:ident, $b:ident): domain(($alo:expr, $ahi:expr), ($blo:expr, $bhi:expr)) {
                $v:ident = $val:expr $(, where $($vl:ident = $ve:expr),+)?;
                $fa:ident = $da:expr $(, where $($al:ident = $ae:expr),+)?;
                $fb:ident = $db:expr $(, where $($bl:ident = $be:expr),+)?;
                $($rest:tt)*
            }
        )*
    ) => {
        /// Every two-argument entry, in table order.
        #[cfg_attr(not(feature = "cuda"), allow(dead_code))]
        pub(crate) const BINARY: &[BinaryEntry] = &[
            $(
                BinaryEntry {
                    name: stringify!($name),
                    value: line!($v = $val $(, where $($vl = $ve),+)?),
                    da: line!($fa = $da $(, where $($al = $ae),+)?),
                    db: line!($fb = $db $(, where $($bl = $be),+)?),
                },
            )*
        ];
    };
}

binary_table!(binary_entries);

#[cfg(test)]
mod tests {
    use super::{Policy, UNARY};
    use crate::Real;

    macro_rules! optional {
        () => {
            None
        };
        ($e:expr) => {
            Some($e)
        };
    }

    /// `(f, f′, f″, f‴)` of the entry `name` at `arg`, `f‴` where the table has one.
    macro_rules! eval {
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
            const DOMAINS: &[(&str, (f64, f64))] = &[$((stringify!($name), ($lo, $hi)),)*];

            fn eval<S: Real>(name: &str, arg: S) -> (S, S, S, Option<S>) {
                use core::f64::consts::{LN_2, LN_10, PI};
                match name {
                    $(
                        stringify!($name) => {
                            let $x = arg;
                            $($(let $vl = $ve;)+)?
                            let $v = $val;
                            $($(let $al = $ae;)+)?
                            let $f1 = $d1;
                            $($(let $bl = $be;)+)?
                            let $f2 = $d2;
                            let third = optional!($({
                                $($(let $cl = $ce;)+)?
                                let $f3 = $d3;
                                $f3
                            })?);
                            ($v, $f1, $f2, third)
                        }
                    )*
                    _ => panic!("no table entry `{name}`"),
                }
            }
        };
    }
    unary_table!(eval);

    /// `(v, [da, db], [daa, dab, dbb])` of the two-argument entry `name`, with its domain.
    macro_rules! eval2 {
        (
            $(
                $name:ident($a:ident, $b:ident): domain(($alo:expr, $ahi:expr), ($blo:expr, $bhi:expr)) {
                    $v:ident = $val:expr $(, where $($vl:ident = $ve:expr),+)?;
                    $fa:ident = $da:expr $(, where $($al:ident = $ae:expr),+)?;
                    $fb:ident = $db:expr $(, where $($bl:ident = $be:expr),+)?;
                    $faa:ident = $daa:expr $(, where $($cl:ident = $ce:expr),+)?;
                    $fab:ident = $dab:expr $(, where $($dl:ident = $de:expr),+)?;
                    $fbb:ident = $dbb:expr $(, where $($el:ident = $ee:expr),+)?;
                }
            )*
        ) => {
            const BINARY_NAMES: &[(&str, [(f64, f64); 2])] =
                &[$((stringify!($name), [($alo, $ahi), ($blo, $bhi)]),)*];

            #[allow(clippy::type_complexity)]
            fn eval2<S: Real>(name: &str, p: S, q: S) -> (S, [S; 2], [S; 3]) {
                match name {
                    $(
                        stringify!($name) => {
                            let ($a, $b) = (p, q);
                            $($(let $vl = $ve;)+)?
                            let $v = $val;
                            $($(let $al = $ae;)+)?
                            let $fa = $da;
                            $($(let $bl = $be;)+)?
                            let $fb = $db;
                            $($(let $cl = $ce;)+)?
                            let $faa = $daa;
                            $($(let $dl = $de;)+)?
                            let $fab = $dab;
                            $($(let $el = $ee;)+)?
                            let $fbb = $dbb;
                            ($v, [$fa, $fb], [$faa, $fab, $fbb])
                        }
                    )*
                    _ => panic!("no table entry `{name}`"),
                }
            }
        };
    }
    binary_table!(eval2);

    /// Each partial is the partial of the order below it, on a grid over the domain.
    #[test]
    fn every_partial_is_the_partial_of_the_order_below() {
        for &(name, [(alo, ahi), (blo, bhi)]) in BINARY_NAMES {
            for i in 0..=4 {
                for j in 0..=4 {
                    let a = alo + (ahi - alo) * (0.05 + 0.9 * f64::from(i) / 4.0);
                    let b = blo + (bhi - blo) * (0.05 + 0.9 * f64::from(j) / 4.0);
                    let (_, [da, db], [daa, dab, dbb]) = eval2(name, a, b);
                    let checks = [
                        (da, central(|t| eval2(name, t, b).0, a), "∂a"),
                        (db, central(|t| eval2(name, a, t).0, b), "∂b"),
                        (daa, central(|t| eval2(name, t, b).1[0], a), "∂aa"),
                        (dab, central(|t| eval2(name, t, b).1[1], a), "∂ab"),
                        (dab, central(|t| eval2(name, a, t).1[0], b), "∂ba"),
                        (dbb, central(|t| eval2(name, a, t).1[1], b), "∂bb"),
                    ];
                    for (got, want, which) in checks {
                        assert!(
                            close(got, want),
                            "{which} {name}({a}, {b}) = {got}, differences give {want}"
                        );
                    }
                }
            }
        }
    }

    /// Central difference of `g` at `x`, step scaled to `x`.
    fn central(g: impl Fn(f64) -> f64, x: f64) -> f64 {
        let h = 1e-5 * x.abs().max(1.0);
        (g(x + h) - g(x - h)) / (h + h)
    }

    fn close(got: f64, want: f64) -> bool {
        (got - want).abs() <= 1e-6 * want.abs().max(1.0)
    }

    /// Each derivative is the derivative of the order below it, across the domain, and
    /// the policies say what the formulas do.
    #[test]
    fn every_derivative_is_the_derivative_of_the_order_below() {
        for (e, &(name, (lo, hi))) in UNARY.iter().zip(DOMAINS) {
            assert_eq!(e.name, name);
            for j in 0..=8 {
                // Off-centre, so no sample lands on a kink at 0.
                let x = lo + (hi - lo) * (f64::from(j) + 0.37) / 9.0;
                let (v, d1, d2, d3) = eval(e.name, x);
                assert!(v.is_finite(), "{} at {x}", e.name);
                let fd1 = central(|t| eval(e.name, t).0, x);
                let fd2 = central(|t| eval(e.name, t).1, x);
                assert!(
                    close(d1, fd1),
                    "{}′({x}) = {d1}, differences give {fd1}",
                    e.name
                );
                assert!(
                    close(d2, fd2),
                    "{}″({x}) = {d2}, differences give {fd2}",
                    e.name
                );
                if let Some(d3) = d3 {
                    let fd3 = central(|t| eval(e.name, t).2, x);
                    assert!(
                        close(d3, fd3),
                        "{}‴({x}) = {d3}, differences give {fd3}",
                        e.name
                    );
                }
                match e.policy {
                    Policy::Flat => assert_eq!((d1, d2), (0.0, 0.0), "{}", e.name),
                    Policy::Pass => assert_eq!((d1, d2), (1.0, 0.0), "{}", e.name),
                    Policy::Linear => assert_eq!(d2, 0.0, "{}", e.name),
                    Policy::Smooth | Policy::Singular => {}
                }
            }
        }
    }

    /// The value line of every entry is the primal method itself, so the primal reading
    /// and every derivative reading agree on values bit for bit.
    #[test]
    fn values_are_the_primal_methods() {
        for e in UNARY {
            // The kernels name the operand `x` and the value `v`.
            assert_eq!(e.value.expr.replace(' ', ""), format!("S::{}(x)", e.name));
            assert_eq!(e.value.name, "v");
            assert!(e.value.bindings.is_empty(), "{}", e.name);
        }
        for e in super::BINARY {
            assert_eq!(e.value.expr.replace(' ', ""), format!("S::{}(a,b)", e.name));
            assert_eq!(e.value.name, "v");
        }
    }
}

/// A piecewise entry of [`select_table!`] as source text, for the kernel generator.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(not(feature = "cuda"), allow(dead_code))]
pub(crate) struct SelectEntry {
    /// The `Real` method name.
    pub(crate) name: &'static str,
    /// The operands' names, `self` first.
    pub(crate) args: &'static [&'static str],
    /// The value.
    pub(crate) value: &'static str,
    /// `(operand, condition)`: the first condition that holds picks its operand.
    pub(crate) picks: &'static [(&'static str, &'static str)],
}

macro_rules! select_entries {
    (
        $(
            $name:ident($($arg:ident),+) {
                v = $val:expr;
                $(pick $p:ident if $c:expr;)+
            }
        )*
    ) => {
        /// Every piecewise entry, in table order.
        #[cfg_attr(not(feature = "cuda"), allow(dead_code))]
        pub(crate) const SELECT: &[SelectEntry] = &[
            $(
                SelectEntry {
                    name: stringify!($name),
                    args: &[$(stringify!($arg)),+],
                    value: stringify!($val),
                    picks: &[$((stringify!($p), stringify!($c))),+],
                },
            )*
        ];
    };
}

select_table!(select_entries);

/// The powers, whose derivatives depend on an integer (`powi`) or on which operands
/// carry derivatives (`powf`): their derivatives are written here once, and each
/// reading applies them in its own case structure (which cases are constant, which
/// need strong zero). The CUDA kernels still transcribe the first-order forms
/// (`cuda/kernels/powi.cu`, `Binary::Powf`), checked bit for bit by the host test.
pub(crate) mod power {
    use crate::Real;

    /// `f′ = n xⁿ⁻¹` of `xⁿ`, for first-order readings.
    #[inline(always)]
    pub(crate) fn powi_d1<S: Real>(x: S, n: i32) -> S {
        S::cst(f64::from(n)) * x.powi(n - 1)
    }

    /// `(f′, f″) = (n p x, n (n − 1) p)` of `xⁿ` with `p = xⁿ⁻²`: one power for both
    /// orders.
    #[inline(always)]
    pub(crate) fn powi_d2<S: Real>(x: S, n: i32) -> (S, S) {
        let c = S::cst(f64::from(n));
        let p = x.powi(n.saturating_sub(2));
        (c * p * x, c * S::cst(f64::from(n) - 1.0) * p)
    }

    /// `∂/∂y xʸ = v ln x` at `v = xʸ`, 0 where `v` is (its limit at x = 0, y > 0).
    #[inline(always)]
    pub(crate) fn powf_dy<S: Real>(x: S, v: S) -> S {
        if v.is_exact_zero() {
            S::zero()
        } else {
            v * x.ln()
        }
    }

    /// `∂/∂x xʸ = y xʸ⁻¹` at `v = xʸ`: `y v / x` away from zero, not a second power; at
    /// x = 0 an exactly zero y gives 0 (x⁰ is the constant 1), not 0 · ∞.
    #[inline(always)]
    pub(crate) fn powf_dx<S: Real>(x: S, y: S, v: S) -> S {
        if y.is_exact_zero() {
            S::zero()
        } else if x.is_exact_zero() {
            y * x.powf(y - S::one())
        } else {
            y * v / x
        }
    }

    /// `(∂/∂y, ∂²/∂y²) = (v ln x, v ln² x)` at `v = xʸ`, 0 where `v` is.
    #[inline(always)]
    pub(crate) fn powf_dy2<S: Real>(x: S, v: S) -> (S, S) {
        if v.is_exact_zero() {
            (S::zero(), S::zero())
        } else {
            let l = x.ln();
            (v * l, v * l * l)
        }
    }

    /// `(∂/∂x, ∂²/∂x², xʸ⁻¹) = (y xʸ⁻¹, y (y − 1) xʸ⁻², xʸ⁻¹)`; at an exactly zero y
    /// all zero (x⁰ is the constant 1).
    #[inline(always)]
    pub(crate) fn powf_dx2<S: Real>(x: S, y: S) -> (S, S, S) {
        if y.is_exact_zero() {
            (S::zero(), S::zero(), S::zero())
        } else {
            let pm1 = x.powf(y - S::one());
            let pm2 = x.powf(y - S::cst(2.0));
            (y * pm1, y * (y - S::one()) * pm2, pm1)
        }
    }

    /// `∂²/∂x∂y xʸ = xʸ⁻¹ (1 + y ln x)` from `pm1 = xʸ⁻¹`, 0 where `pm1` is.
    #[inline(always)]
    pub(crate) fn powf_dxy<S: Real>(x: S, y: S, pm1: S) -> S {
        if pm1.is_exact_zero() {
            S::zero()
        } else {
            pm1 * (S::one() + y * x.ln())
        }
    }
}
