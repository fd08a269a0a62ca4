//! The piecewise functions that pass on the derivatives of one of their operands:
//! each entry's value and the conditions, on the primal values, that pick the operand.

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
