//! The traits that make [`Var`] a reading: arithmetic, comparisons, `Real`, `Reading`,
//! the conversions and the slice-backed arrays.

use super::*;

/// Does not touch any scope: a handle prints its primal where it is readable and
/// says why not where it is not.
impl fmt::Display for Var {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let quiet = match *self {
            Var::Const(c) => Ok(c),
            v => with_scopes(|scopes| resolve(v, scopes)).and_then(|r| r),
        };
        match quiet {
            Ok(v) => fmt::Display::fmt(&v, f),
            Err(e) => write!(f, "<{e}>"),
        }
    }
}

/// A constant zero: no arena needed.
impl Default for Var {
    fn default() -> Self {
        Var::Const(0.0)
    }
}

/// Compares primals, as every reading does.
impl PartialEq for Var {
    fn eq(&self, other: &Self) -> bool {
        self.primal() == other.primal()
    }
}

/// Compares primals, as every reading does.
impl PartialOrd for Var {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        self.primal().partial_cmp(&other.primal())
    }
}

/// Compares the primal with a constant.
impl PartialEq<f64> for Var {
    fn eq(&self, other: &f64) -> bool {
        self.primal() == *other
    }
}

/// Compares the primal with a constant.
impl PartialOrd<f64> for Var {
    fn partial_cmp(&self, other: &f64) -> Option<std::cmp::Ordering> {
        self.primal().partial_cmp(other)
    }
}

/// Each operator with a handle or a constant on either side, and its compound
/// assignment; constants keep their side in the recorded node.
macro_rules! operators {
    ($($Op:ident $op:ident $OpAssign:ident $op_assign:ident;)*) => {$(
        impl $Op for Var {
            type Output = Var;
            fn $op(self, rhs: Var) -> Var {
                self.binary(Binary::$op, rhs)
            }
        }
        impl $Op<f64> for Var {
            type Output = Var;
            fn $op(self, rhs: f64) -> Var {
                self.binary(Binary::$op, Var::Const(rhs))
            }
        }
        impl $Op<Var> for f64 {
            type Output = Var;
            fn $op(self, rhs: Var) -> Var {
                Var::Const(self).binary(Binary::$op, rhs)
            }
        }
        impl $OpAssign for Var {
            fn $op_assign(&mut self, rhs: Var) {
                *self = self.binary(Binary::$op, rhs);
            }
        }
        impl $OpAssign<f64> for Var {
            fn $op_assign(&mut self, rhs: f64) {
                *self = self.binary(Binary::$op, Var::Const(rhs));
            }
        }
    )*};
}

operators! {
    Add add AddAssign add_assign;
    Sub sub SubAssign sub_assign;
    Mul mul MulAssign mul_assign;
    Div div DivAssign div_assign;
    Rem rem RemAssign rem_assign;
}

impl Neg for Var {
    type Output = Var;
    fn neg(self) -> Var {
        self.unary(Unary::neg)
    }
}

/// Starts from `-0.0`, as `f64`'s `Sum` does.
impl Sum for Var {
    fn sum<I: Iterator<Item = Var>>(iter: I) -> Var {
        iter.fold(Var::Const(-0.0), |a, b| a + b)
    }
}

/// Starts from `-0.0`, as `f64`'s `Sum` does.
impl<'a> Sum<&'a Var> for Var {
    fn sum<I: Iterator<Item = &'a Var>>(iter: I) -> Var {
        iter.fold(Var::Const(-0.0), |a, b| a + *b)
    }
}

impl Product for Var {
    fn product<I: Iterator<Item = Var>>(iter: I) -> Var {
        iter.fold(Var::Const(1.0), |a, b| a * b)
    }
}

impl<'a> Product<&'a Var> for Var {
    fn product<I: Iterator<Item = &'a Var>>(iter: I) -> Var {
        iter.fold(Var::Const(1.0), |a, b| a * *b)
    }
}

/// Zero is a constant; only a constant is zero (a node stands for a value that
/// depends on the inputs, whatever its primal).
impl num_traits::Zero for Var {
    fn zero() -> Self {
        Var::Const(0.0)
    }
    fn is_zero(&self) -> bool {
        matches!(self, Var::Const(c) if *c == 0.0)
    }
}

impl num_traits::One for Var {
    fn one() -> Self {
        Var::Const(1.0)
    }
}

macro_rules! unary_methods {
    ($($name:ident)*) => {$(
        fn $name(self) -> Self {
            self.unary(Unary::$name)
        }
    )*};
}

macro_rules! binary_methods {
    ($($name:ident)*) => {$(
        fn $name(self, other: Self) -> Self {
            self.binary(Binary::$name, other)
        }
    )*};
}

macro_rules! predicates {
    ($($name:ident)*) => {$(
        fn $name(self) -> bool {
            f64::$name(self.primal())
        }
    )*};
}

impl Real for Var {
    type Field = f64;
    // Recording needs the value only; `compose` is then given at least that.
    const ORDER: usize = 0;

    fn cst(c: f64) -> Self {
        Var::Const(c)
    }
    fn primal_f64(self) -> f64 {
        self.primal()
    }
    fn is_exact_zero(&self) -> bool {
        num_traits::Zero::is_zero(self)
    }

    with_unary!(unary_methods);
    with_binary!(binary_methods);

    /// Two nodes, as `f64::sin_cos` is `(sin, cos)`.
    fn sin_cos(self) -> (Self, Self) {
        (self.unary(Unary::sin), self.unary(Unary::cos))
    }
    fn powi(self, n: i32) -> Self {
        record(Op::Powi(n), &[self], |v| v[0].powi(n))
    }
    fn mul_add(self, a: Self, b: Self) -> Self {
        record(Op::MulAdd, &[self, a, b], |v| v[0].mul_add(v[1], v[2]))
    }
    /// Panics as `f64::clamp` does on bounds out of order, but never on a poisoned
    /// bound: an unusable argument poisons the result before `clamp` runs.
    fn clamp(self, lo: Self, hi: Self) -> Self {
        record(Op::Clamp, &[self, lo, hi], |v| v[0].clamp(v[1], v[2]))
    }

    predicates!(is_nan is_finite is_infinite is_sign_negative is_sign_positive);
}

/// The sum of plain constants, as a constant.
impl core::iter::Sum<f64> for Var {
    fn sum<I: Iterator<Item = f64>>(iter: I) -> Self {
        Var::Const(iter.sum())
    }
}

impl Reading<f64> for Var {
    fn constant(c: f64) -> Self {
        Var::Const(c)
    }
    fn primal_scalar(self) -> f64 {
        self.primal()
    }
    fn radd(self, c: f64) -> Self {
        Var::Const(c).binary(Binary::add, self)
    }
    fn rsub(self, c: f64) -> Self {
        Var::Const(c).binary(Binary::sub, self)
    }
    fn rmul(self, c: f64) -> Self {
        Var::Const(c).binary(Binary::mul, self)
    }
    fn rdiv(self, c: f64) -> Self {
        Var::Const(c).binary(Binary::div, self)
    }
    fn rrem(self, c: f64) -> Self {
        Var::Const(c).binary(Binary::rem, self)
    }
    /// A node holding the primitive's value; its function is not known to the
    /// reading, so a replay refuses it.
    fn compose(self, derivs: &[f64]) -> Self {
        let value = derivs.first().copied().unwrap_or(f64::NAN);
        record(Op::Compose, &[self], |_| value)
    }
}

impl IntoReading<f64, Var> for Var {
    fn into_reading(self) -> Var {
        self
    }
}

impl ToPrimal for Var {
    type Primal = f64;
    fn to_primal(self) -> f64 {
        self.primal()
    }
}

/// The arrays of the reading are `Vec`s and slices of handles: one line gives it every
/// array trait (no flat view, no offload, so the primitives run element-wise).
impl lifted::array::SliceReading for Var {}
