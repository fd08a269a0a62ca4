//! The op table: each rule's value and derivative in C. Every float function comes
//! from the derivative table (`reading::table`), the expressions the CPU readings run:
//! its one-argument, two-argument, piecewise and linear entries, and the power lines
//! (as device functions, [`power_functions`]); the operators are transcribed from
//! the CPU rules in `ndual/ops.rs` (same operation order, so the arithmetic rounds the
//! same way), and `mul_add` is the product's lanes plus the addend's, as on the CPU.
//!
//! `pre` is C run once per element: it reads the operand values (`x`; or `a`, `b`,
//! `c`) and defines the value `v` and whatever the lanes use. Lane expressions read the
//! operands' tangents `tx` / `ta`, `tb`, `tc`. `@f(` is the math function `f` of the
//! unit's precision.

use std::borrow::Cow;

use super::{Binary, Ternary, Unary};
use crate::reading::table::{self, Line, Parts, Policy};

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
    /// The tangent times a coefficient, NaN-safe (`times_safe`: plain where the
    /// coefficient is finite, strong zero where it is not).
    Safe(usize, Cow<'static, str>),
}

impl Term {
    /// The index of the operand this term belongs to.
    pub(super) fn operand(&self) -> usize {
        match self {
            Self::Plain(j, _) | Self::Sz(j, _) | Self::Safe(j, _) => *j,
        }
    }
}

use Term::{Plain, Safe, Sz};

fn rule(pre: impl Into<Cow<'static, str>>, lanes: Lanes) -> Rule {
    Rule {
        pre: pre.into(),
        lanes,
        zero_lanes_constant: false,
    }
}

/// `chain2_sz(v, da, db)`.
fn chain2_sz(pre: impl Into<Cow<'static, str>>) -> Rule {
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

/// C declarations naming the kernel's operands `a`, `b`, `c` as a table entry names
/// them, where it names them otherwise.
fn operand_names(args: &[&str]) -> String {
    let mut out = String::new();
    for (arg, operand) in args.iter().zip(OPERANDS) {
        if *arg != operand {
            out += &format!("const T {arg} = {operand}; ");
        }
    }
    out
}

/// The kernels' names of a binary or ternary op's operands, in order.
const OPERANDS: [&str; 3] = ["a", "b", "c"];

/// The kernel rule of the piecewise table entry `name`: the value, and `pick`, the index
/// of the operand whose lanes pass on (the first condition that holds, else 0).
fn from_select_table(name: &str) -> Rule {
    let Some(e) = table::SELECT.iter().find(|e| e.name == name) else {
        unreachable!("`{name}` is not a piecewise table entry")
    };
    let mut pre = operand_names(e.args);
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

/// The kernel rule of the linear table entry `name`: its value, then the lanes as
/// `NDual` maps them: the tangents times the sign `d`, `ȧ − n ḃ`, or zero.
fn from_linear_table(name: &str) -> Rule {
    let Some(e) = table::LINEAR.iter().find(|e| e.name == name) else {
        unreachable!("`{name}` is not a linear table entry")
    };
    let index = |arg: &str| {
        let Some(i) = e.args.iter().position(|a| *a == arg) else {
            unreachable!("`{name}` reads the parts of `{arg}`, which is not an operand")
        };
        i
    };
    let tangent = |arg: &str| format!("t{}", OPERANDS[index(arg)]);
    let mut pre = operand_names(e.args) + &declare(&e.value);
    let lanes = match e.parts {
        Parts::Negated { operand, condition } => {
            pre += &format!(" T d = ({}) ? T(-1) : T(1);", tidy(condition));
            let lane = format!("{} * d", tangent(operand));
            Lanes::Terms(vec![Plain(index(operand), lane.into())])
        }
        Parts::Minus { a, n, b, bindings } => {
            for (name, expr) in bindings {
                pre += &format!(" T {name} = {};", tidy(expr));
            }
            Lanes::Terms(vec![
                Plain(index(a), tangent(a).into()),
                Plain(index(b), format!("-({n} * {})", tangent(b)).into()),
            ])
        }
        Parts::Flat => Lanes::Flat,
    };
    rule(pre, lanes)
}

/// The derivative table's power lines as device functions `lifted_<name>`, for the
/// rules of `powi` (`powi.cu`) and `powf`.
pub(super) fn power_functions() -> String {
    let mut out = String::new();
    for line in table::power::LINES {
        let params: Vec<String> = line
            .params
            .iter()
            .map(|(name, ty)| format!("{} {name}", c_type(ty)))
            .collect();
        out += &format!(
            "__device__ __forceinline__ T lifted_{}({}) {{\n",
            line.name,
            params.join(", ")
        );
        for (condition, value) in line.cases {
            out += &format!("    if ({}) return {};\n", tidy(condition), tidy(value));
        }
        out += &format!("    return {};\n}}\n", tidy(line.otherwise));
    }
    out
}

/// The C type of a power line's parameter.
fn c_type(rust: &str) -> &'static str {
    match rust {
        "S" => "T",
        // An exponent in 64 bits: `n - 1` cannot overflow (in C++ that is undefined),
        // and `S::powi` takes it back to `int` modulo 2³², as Rust's optimised build
        // wraps the i32.
        "i32" => "long long",
        _ => unreachable!("a power line takes a `{rust}`"),
    }
}

/// The device function of the power line `name`, checked to be one.
fn power_function(name: &str) -> String {
    if !table::power::LINES.iter().any(|l| l.name == name) {
        unreachable!("`{name}` is not a power line")
    }
    format!("lifted_{name}")
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

/// The device function `lifted_<name>_jet(x, d1, d2)` of the derivative table's entry
/// `name`: returns the value and writes `f′` and `f″`, for kernels that apply a jet rule
/// themselves (the PINN pass).
pub(super) fn jet_function(name: &str) -> String {
    let Some(e) = table::UNARY.iter().find(|e| e.name == name) else {
        unreachable!("`{name}` is not a table entry")
    };
    format!(
        "__device__ __forceinline__ T lifted_{name}_jet(T x, T& d1_out, T& d2_out) {{\n    \
         {} {} {}\n    d1_out = {}; d2_out = {};\n    return {};\n}}\n",
        declare(&e.value),
        declare(&e.d1),
        declare(&e.d2),
        e.d1.name,
        e.d2.name,
        e.value.name
    )
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
        Policy::Smooth | Policy::Linear => Lanes::Terms(vec![Safe(0, d1.into())]),
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
            Self::Mul => rule("T v = a * b;", Lanes::Terms(product_terms())),
            // Both dual: (ȧ - q ḃ) / b with one reciprocal; `x / c` divides each lane;
            // `c / x` is `rdiv`'s chain_sz(q, -(q / x)). NaN-safe as the CPU's.
            Self::Div => rule(
                "T v = a / b; T inv = T(1) / b;",
                Lanes::Cases(&[
                    ("ab", "lifted_safe(ta - lifted_safe(tb, v), inv)"),
                    ("a", "lifted_safe_div(ta, b)"),
                    ("b", "lifted_sz(tb, -(v * inv))"),
                ]),
            ),
            Self::Atan2 | Self::Log => from_binary_table(self.name()),
            Self::Powf => Rule {
                zero_lanes_constant: true,
                ..chain2_sz(format!(
                    "T v = S::powf(a, b); T da = {}(a, b, v); T db = {}(a, v);",
                    power_function("powf_dx"),
                    power_function("powf_dy"),
                ))
            },
            Self::Hypot => from_binary_table(self.name()),
            // Tangents follow the operand `fmin` / `fmax` returns (the non-NaN one).
            Self::Min | Self::Max => from_select_table(self.name()),
            Self::Rem | Self::Copysign | Self::RemEuclid | Self::DivEuclid => {
                from_linear_table(self.name())
            }
        }
    }
}

/// The product rule's lanes, `b ȧ + a ḃ`, NaN-safe as the CPU's `mul`.
fn product_terms() -> Vec<Term> {
    vec![Safe(0, "b".into()), Safe(1, "a".into())]
}

impl Ternary {
    /// This op's rule.
    pub(super) fn rule(self) -> Rule {
        match self {
            // The product's lanes plus c's, the value fused (the CPU's `mul_add`).
            Self::MulAdd => rule("T v = @fma(a, b, c);", {
                let mut terms = product_terms();
                terms.push(Plain(2, "tc".into()));
                Lanes::Terms(terms)
            }),
            Self::Clamp => from_select_table(self.name()),
        }
    }
}
