//! The op table: each rule's value and derivative in C. The one-argument functions come
//! from the derivative table (`reading::table`), the expressions the CPU readings run,
//! as do `atan2`, `log`, `hypot`, `min`, `max` and `clamp`; the operators and the
//! other two- and three-argument functions are transcribed from the
//! CPU rules in `ndual/math.rs`, `ndual/ops.rs` and `ndual/mixed.rs` (same operation
//! order, so the arithmetic rounds the same way).
//!
//! `pre` is C run once per element: it reads the operand values (`x`; or `a`, `b`,
//! `c`) and defines the value `v` and whatever the lanes use. Lane expressions read the
//! operands' tangents `tx` / `ta`, `tb`, `tc`. `@f(` is the math function `f` of the
//! unit's precision.

use std::borrow::Cow;

use super::{Binary, Ternary, Unary};
use crate::reading::table::{self, Line, Policy};

/// One op: what is computed once per element, then how the lanes follow.
pub(super) struct Rule {
    pub(super) pre: Cow<'static, str>,
    pub(super) lanes: Lanes,
    /// Treat an operand whose lanes are all exactly zero as a constant: the CPU rule
    /// (`powf`) takes a separate branch for it.
    pub(super) zero_lanes_constant: bool,
}

/// How an op's tangent lanes follow from its operands'.
pub(super) enum Lanes {
    /// Zero lanes (integer-valued functions).
    Flat,
    /// The sum, in order, of the terms of the operands that carry tangents; an
    /// operand without tangents contributes no term (the CPU's mixed arithmetic).
    Terms(Vec<Term>),
    /// The lanes of the operand whose index the C expression (set in `pre`) gives.
    Select(&'static str),
    /// One expression per set of operands carrying tangents (`"ab"`, `"a"`, `"b"`),
    /// for rules whose constant-operand forms are separate CPU rules (`div`).
    Cases(&'static [(&'static str, &'static str)]),
}

/// One operand's contribution to a lane.
#[derive(Clone)]
pub(super) enum Term {
    /// A C expression in the operand's tangent.
    Plain(usize, Cow<'static, str>),
    /// The tangent times a coefficient, with strong zero (`chain_sz`).
    Sz(usize, Cow<'static, str>),
}

impl Term {
    /// The index of the operand this term belongs to.
    pub(super) fn operand(&self) -> usize {
        match self {
            Self::Plain(j, _) | Self::Sz(j, _) => *j,
        }
    }
}

use Term::{Plain, Sz};

fn rule(pre: impl Into<Cow<'static, str>>, lanes: Lanes) -> Rule {
    Rule {
        pre: pre.into(),
        lanes,
        zero_lanes_constant: false,
    }
}

/// `chain2_sz(v, da, db)`.
fn chain2_sz(pre: &'static str) -> Rule {
    rule(
        pre,
        Lanes::Terms(vec![Sz(0, "da".into()), Sz(1, "db".into())]),
    )
}

/// The kernel rule of the derivative table's two-argument entry `name`: its value and
/// first partials, each term with strong zero as `NDual::chain2_sz` applies them.
fn from_binary_table(name: &str) -> Rule {
    let Some(e) = table::BINARY.iter().find(|e| e.name == name) else {
        unreachable!("`{name}` is not a two-argument table entry")
    };
    let pre = format!(
        "{} {} {}",
        declare(&e.value),
        declare(&e.da),
        declare(&e.db)
    );
    rule(
        pre,
        Lanes::Terms(vec![Sz(0, e.da.name.into()), Sz(1, e.db.name.into())]),
    )
}

/// The kernel rule of the piecewise table entry `name`: the value, and `pick`, the index
/// of the operand whose lanes pass on (the first condition that holds, else 0).
fn from_select_table(name: &str) -> Rule {
    let Some(e) = table::SELECT.iter().find(|e| e.name == name) else {
        unreachable!("`{name}` is not a piecewise table entry")
    };
    let mut pre = String::new();
    // The kernels name their operands `a`, `b`, `c`; the table may name them otherwise.
    for (arg, operand) in e.args.iter().zip(["a", "b", "c"]) {
        if *arg != operand {
            pre += &format!("const T {arg} = {operand}; ");
        }
    }
    pre += &format!("T v = {}; ", tidy(e.value));
    let mut pick = "0".to_string();
    for (operand, condition) in e.picks.iter().rev() {
        let Some(i) = e.args.iter().position(|a| a == operand) else {
            unreachable!("`{name}` picks `{operand}`, which is not an operand")
        };
        pick = format!("({}) ? {i} : ({pick})", tidy(condition));
    }
    rule(
        pre + &format!("const int pick = {pick};"),
        Lanes::Select("pick"),
    )
}

/// `stringify!` may space out paths (`S :: sqrt`); C++ reads both, people one.
fn tidy(expr: &str) -> String {
    expr.replace(" :: ", "::")
}

/// C statements binding a table line: its `where` bindings, then the line itself.
fn declare(line: &Line) -> String {
    let mut out = String::new();
    for (name, expr) in line.bindings {
        out += &format!("T {name} = {}; ", tidy(expr));
    }
    out + &format!("T {} = {};", line.name, tidy(line.expr))
}

/// The kernel rule of the derivative table's entry `name`: its value and `f′`, the
/// lanes applied by its policy as `NDual` applies it.
fn from_table(name: &str) -> Rule {
    let Some(e) = table::UNARY.iter().find(|e| e.name == name) else {
        unreachable!("every one-argument op but `neg` is a table entry; `{name}` is not")
    };
    let pre = format!("{} {}", declare(&e.value), declare(&e.d1));
    let d1 = e.d1.name;
    let lanes = match e.policy {
        Policy::Smooth | Policy::Linear => {
            Lanes::Terms(vec![Plain(0, format!("tx * {d1}").into())])
        }
        Policy::Singular => Lanes::Terms(vec![Sz(0, d1.into())]),
        Policy::Flat => Lanes::Flat,
        Policy::Pass => Lanes::Terms(vec![Plain(0, "tx".into())]),
    };
    rule(pre, lanes)
}

impl Unary {
    /// This op's rule.
    pub(super) fn rule(self) -> Rule {
        match self {
            Self::Neg => rule("T v = -x;", Lanes::Terms(vec![Plain(0, "-tx".into())])),
            _ => from_table(self.name()),
        }
    }
}

impl Binary {
    /// This op's rule.
    pub(super) fn rule(self) -> Rule {
        match self {
            Self::Add => rule(
                "T v = a + b;",
                Lanes::Terms(vec![Plain(0, "ta".into()), Plain(1, "tb".into())]),
            ),
            // ta + (-tb) is ta - tb bit for bit; -tb alone is `rsub`'s lane.
            Self::Sub => rule(
                "T v = a - b;",
                Lanes::Terms(vec![Plain(0, "ta".into()), Plain(1, "-tb".into())]),
            ),
            Self::Mul => rule(
                "T v = a * b;",
                Lanes::Terms(vec![Plain(0, "ta * b".into()), Plain(1, "a * tb".into())]),
            ),
            // Both dual: (ȧ - q ḃ) / b with one reciprocal; `x / c` divides each lane;
            // `c / x` is `rdiv`'s chain_sz(q, -(q / x)).
            Self::Div => rule(
                "T v = a / b; T inv = T(1) / b;",
                Lanes::Cases(&[
                    ("ab", "(ta - v * tb) * inv"),
                    ("a", "ta / b"),
                    ("b", "lifted_sz(tb, -(v * inv))"),
                ]),
            ),
            // a % b = a - n b with the integer n: ṙ = ȧ - n ḃ.
            Self::Rem => rule(
                "T v = @fmod(a, b); T n = @round((a - v) / b);",
                Lanes::Terms(vec![Plain(0, "ta".into()), Plain(1, "-(n * tb)".into())]),
            ),
            Self::Atan2 | Self::Log => from_binary_table(self.name()),
            // d/da = b a^(b-1) (v / a away from 0; exactly 0 for b = 0); d/db = v ln a,
            // 0 where v is 0.
            Self::Powf => Rule {
                zero_lanes_constant: true,
                ..chain2_sz(
                    "T v = @pow(a, b); \
                     T da = b == T(0) ? T(0) : (a == T(0) ? b * @pow(a, b - T(1)) : b * v / a); \
                     T db = v == T(0) ? T(0) : v * @log(a);",
                )
            },
            Self::Hypot => from_binary_table(self.name()),
            Self::Copysign => rule(
                "T v = @copysign(a, b); \
                 T d = (signbit(a) != 0) != (signbit(b) != 0) ? T(-1) : T(1);",
                Lanes::Terms(vec![Plain(0, "ta * d".into())]),
            ),
            // Tangents follow the operand `fmin` / `fmax` returns (the non-NaN one).
            Self::Min | Self::Max => from_select_table(self.name()),
            Self::RemEuclid => rule(
                "T v = lifted_rem_euclid(a, b); T n = @round((a - v) / b);",
                Lanes::Terms(vec![Plain(0, "ta".into()), Plain(1, "-(n * tb)".into())]),
            ),
            Self::DivEuclid => rule("T v = lifted_div_euclid(a, b);", Lanes::Flat),
        }
    }
}

impl Ternary {
    /// This op's rule.
    pub(super) fn rule(self) -> Rule {
        match self {
            Self::MulAdd => rule(
                "T v = @fma(a, b, c);",
                Lanes::Terms(vec![
                    Plain(0, "ta * b".into()),
                    Plain(1, "a * tb".into()),
                    Plain(2, "tc".into()),
                ]),
            ),
            Self::Clamp => from_select_table(self.name()),
        }
    }
}
