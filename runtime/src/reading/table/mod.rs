//! The derivative table: every float function of the reading surface whose
//! derivatives a reading needs, written once — its value, its derivatives or
//! partials, and how a reading applies them.
//!
//! Each table is data for a callback macro. The expressions are valid both as Rust,
//! generic over a reading `S` (`S::sqrt(x)` is `<S as Real>::sqrt`), and as CUDA C++,
//! where the kernel prelude defines `S` as a struct of static functions of the unit's
//! precision; so the readings ([`NDual`](crate::NDual), [`DiagJet`](crate::DiagJet),
//! [`HyperDual`](crate::HyperDual), [`Taylor`](crate::Taylor) where it needs no
//! series, and through them `ZDual` and the CUDA reading) and the generated kernels
//! read the same formulas and cannot drift apart.
//!
//! * [`unary`]: the one-argument functions, up to the third derivative, with their
//!   domains and singular-point policies; [`lines`] offers each entry's lines as
//!   functions, for jet rules that keep derivatives in buffers of their own.
//! * [`binary`]: the smooth two-argument functions (`atan2`, `log`, `hypot`), up to the
//!   second partials.
//! * [`select`]: the piecewise functions that pass on one operand's derivatives (`min`,
//!   `max`, `clamp`), with the conditions that pick the operand.
//! * [`linear`]: the two-argument functions whose parts are the operands' parts
//!   through coefficients constant near each point (`copysign`, `rem_euclid`,
//!   `div_euclid`).
//! * [`power`]: the powers, whose cases depend on an integer or on which operands
//!   carry derivatives.
//!
//! Not in these tables: the operators (each reading's own algebra: product, quotient,
//! and `mul_add`, which is a product and a sum rounded once), and Taylor's series,
//! which for every entry but the linear, flat and pass ones runs recurrences of its
//! own, since a table of three derivatives cannot give a tower of order K.

/// The named constants the table's expressions use, in `f64` (a reading rounds them
/// with `S::cst`); the kernel generator defines the same names.
#[cfg_attr(not(feature = "cuda"), allow(dead_code))]
pub(crate) const CONSTANTS: &[(&str, f64)] = &[
    ("LN_2", core::f64::consts::LN_2),
    ("LN_10", core::f64::consts::LN_10),
    ("PI", core::f64::consts::PI),
];

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

#[macro_use]
mod unary;
#[macro_use]
mod binary;
#[macro_use]
mod select;
#[macro_use]
mod linear;
pub(crate) mod power;
#[cfg(test)]
mod tests;

// The entries as source text are read by the kernel generator and the tests.
#[cfg_attr(not(feature = "cuda"), allow(unused_imports))]
pub(crate) use self::{
    binary::BINARY, linear::LINEAR, linear::Parts, select::SELECT, unary::UNARY,
};
pub(crate) use unary::lines;
