//! The powers, whose derivatives depend on an integer (`powi`) or on which operands
//! carry derivatives (`powf`): their derivatives are written here once, and each
//! reading applies them in its own case structure (which cases are constant, which
//! need strong zero).
//!
//! The first-order lines are expressions valid in Rust and in CUDA C++ (as the other
//! tables' are), each a function here and, through [`LINES`], a device function
//! `lifted_<name>` of the kernels:
//!
//! ```text
//! name(arg: type, …) = value;
//! name(arg: type, …) = if condition => value, … else value;
//! ```
//!
//! The first condition that holds gives the value. The second-order forms return
//! several derivatives at once and are Rust only: the kernels are first-order.

use crate::Real;

/// A first-order power line as source text, for the kernel generator.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(not(feature = "cuda"), allow(dead_code))]
pub(crate) struct PowerLine {
    /// The function's name.
    pub(crate) name: &'static str,
    /// `(name, type)`: `S` a value of the reading, `i32` an exponent.
    pub(crate) params: &'static [(&'static str, &'static str)],
    /// `(condition, value)` in order.
    pub(crate) cases: &'static [(&'static str, &'static str)],
    /// The value where no condition holds.
    pub(crate) otherwise: &'static str,
}

macro_rules! power_lines {
    (@fns) => {};
    (
        @fns
        $(#[$doc:meta])*
        $name:ident($($arg:ident: $t:ident),+) =
            $(if $c:expr => $e:expr,)+ else $last:expr;
        $($rest:tt)*
    ) => {
        $(#[$doc])*
        #[inline(always)]
        pub(crate) fn $name<S: Real>($($arg: $t),+) -> S {
            $(
                if $c {
                    return $e;
                }
            )+
            $last
        }
        power_lines!(@fns $($rest)*);
    };
    (
        @fns
        $(#[$doc:meta])*
        $name:ident($($arg:ident: $t:ident),+) = $last:expr;
        $($rest:tt)*
    ) => {
        $(#[$doc])*
        #[inline(always)]
        pub(crate) fn $name<S: Real>($($arg: $t),+) -> S {
            $last
        }
        power_lines!(@fns $($rest)*);
    };
    (
        @text [$($line:expr,)*]
        $(#[$doc:meta])*
        $name:ident($($arg:ident: $t:ident),+) =
            $(if $c:expr => $e:expr,)+ else $last:expr;
        $($rest:tt)*
    ) => {
        power_lines!(@text [$($line,)* PowerLine {
            name: stringify!($name),
            params: &[$((stringify!($arg), stringify!($t))),+],
            cases: &[$((stringify!($c), stringify!($e))),+],
            otherwise: stringify!($last),
        },] $($rest)*);
    };
    (
        @text [$($line:expr,)*]
        $(#[$doc:meta])*
        $name:ident($($arg:ident: $t:ident),+) = $last:expr;
        $($rest:tt)*
    ) => {
        power_lines!(@text [$($line,)* PowerLine {
            name: stringify!($name),
            params: &[$((stringify!($arg), stringify!($t))),+],
            cases: &[],
            otherwise: stringify!($last),
        },] $($rest)*);
    };
    (@text [$($line:expr,)*]) => {
        /// Every first-order power line, in order.
        #[cfg_attr(not(feature = "cuda"), allow(dead_code))]
        pub(crate) const LINES: &[PowerLine] = &[$($line,)*];
    };
    ($($lines:tt)*) => {
        power_lines!(@fns $($lines)*);
        power_lines!(@text [] $($lines)*);
    };
}

power_lines! {
    /// `f′ = n xⁿ⁻¹` of `xⁿ`, for first-order readings.
    powi_d1(x: S, n: i32) = S::cst(f64::from(n)) * S::powi(x, n - 1);

    /// `∂/∂y xʸ = v ln x` at `v = xʸ`, 0 where `v` is (its limit at x = 0, y > 0).
    powf_dy(x: S, v: S) =
        if S::is_exact_zero(&v) => S::zero(),
        else v * S::ln(x);

    /// `∂/∂x xʸ = y xʸ⁻¹` at `v = xʸ`: `y v / x` away from zero, not a second power; at
    /// x = 0 an exactly zero y gives 0 (x⁰ is the constant 1), not 0 · ∞.
    powf_dx(x: S, y: S, v: S) =
        if S::is_exact_zero(&y) => S::zero(),
        if S::is_exact_zero(&x) => y * S::powf(x, y - S::one()),
        else y * v / x;
}

/// `(f′, f″) = (n p x, n (n − 1) p)` of `xⁿ` with `p = xⁿ⁻²`: one power for both
/// orders.
#[inline(always)]
pub(crate) fn powi_d2<S: Real>(x: S, n: i32) -> (S, S) {
    let c = S::cst(f64::from(n));
    let p = x.powi(n.saturating_sub(2));
    (c * p * x, c * S::cst(f64::from(n) - 1.0) * p)
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
