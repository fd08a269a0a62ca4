//! The float method surface of `Pattern`, from the derivative table's entries: a
//! function keeps its operands' sets, except the integer-valued ones (`flat`), which
//! have none.

use super::{Pattern, ordering_code};
use crate::Real;
use crate::sparse::trace;

/// A unary table entry at `Pattern`: the operand's set, or none for a flat entry.
macro_rules! pattern_rule {
    (flat, $x:ident, $v:ident, $d1:ident) => {{
        let _ = $d1;
        Self::constant($v)
    }};
    ($policy:ident, $x:ident, $v:ident, $d1:ident) => {{
        let _ = $d1;
        $x.with_value($v)
    }};
}

/// A binary table entry at `Pattern`: the union of the operands' sets.
macro_rules! pattern_rule2 {
    ($x:ident, $y:ident, $v:ident, $da:ident, $db:ident) => {{
        let _ = ($da, $db);
        $x.joined($y, $v)
    }};
}

/// A piecewise entry at `Pattern`: the union of *every* operand's set, whichever one
/// the value picks, so the pattern holds at points where another one is picked.
macro_rules! pattern_select {
    ($x:ident $(, $y:ident)*; $v:ident) => {{
        let mut set = $x.set;
        $(set = trace::union(set, $y.set);)*
        Pattern { value: $v, set }
    }};
}

/// A linear entry at `Pattern`: the set of the operand whose parts pass (and of the
/// one subtracted), or none.
macro_rules! pattern_linear {
    (negated $x:ident, $v:ident, $flip:ident) => {{
        let _ = $flip;
        $x.with_value($v)
    }};
    (minus $x:ident, $y:ident, $v:ident, $n:ident) => {{
        let _ = $n;
        $x.joined($y, $v)
    }};
    (flat $v:ident) => {
        Self::constant($v)
    };
}

/// The piecewise entries, written from the table's names and operands: the value by
/// the field's own method, the set by [`pattern_select!`].
macro_rules! pattern_selects {
    (
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
                let v = S::$name($x.value $(, $y.value)*);
                pattern_select!($x $(, $y)*; v)
            }
        )*
    };
}

/// Value queries are decisions on the value.
macro_rules! recorded_query {
    ($($name:ident)*) => {
        $(
            #[inline(always)]
            #[track_caller]
            fn $name(self) -> bool {
                let outcome = self.value.$name();
                self.decide(u64::from(outcome));
                outcome
            }
        )*
    };
}

impl<S: Real> Real for Pattern<S> {
    type Field = S::Field;
    // A pattern is the structure of first derivatives: rules that know only their
    // first derivative run at it.
    const ORDER: usize = 1;

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

    unary_table!(unary_rules! order1 pattern_rule);
    binary_table!(binary_rules! order1 pattern_rule2);

    #[inline]
    fn sin_cos(self) -> (Self, Self) {
        let (s, c) = self.value.sin_cos();
        (self.with_value(s), self.with_value(c))
    }
    #[inline]
    fn powi(self, n: i32) -> Self {
        let v = self.value.powi(n);
        if n == 0 {
            Self::constant(v)
        } else {
            self.with_value(v)
        }
    }
    #[inline]
    fn powf(self, n: Self) -> Self {
        self.joined(n, self.value.powf(n.value))
    }
    #[inline]
    fn mul_add(self, a: Self, b: Self) -> Self {
        Self {
            value: self.value.mul_add(a.value, b.value),
            set: trace::union3(self.set, a.set, b.set),
        }
    }

    select_table!(pattern_selects);
    linear_table!(linear_rules! value pattern_linear);

    recorded_query!(is_nan is_finite is_infinite is_sign_negative is_sign_positive);

    #[inline]
    #[track_caller]
    fn total_cmp(&self, other: &Self) -> core::cmp::Ordering {
        let outcome = self.value.total_cmp(&other.value);
        trace::decide(self.set, other.set, ordering_code(Some(outcome)));
        outcome
    }
}
