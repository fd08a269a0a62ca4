//! The element-wise and reduction kernels, as CUDA C generated from one op table.
//!
//! Every rule here is the CPU [`NDual`](crate::NDual) rule of the same name, transcribed
//! formula for formula: the value computed once per element, then each lane; the same
//! branch at ties (`min`, `max`, `clamp`, the derivative of `abs` at ±0); the same
//! strong zero (an exactly zero lane stays exactly zero where the derivative is
//! infinite or NaN). [`source`] returns one translation unit per [`Precision`], which
//! [`nvrtc`](super::nvrtc) compiles (with `--fmad=false`, so no product is fused where
//! the CPU rounds it) and caches.
//!
//! # Layout and conventions
//!
//! Tangents are **lane-major**: lane `k` of element `i` at `k * len + i`. Every kernel
//! is `extern "C" __global__`, named [`kernel_name`]`(op, precision)` =
//! `lifted_<op>_<f32|f64>`, with `T` = `float` / `double`, `long long` lengths and
//! a grid-stride loop over the elements, so any grid size is correct
//! ([`LaunchShape`](super::launch::LaunchShape) gives a good one).
//!
//! - A **null tangent pointer** for an input is a constant operand: its terms are
//!   skipped, not multiplied by zero (no `0 · ∞ = NaN`), as the CPU's mixed arithmetic
//!   with plain constants does. A null `yd` computes values only. When no input has
//!   tangents the output lanes are written as zeros.
//! - **Broadcasting**: operand `a` of a binary or ternary kernel has `a_len` elements,
//!   `len` (same shape), `1` (a scalar) or a divisor of `len` (a row repeated over a
//!   row-major matrix); output element `i` reads `av[i % a_len]` and lane `k` of it at
//!   `ad[k * a_len + i % a_len]`.
//! - An output may alias an input of the same length (in place); not a broadcast one.
//!
//! # Signatures
//!
//! ```c
//! // Unary (every Unary op): y = f(x).
//! void lifted_sin_f64(const T* xv, const T* xd, T* yv, T* yd, long long len, int lanes);
//! // UnaryInt: y = x.powi(p).
//! void lifted_powi_f64(const T* xv, const T* xd, T* yv, T* yd, long long len, int lanes,
//!                      int p);
//! // Binary: y = a.op(b) (or a op b).
//! void lifted_atan2_f64(const T* av, const T* ad, long long a_len,
//!                       const T* bv, const T* bd, long long b_len,
//!                       T* yv, T* yd, long long len, int lanes);
//! // Ternary: y = a.mul_add(b, c), a.clamp(b, c).
//! void lifted_mul_add_f64(const T* av, const T* ad, long long a_len,
//!                         const T* bv, const T* bd, long long b_len,
//!                         const T* cv, const T* cd, long long c_len,
//!                         T* yv, T* yd, long long len, int lanes);
//! // Reductions, pass 1: each block writes its 1 + lanes partial sums (stream 0 the
//! // value, stream 1 + k lane k) to partial[blockIdx.x * (1 + lanes) + s].
//! void lifted_sum_f64(const T* xv, const T* xd, T* partial, long long len, int lanes);
//! // Σ a b, lanes Σ ȧ_k b + a ḃ_k (null ad / bd: a constant).
//! void lifted_dot_f64(const T* av, const T* ad, const T* bv, const T* bd, T* partial,
//!                     long long len, int lanes);
//! // Pass 2, one block: out[s] = Σ over blocks of partial[b * (1 + lanes) + s].
//! void lifted_reduce_finish_f64(const T* partial, int blocks, T* out, int lanes);
//! ```
//!
//! Reductions take blocks of at most [`BLOCK`] threads (their shared buffer; more
//! traps) and are deterministic for a given launch shape
//! ([`LaunchShape::for_reduction`](super::launch::LaunchShape::for_reduction)).
//!
//! # Exactness
//!
//! `tests/tests/cuda_kernels_host.rs` builds each unit for the host, where the C
//! library is the CPU rules' own, and compares every kernel with the CPU rule on each
//! op's special points in every operand configuration. They agree bit for bit except:
//!
//! - the sign of a zero: `fmin` / `fmax` at a ±0 tie, and lanes where the kernel skips
//!   a constant's term that the CPU adds as `±0` after lifting the constant to a dual
//!   (`atan2`, `log`, `hypot`, `copysign`, `rem_euclid`, a `sum` of constants);
//! - a number where the CPU multiplies a lifted constant's zero lane by an infinity
//!   and gets NaN (`mul_add`, `rem_euclid` with a constant operand);
//! - a few ulps where Rust's primal is not the C library's (`asinh`, `acosh`, `atanh`,
//!   `cbrt`).
//!
//! On a GPU the transcendentals are CUDA's (a few ulps from the host's libm); the
//! arithmetic, `sqrt`, `powi`, `fma`, rounding and the selections stay bitwise
//! (`--fmad=false`). `clamp` with `lo > hi` or NaN bounds does not panic: it applies
//! its two comparisons in order.

mod table;

use table::{Lanes, Rule, Term};

/// Threads per block of every launch shape; the reductions' shared buffer size.
pub const BLOCK: u32 = 256;

/// The float type of a translation unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Precision {
    /// `float` kernels for `f32` arrays.
    F32,
    /// `double` kernels for `f64` arrays.
    F64,
}

impl Precision {
    /// Both precisions.
    pub const ALL: &'static [Self] = &[Self::F32, Self::F64];

    /// The precision of the scalar field `S`.
    pub fn of<S: crate::Scalar>() -> Self {
        if S::BITS == 32 { Self::F32 } else { Self::F64 }
    }

    /// The C type: `"float"` or `"double"`.
    pub fn c_type(self) -> &'static str {
        match self {
            Self::F32 => "float",
            Self::F64 => "double",
        }
    }

    /// The kernel-name suffix: `"f32"` or `"f64"`.
    pub fn suffix(self) -> &'static str {
        match self {
            Self::F32 => "f32",
            Self::F64 => "f64",
        }
    }
}

pub use crate::reading::ops::{Binary, Ternary, Unary, UnaryInt};

/// The reduction kernels, in [`kernel_names`] order.
pub const REDUCTIONS: &[&str] = &["sum", "dot", "reduce_finish"];

/// The kernel of op `op_name` at precision `p`: `lifted_<op_name>_<f32|f64>`.
pub fn kernel_name(op_name: &str, p: Precision) -> String {
    format!("lifted_{op_name}_{}", p.suffix())
}

/// Every kernel in [`source`]`(p)`: the unary, `powi`, binary, ternary and reduction
/// kernels, in that order.
pub fn kernel_names(p: Precision) -> Vec<String> {
    let ops = Unary::ALL.iter().map(|o| o.name());
    let ops = ops.chain(UnaryInt::ALL.iter().map(|o| o.name()));
    let ops = ops.chain(Binary::ALL.iter().map(|o| o.name()));
    let ops = ops.chain(Ternary::ALL.iter().map(|o| o.name()));
    ops.chain(REDUCTIONS.iter().copied())
        .map(|name| kernel_name(name, p))
        .collect()
}

/// The CUDA C translation unit with every kernel of precision `p`
/// ([`kernel_names`]`(p)`), ready for NVRTC.
pub fn source(p: Precision) -> String {
    let mut out = format!(
        "// Generated by lifted::cuda::kernels for {}.\n{}",
        p.suffix(),
        header(p)
    );
    out += &fragment(&table::power_functions(), p);
    for &op in Unary::ALL {
        out += &elementwise(&kernel_name(op.name(), p), &["x"], false, &op.rule(), p);
    }
    out += &fragment(include_str!("powi.cu"), p);
    for &op in Binary::ALL {
        out += &elementwise(&kernel_name(op.name(), p), &["a", "b"], true, &op.rule(), p);
    }
    for &op in Ternary::ALL {
        let operands = ["a", "b", "c"];
        out += &elementwise(&kernel_name(op.name(), p), &operands, true, &op.rule(), p);
    }
    out + &fragment(include_str!("reduce.cu"), p)
}

/// What every translation unit of precision `p` starts with: `T`, the block size, the
/// constants, the prelude and the derivative table's reading surface `S`.
fn header(p: Precision) -> String {
    let mut out = format!("typedef {} T;\n#define LIFTED_BLOCK {BLOCK}\n", p.c_type());
    for (name, value) in constants(p) {
        out += &format!("#define {name} T({value})\n");
    }
    // The derivative table's constants in f64, which its `S::cst` rounds as the CPU's
    // does; `{:?}` prints the shortest string that parses back to the same float.
    for (name, value) in crate::reading::table::CONSTANTS {
        out += &format!("static const double {name} = {value:?};\n");
    }
    out += &fragment(include_str!("prelude.cu"), p);
    out + &fragment(include_str!("functions.cu"), p)
}

/// The start of a translation unit of precision `p` for kernels written elsewhere
/// (the PINN pass): [`header`], then `lifted_<name>_jet(x, d1, d2)` — the value, `f′`
/// and `f″` of each of the derivative table's entries `names` — so those kernels apply
/// the table's derivatives instead of restating them.
pub(crate) fn jet_unit(p: Precision, names: &[&str]) -> String {
    let mut out = header(p);
    for name in names {
        out += &fragment(&table::jet_function(name), p);
    }
    out
}

/// The primal's own factors of `to_degrees` / `to_radians` at precision `p`.
fn constants(p: Precision) -> Vec<(&'static str, String)> {
    // The primal `to_degrees` / `to_radians` multiply by a factor of their own (an
    // `f32` literal for `f32`, not the rounded `f64` one): read it back from them.
    let (deg, rad) = match p {
        Precision::F32 => (
            format!("{:?}f", 1.0f32.to_degrees()),
            format!("{:?}f", 1.0f32.to_radians()),
        ),
        Precision::F64 => (
            format!("{:?}", 1.0f64.to_degrees()),
            format!("{:?}", 1.0f64.to_radians()),
        ),
    };
    vec![("LIFTED_DEG_PER_RAD", deg), ("LIFTED_RAD_PER_DEG", rad)]
}

/// Instantiates a `.cu` fragment: `@SFX` is the kernel suffix, `@name(` the math
/// function `name` of precision `p` (`sinf` for `f32`).
fn fragment(text: &str, p: Precision) -> String {
    let text = text.replace("@SFX", p.suffix());
    let mut out = String::with_capacity(text.len() + 64);
    let mut rest = text.as_str();
    while let Some(at) = rest.find('@') {
        out += &rest[..at];
        rest = &rest[at + 1..];
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        out += &rest[..end];
        if p == Precision::F32 {
            out.push('f');
        }
        rest = &rest[end..];
    }
    out + rest
}

/// One element-wise kernel over `operands` (values named by them, tangents `t<name>`).
fn elementwise(
    name: &str,
    operands: &[&str],
    broadcast: bool,
    rule: &Rule,
    p: Precision,
) -> String {
    let mut params = String::new();
    for x in operands {
        params += &format!("const T* {x}v, const T* {x}d, ");
        if broadcast {
            params += &format!("long long {x}_len, ");
        }
    }
    let mut body = String::new();
    for x in operands {
        let n = if broadcast {
            format!("{x}_len")
        } else {
            "len".into()
        };
        body += &format!(
            "        const long long {x}i = lifted_at(i, {n}, len);\n        const T {x} = {x}v[{x}i];\n"
        );
    }
    body += &format!("        {}\n        yv[i] = v;\n", rule.pre);
    body += "        if (yd == nullptr) continue;\n";
    body += &lanes(operands, broadcast, rule);
    fragment(
        &format!(
            "\nextern \"C\" __global__ void {name}({params}T* yv, T* yd, long long len, int lanes) {{\n    LIFTED_FOR(i) {{\n{body}    }}\n}}\n"
        ),
        p,
    )
}

/// The lane loops of an element-wise kernel: one branch per subset of operands that
/// carry tangents, each with its own expression, so absent terms are never evaluated.
fn lanes(operands: &[&str], broadcast: bool, rule: &Rule) -> String {
    let len_of = |x: &str| {
        if broadcast {
            format!("{x}_len")
        } else {
            "len".into()
        }
    };
    let load = |x: &str| format!("const T t{x} = {x}d[(long long)k * {} + {x}i]; ", len_of(x));
    let store = |expr: &str| format!("            for (int k = 0; k < lanes; ++k) {{ {expr} }}\n");
    let mut out = String::new();
    if let Lanes::Select(pick) = &rule.lanes {
        // The chosen operand's lanes, or zeros where it is a constant.
        let mut src = String::from("nullptr");
        let mut at = String::from("0");
        let mut n = String::from("1");
        for (j, x) in operands.iter().enumerate().rev() {
            src = format!("{pick} == {j} ? {x}d : ({src})");
            at = format!("{pick} == {j} ? {x}i : ({at})");
            n = format!("{pick} == {j} ? {} : ({n})", len_of(x));
        }
        out += &format!(
            "        const T* sd = {src};\n        const long long si = {at}, sn = {n};\n"
        );
        out += "        {\n";
        out += &store(
            "yd[(long long)k * len + i] = sd == nullptr ? T(0) : sd[(long long)k * sn + si];",
        );
        return out + "        }\n";
    }
    for x in operands {
        out += &format!("        bool h{x} = {x}d != nullptr;\n");
        if rule.zero_lanes_constant {
            // The CPU rule branches on an operand whose lanes are all exactly zero.
            out += &format!(
                "        if (h{x} && lifted_lanes_zero({x}d, {}, {x}i, lanes)) h{x} = false;\n",
                len_of(x)
            );
        }
    }
    let subsets = 1usize << operands.len();
    for mask in (0..subsets).rev() {
        let present: Vec<usize> = (0..operands.len()).filter(|j| mask >> j & 1 == 1).collect();
        let cond: Vec<String> = operands
            .iter()
            .enumerate()
            .map(|(j, x)| format!("{}h{x}", if present.contains(&j) { "" } else { "!" }))
            .collect();
        let loads: String = present.iter().map(|&j| load(operands[j])).collect();
        let expr = lane_expr(&rule.lanes, operands, &present);
        out += &format!(
            "        {}if ({}) {{\n",
            if mask + 1 == subsets { "" } else { "else " },
            cond.join(" && ")
        );
        out += &store(&format!("{loads}yd[(long long)k * len + i] = {expr};"));
        out += "        }\n";
    }
    out
}

/// The lane value when the operands at `present` carry tangents.
fn lane_expr(lanes: &Lanes, operands: &[&str], present: &[usize]) -> String {
    match lanes {
        Lanes::Flat | Lanes::Select(_) => "T(0)".into(),
        Lanes::Cases(cases) => {
            let key = present
                .iter()
                .map(|&j| operands[j])
                .collect::<Vec<_>>()
                .join("");
            cases
                .iter()
                .find(|(k, _)| *k == key)
                .map_or_else(|| "T(0)".into(), |(_, e)| (*e).into())
        }
        Lanes::Terms(terms) => {
            let parts: Vec<String> = terms
                .iter()
                .filter(|t| present.contains(&t.operand()))
                .map(|t| match t {
                    Term::Plain(_, e) => format!("({e})"),
                    Term::Sz(j, c) => format!("lifted_sz(t{}, {c})", operands[*j]),
                    Term::Safe(j, c) => format!("lifted_safe(t{}, {c})", operands[*j]),
                })
                .collect();
            if parts.is_empty() {
                "T(0)".into()
            } else {
                parts.join(" + ")
            }
        }
    }
}
