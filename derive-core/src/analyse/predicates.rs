//! Questions about the shape of an expression, a path or a pattern, and the tables of
//! names they consult. None of them depends on the scope (those that look a name up
//! live with [`Scope`](super::Scope)), so both the analysis and the lowering call them.

use syn::visit::Visit;
use syn::{Expr, Pat};

/// The float methods of `f64` the reading implements.
pub const FLOAT_METHODS: &[&str] = &[
    "sin",
    "cos",
    "tan",
    "asin",
    "acos",
    "atan",
    "sinh",
    "cosh",
    "tanh",
    "asinh",
    "acosh",
    "atanh",
    "exp",
    "exp2",
    "exp_m1",
    "ln",
    "log2",
    "log10",
    "ln_1p",
    "sqrt",
    "cbrt",
    "abs",
    "signum",
    "recip",
    "to_degrees",
    "to_radians",
    "floor",
    "ceil",
    "round",
    "trunc",
    "fract",
    "sin_cos",
    "atan2",
    "log",
    "powi",
    "powf",
    "hypot",
    "copysign",
    "min",
    "max",
    "clamp",
    "mul_add",
    "rem_euclid",
    "div_euclid",
];

/// Methods that return something other than a float even on a lifted receiver.
pub(super) const NON_FLOAT_METHODS: &[&str] = &[
    "len",
    "is_empty",
    "is_nan",
    "is_finite",
    "is_infinite",
    "is_sign_negative",
    "is_sign_positive",
    "partial_cmp",
    "total_cmp",
    "to_bits",
    "eq",
    "ne",
    "lt",
    "le",
    "gt",
    "ge",
    "count",
    "position",
];

/// Float constants reachable by path (`f64::EPSILON`, `std::f64::consts::PI`).
pub fn is_float_const_path(path: &syn::Path) -> bool {
    let segs: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    let n = segs.len();
    if n < 2 {
        return false;
    }
    let owner = segs[n - 2].as_str();
    let last = &segs[n - 1];
    let caps = last
        .chars()
        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
    caps && (owner == "f64" || owner == "f32" || owner == "consts")
}

/// A path naming a constant item by Rust's convention (`SCALE`, `consts::PI`, `PI`).
pub fn is_const_name(e: &Expr) -> bool {
    let Expr::Path(p) = strip_groups(e) else {
        return false;
    };
    p.qself.is_none()
        && p.path.segments.last().is_some_and(|s| {
            let name = s.ident.to_string();
            name.chars().next().is_some_and(|c| c.is_ascii_uppercase())
                && name
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        })
}

/// `e` without the parentheses and invisible groups around it.
pub(super) fn strip_groups(mut e: &Expr) -> &Expr {
    loop {
        match e {
            Expr::Paren(p) => e = &p.expr,
            Expr::Group(g) => e = &g.expr,
            _ => return e,
        }
    }
}

/// The float constants of `std::f64::consts` (and `f32`'s), by the names people import
/// them under (`use std::f64::consts::PI;`): a bare `PI` is a float even though the
/// macro sees no type for it.
pub(super) const STD_FLOAT_CONSTS: &[&str] = &[
    "PI",
    "TAU",
    "E",
    "SQRT_2",
    "LN_2",
    "LN_10",
    "LOG2_E",
    "LOG10_E",
    "LOG2_10",
    "LOG10_2",
    "FRAC_1_PI",
    "FRAC_2_PI",
    "FRAC_PI_2",
    "FRAC_PI_3",
    "FRAC_PI_4",
    "FRAC_PI_6",
    "FRAC_PI_8",
    "FRAC_1_SQRT_2",
    "FRAC_2_SQRT_PI",
];

/// Whether the items of the iterator `e` are views of an array: `windows`, `chunks` or
/// `chunks_exact` (and `rchunks`), through adapters that pass items on unchanged.
pub fn yields_views(e: &Expr) -> bool {
    let Expr::MethodCall(m) = strip_groups(e) else {
        return false;
    };
    match m.method.to_string().as_str() {
        "windows" | "chunks" | "chunks_exact" | "rchunks" => true,
        "rev" | "skip" | "take" | "step_by" | "filter" | "skip_while" | "take_while"
        | "peekable" | "inspect" | "enumerate" | "into_iter" => yields_views(&m.receiver),
        _ => false,
    }
}

/// The identifiers a pattern binds.
pub fn pat_idents(p: &Pat, out: &mut Vec<String>) {
    struct Collect<'o>(&'o mut Vec<String>);
    impl<'ast> Visit<'ast> for Collect<'_> {
        fn visit_pat_ident(&mut self, i: &'ast syn::PatIdent) {
            self.0.push(i.ident.to_string());
            syn::visit::visit_pat_ident(self, i);
        }
    }
    Collect(out).visit_pat(p);
}
