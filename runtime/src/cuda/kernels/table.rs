//! The op table: each rule's value and derivative in C, transcribed from the CPU rules
//! in `ndual/math.rs`, `ndual/ops.rs` and `ndual/mixed.rs` (same operation order, so
//! the arithmetic rounds the same way).
//!
//! `pre` is C run once per element: it reads the operand values (`x`; or `a`, `b`,
//! `c`) and defines the value `v` and whatever the lanes use. Lane expressions read the
//! operands' tangents `tx` / `ta`, `tb`, `tc`. `@f(` is the math function `f` of the
//! unit's precision.

use super::{Binary, Ternary, Unary};

/// One op: what is computed once per element, then how the lanes follow.
pub(super) struct Rule {
    pub(super) pre: &'static str,
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
    Terms(&'static [Term]),
    /// The lanes of the operand whose index the C expression (set in `pre`) gives.
    Select(&'static str),
    /// One expression per set of operands carrying tangents (`"ab"`, `"a"`, `"b"`),
    /// for rules whose constant-operand forms are separate CPU rules (`div`).
    Cases(&'static [(&'static str, &'static str)]),
}

/// One operand's contribution to a lane.
#[derive(Clone, Copy)]
pub(super) enum Term {
    /// A C expression in the operand's tangent.
    Plain(usize, &'static str),
    /// The tangent times a coefficient, with strong zero (`chain_sz`).
    Sz(usize, &'static str),
}

impl Term {
    /// The index of the operand this term belongs to.
    pub(super) fn operand(self) -> usize {
        match self {
            Self::Plain(j, _) | Self::Sz(j, _) => j,
        }
    }
}

const fn rule(pre: &'static str, lanes: Lanes) -> Rule {
    Rule {
        pre,
        lanes,
        zero_lanes_constant: false,
    }
}

/// `chain(v, d)`: each lane times `d`.
const fn chain(pre: &'static str) -> Rule {
    rule(pre, Lanes::Terms(&[Term::Plain(0, "tx * d")]))
}

/// `chain_sz(v, d)`: each lane times `d`, a zero lane staying zero.
const fn chain_sz(pre: &'static str) -> Rule {
    rule(pre, Lanes::Terms(&[Term::Sz(0, "d")]))
}

/// `chain2_sz(v, da, db)`.
const fn chain2_sz(pre: &'static str) -> Rule {
    rule(pre, Lanes::Terms(&[Term::Sz(0, "da"), Term::Sz(1, "db")]))
}

impl Unary {
    /// This op's rule.
    pub(super) fn rule(self) -> Rule {
        match self {
            Self::Neg => rule("T v = -x;", Lanes::Terms(&[Term::Plain(0, "-tx")])),
            Self::Sin => chain("T v = @sin(x); T d = @cos(x);"),
            Self::Cos => chain("T v = @cos(x); T d = -@sin(x);"),
            Self::Tan => chain("T v = @tan(x); T d = T(1) + v * v;"),
            Self::Asin => chain_sz("T v = @asin(x); T d = T(1) / @sqrt(T(1) - x * x);"),
            Self::Acos => chain_sz("T v = @acos(x); T d = -(T(1) / @sqrt(T(1) - x * x));"),
            Self::Atan => chain("T v = @atan(x); T d = T(1) / (T(1) + x * x);"),
            Self::Sinh => chain("T v = @sinh(x); T d = @cosh(x);"),
            Self::Cosh => chain("T v = @cosh(x); T d = @sinh(x);"),
            Self::Tanh => chain("T v = @tanh(x); T d = T(1) - v * v;"),
            Self::Asinh => chain("T v = @asinh(x); T d = T(1) / @sqrt(x * x + T(1));"),
            Self::Acosh => chain_sz("T v = @acosh(x); T d = T(1) / @sqrt(x * x - T(1));"),
            Self::Atanh => chain_sz("T v = @atanh(x); T d = T(1) / (T(1) - x * x);"),
            Self::Exp => chain("T v = @exp(x); T d = v;"),
            Self::Exp2 => chain("T v = @exp2(x); T d = v * LIFTED_LN_2;"),
            Self::ExpM1 => chain("T v = @expm1(x); T d = v + T(1);"),
            Self::Ln => chain_sz("T v = @log(x); T d = T(1) / x;"),
            Self::Log2 => chain_sz("T v = @log2(x); T d = T(1) / (x * LIFTED_LN_2);"),
            Self::Log10 => chain_sz("T v = @log10(x); T d = T(1) / (x * LIFTED_LN_10);"),
            Self::Ln1p => chain_sz("T v = @log1p(x); T d = T(1) / (T(1) + x);"),
            Self::Sqrt => chain_sz("T v = @sqrt(x); T d = T(1) / (v + v);"),
            Self::Cbrt => chain_sz("T v = @cbrt(x); T d = T(1) / (T(3) * v * v);"),
            // The derivative at ±0 follows the sign bit, as `signum` does.
            Self::Abs => chain("T v = @fabs(x); T d = lifted_signum(x);"),
            Self::Signum => rule("T v = lifted_signum(x);", Lanes::Flat),
            Self::Recip => chain_sz("T v = T(1) / x; T d = -(v * v);"),
            Self::ToDegrees => chain("T v = x * LIFTED_DEG_PER_RAD; T d = LIFTED_D_TO_DEGREES;"),
            Self::ToRadians => chain("T v = x * LIFTED_RAD_PER_DEG; T d = LIFTED_D_TO_RADIANS;"),
            Self::Floor => rule("T v = @floor(x);", Lanes::Flat),
            Self::Ceil => rule("T v = @ceil(x);", Lanes::Flat),
            Self::Round => rule("T v = @round(x);", Lanes::Flat),
            Self::Trunc => rule("T v = @trunc(x);", Lanes::Flat),
            // fract(x) = x - trunc(x): the tangent passes through.
            Self::Fract => rule(
                "T v = x - @trunc(x);",
                Lanes::Terms(&[Term::Plain(0, "tx")]),
            ),
        }
    }
}

impl Binary {
    /// This op's rule.
    pub(super) fn rule(self) -> Rule {
        use Term::Plain;
        match self {
            Self::Add => rule(
                "T v = a + b;",
                Lanes::Terms(&[Plain(0, "ta"), Plain(1, "tb")]),
            ),
            // ta + (-tb) is ta - tb bit for bit; -tb alone is `rsub`'s lane.
            Self::Sub => rule(
                "T v = a - b;",
                Lanes::Terms(&[Plain(0, "ta"), Plain(1, "-tb")]),
            ),
            Self::Mul => rule(
                "T v = a * b;",
                Lanes::Terms(&[Plain(0, "ta * b"), Plain(1, "a * tb")]),
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
                Lanes::Terms(&[Plain(0, "ta"), Plain(1, "-(n * tb)")]),
            ),
            // Divide by the radius twice: x² + y² underflows where the derivative is finite.
            Self::Atan2 => chain2_sz(
                "T r = @hypot(b, a); T v = @atan2(a, b); T da = b / r / r; T db = -a / r / r;",
            ),
            Self::Log => chain2_sz(
                "T lx = @log(a); T lb = @log(b); T v = lx / lb; T da = T(1) / (a * lb); \
                 T db = -lx / (b * lb * lb);",
            ),
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
            Self::Hypot => chain2_sz("T v = @hypot(a, b); T da = a / v; T db = b / v;"),
            Self::Copysign => rule(
                "T v = @copysign(a, b); \
                 T d = (signbit(a) != 0) != (signbit(b) != 0) ? T(-1) : T(1);",
                Lanes::Terms(&[Plain(0, "ta * d")]),
            ),
            // Tangents follow the operand `fmin` / `fmax` returns (the non-NaN one).
            Self::Min => rule(
                "T v = @fmin(a, b); const int pick = (b < a || isnan(a)) ? 1 : 0;",
                Lanes::Select("pick"),
            ),
            Self::Max => rule(
                "T v = @fmax(a, b); const int pick = (b > a || isnan(a)) ? 1 : 0;",
                Lanes::Select("pick"),
            ),
            Self::RemEuclid => rule(
                "T v = lifted_rem_euclid(a, b); T n = @round((a - v) / b);",
                Lanes::Terms(&[Plain(0, "ta"), Plain(1, "-(n * tb)")]),
            ),
            Self::DivEuclid => rule("T v = lifted_div_euclid(a, b);", Lanes::Flat),
        }
    }
}

impl Ternary {
    /// This op's rule.
    pub(super) fn rule(self) -> Rule {
        use Term::Plain;
        match self {
            Self::MulAdd => rule(
                "T v = @fma(a, b, c);",
                Lanes::Terms(&[Plain(0, "ta * b"), Plain(1, "a * tb"), Plain(2, "tc")]),
            ),
            Self::Clamp => rule(
                // The lanes follow the value even for bounds the host refuses (lo > hi:
                // the value is hi), since a kernel cannot panic.
                "T v = lifted_clamp(a, b, c); \
                 const int pick = a < b ? (b > c ? 2 : 1) : (a > c ? 2 : 0);",
                Lanes::Select("pick"),
            ),
        }
    }
}
