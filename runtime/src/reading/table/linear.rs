//! The two-argument functions that are linear near each point: the coefficients of
//! the operands' parts are constant there (a sign, an integer quotient), so every part
//! a reading carries (first order, second order, a Taylor coefficient) maps alike,
//! with no second-order term.
//!
//! ```text
//! name(a, b): linear {
//!     v = value [, where …];
//!     parts = a, negated if condition;        // ± ȧ
//! }
//! name(a, b): linear {
//!     v = value [, where …];
//!     parts = a - n * b [, where n = …];      // ȧ − n ḃ
//! }
//! name(a, b): flat {
//!     v = value [, where …];                  // no parts
//! }
//! ```
//!
//! The value, conditions and coefficients read the primal values under the operands'
//! names, and `v`. The coefficients are applied by plain products, as the `%`
//! operator's `ȧ − n ḃ` is: no strong zero.

use super::Line;

/// Invokes `$callback!` with every linear entry (see the module docs).
macro_rules! linear_table {
    ($callback:ident $(! $($prefix:tt)*)?) => {
        $callback! {
            $($($prefix)*)?
            // The sign bits decide, as `copysign` reads them (±0 and NaNs have one); the
            // sign operand's parts do not enter.
            copysign(a, b): linear {
                v = S::copysign(a, b);
                parts = a, negated if S::is_sign_negative(a) != S::is_sign_negative(b);
            }
            // r = a − n b with the integer n = (a − r) / b, constant near the point.
            rem_euclid(a, b): linear {
                v = S::rem_euclid(a, b);
                parts = a - n * b, where n = S::round((a - v) / b);
            }
            // Integer-valued.
            div_euclid(a, b): flat {
                v = S::div_euclid(a, b);
            }
        }
    };
}

/// The `%` operator, in the grammar of [`linear_table!`]: an operator of each reading,
/// not a method of `Real`, so it is a table of its own that readings expand in their
/// operator impls (`operator_table!(linear_rules! value ndual_linear)` inside an
/// inherent `impl`, giving `fn rem(self, other: Self) -> Self`); the kernel generator
/// reads it with the linear entries.
macro_rules! operator_table {
    ($callback:ident $(! $($prefix:tt)*)?) => {
        $callback! {
            $($($prefix)*)?
            // r = a − n b with the integer n = (a − r) / b (truncated), constant near
            // the point.
            rem(a, b): linear {
                v = S::rem(a, b);
                parts = a - n * b, where n = S::round((a - v) / b);
            }
        }
    };
}

/// Expands one reading's methods from [`linear_table!`], inside its `impl Real` block:
/// `linear_table!(linear_rules! value ndual_linear)`, where `value` is the field holding
/// the reading's primal part and `ndual_linear!` builds the result from the value and
/// one of the shapes:
///
/// * `negated x, v, flip`: the parts of the operand `x`, negated where `flip` holds;
/// * `minus x, y, v, n`: the parts of `x` minus `n` times those of `y`;
/// * `flat v`: no parts.
macro_rules! linear_rules {
    ($field:ident $apply:ident) => {};
    (
        $field:ident $apply:ident
        $name:ident($a:ident, $b:ident): linear {
            $v:ident = $val:expr $(, where $($vl:ident = $ve:expr),+)?;
            parts = $p:ident, negated if $c:expr;
        }
        $($rest:tt)*
    ) => {
        #[inline]
        fn $name(self, other: Self) -> Self {
            #[allow(unused_variables)]
            let ($a, $b) = (self, other);
            // The value and the condition read the primal parts, under the names of
            // the operands.
            let (value, flip) = {
                let ($a, $b) = ($a.$field, $b.$field);
                $($(let $vl = $ve;)+)?
                let $v = $val;
                ($v, $c)
            };
            $apply!(negated $p, value, flip)
        }
        linear_rules!($field $apply $($rest)*);
    };
    (
        $field:ident $apply:ident
        $name:ident($a:ident, $b:ident): linear {
            $v:ident = $val:expr $(, where $($vl:ident = $ve:expr),+)?;
            parts = $p:ident - $n:ident * $q:ident $(, where $($nl:ident = $ne:expr),+)?;
        }
        $($rest:tt)*
    ) => {
        #[inline]
        fn $name(self, other: Self) -> Self {
            let ($a, $b) = (self, other);
            let (value, $n) = {
                let ($a, $b) = ($a.$field, $b.$field);
                $($(let $vl = $ve;)+)?
                let $v = $val;
                $($(let $nl = $ne;)+)?
                ($v, $n)
            };
            $apply!(minus $p, $q, value, $n)
        }
        linear_rules!($field $apply $($rest)*);
    };
    (
        $field:ident $apply:ident
        $name:ident($a:ident, $b:ident): flat {
            $v:ident = $val:expr $(, where $($vl:ident = $ve:expr),+)?;
        }
        $($rest:tt)*
    ) => {
        #[inline]
        fn $name(self, other: Self) -> Self {
            let value = {
                let ($a, $b) = (self.$field, other.$field);
                $($(let $vl = $ve;)+)?
                $val
            };
            $apply!(flat value)
        }
        linear_rules!($field $apply $($rest)*);
    };
}

/// A linear entry as source text, for the kernel generator and the tests.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(not(feature = "cuda"), allow(dead_code))]
pub(crate) struct LinearEntry {
    /// The `Real` method name (`rem` for the `%` operator).
    pub(crate) name: &'static str,
    /// The operands' names, `self` first.
    pub(crate) args: &'static [&'static str; 2],
    pub(crate) value: Line,
    pub(crate) parts: Parts,
}

/// How a linear entry's parts follow from its operands' (the shapes of the module docs).
#[derive(Clone, Copy, Debug)]
#[cfg_attr(not(feature = "cuda"), allow(dead_code))]
pub(crate) enum Parts {
    /// The parts of `operand`, negated where `condition` holds.
    Negated {
        operand: &'static str,
        condition: &'static str,
    },
    /// The parts of `a` minus `n` times those of `b`, after the `(name, expression)`
    /// bindings (which define `n`).
    Minus {
        a: &'static str,
        n: &'static str,
        b: &'static str,
        bindings: &'static [(&'static str, &'static str)],
    },
    /// No parts.
    Flat,
}

macro_rules! linear_entries {
    (@done $($entry:expr,)* ;) => {
        /// Every linear entry, in table order.
        #[cfg_attr(not(feature = "cuda"), allow(dead_code))]
        pub(crate) const LINEAR: &[LinearEntry] = &[$($entry,)*];
    };
    (
        @done $($entry:expr,)*;
        $name:ident($a:ident, $b:ident): linear {
            $v:ident = $val:expr $(, where $($vl:ident = $ve:expr),+)?;
            parts = $p:ident, negated if $c:expr;
        }
        $($rest:tt)*
    ) => {
        linear_entries!(@done $($entry,)* LinearEntry {
            name: stringify!($name),
            args: &[stringify!($a), stringify!($b)],
            value: line!($v = $val $(, where $($vl = $ve),+)?),
            parts: Parts::Negated { operand: stringify!($p), condition: stringify!($c) },
        }, ; $($rest)*);
    };
    (
        @done $($entry:expr,)*;
        $name:ident($a:ident, $b:ident): linear {
            $v:ident = $val:expr $(, where $($vl:ident = $ve:expr),+)?;
            parts = $p:ident - $n:ident * $q:ident $(, where $($nl:ident = $ne:expr),+)?;
        }
        $($rest:tt)*
    ) => {
        linear_entries!(@done $($entry,)* LinearEntry {
            name: stringify!($name),
            args: &[stringify!($a), stringify!($b)],
            value: line!($v = $val $(, where $($vl = $ve),+)?),
            parts: Parts::Minus {
                a: stringify!($p),
                n: stringify!($n),
                b: stringify!($q),
                bindings: &[$($((stringify!($nl), stringify!($ne)),)+)?],
            },
        }, ; $($rest)*);
    };
    (
        @done $($entry:expr,)*;
        $name:ident($a:ident, $b:ident): flat {
            $v:ident = $val:expr $(, where $($vl:ident = $ve:expr),+)?;
        }
        $($rest:tt)*
    ) => {
        linear_entries!(@done $($entry,)* LinearEntry {
            name: stringify!($name),
            args: &[stringify!($a), stringify!($b)],
            value: line!($v = $val $(, where $($vl = $ve),+)?),
            parts: Parts::Flat,
        }, ; $($rest)*);
    };
    ($($entries:tt)*) => {
        linear_entries!(@done ; $($entries)*);
    };
}

operator_table!(linear_table! linear_entries !);
