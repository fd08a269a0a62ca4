//! Activity analysis over a function body: which names hold values that may depend on
//! the inputs (active: lifted), which are float values computed from constants only
//! (inactive: kept as plain floats, so constants cost no tangent arithmetic), and which
//! names are float arrays (whose indexing and iteration go through the array traits).
//!
//! Names are tracked per identifier, not per binding: a name that is active anywhere is
//! treated as active everywhere. That is conservative (an inactive binding may be lifted
//! needlessly), never wrong.

use std::collections::{HashMap, HashSet};

use syn::visit::Visit;
use syn::{Expr, Ident, Pat};

use crate::syntax::{VecMacro, chain_has, is_empty_vec, loop_breaks, place_root};
use crate::types::{Float, is_float, is_float_vec};

/// What an array name refers to inside the rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArrayKind {
    /// A shared view (`&[f64]` parameter, `windows` item, sub-slice).
    Ref,
    /// A mutable view (`&mut [f64]` parameter).
    Mut,
    /// An owned array (`Vec<f64>` parameter or local).
    Owned,
}

/// Classification of an expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// May depend on the inputs: a value of the reading.
    Active,
    /// A plain float computed from constants only.
    Inactive,
    /// Anything else (integers, booleans, unknown).
    Other,
}

/// The names of one function body and what they hold.
#[derive(Debug, Default)]
pub struct Scope {
    /// Field of the function.
    pub float: Option<Float>,
    /// Names holding values of the reading.
    pub active: HashSet<String>,
    /// Names holding plain floats computed from constants.
    pub inactive: HashSet<String>,
    /// Names holding float arrays.
    pub arrays: HashMap<String, ArrayKind>,
    /// Every name bound in the body or the parameters (never a rule call target).
    pub locals: HashSet<String>,
    /// Reference parameters to values (`&f64`, `&mut [f64; 3]`): their `*` stays.
    pub refs: HashSet<String>,
    /// The `&mut` ones among them: passed on to a rule reborrowed (`&mut *y`), as
    /// rustc reborrows them where a reference is expected.
    pub mut_refs: HashSet<String>,
    /// `#[constant]` parameters holding float arrays: their elements are plain floats.
    pub const_arrays: HashSet<String>,
    /// `ndarray` arrays (parameters, annotated locals, `.dot` results): their `.dot`
    /// dispatches to the `linalg` rules.
    pub ndarrays: HashSet<String>,
    /// Arrays of float arrays (`m: &[Vec<f64>]`): `m[i]` is an array of the reading.
    pub nested: HashSet<String>,
    /// Locals bound without a type to a `const` or `static` item (`let a = A;`), whose
    /// type the macro cannot see: see [`Scope::is_const_like`].
    pub const_like: HashSet<String>,
}

impl Scope {
    /// A `const` or `static` item by name (`A`, `Self::C`) or a local bound to one
    /// (`let a = A;`). Its type is out of sight, but next to a lifted operand of an
    /// arithmetic operator it can only be a float (nothing else type-checks in the
    /// primal), and as an argument of a rule call it is zero-lifted by type.
    /// An element of one (`W[i]`, `TABLE[i][j]`) is one too, and so is arithmetic of
    /// them and literals (`H * C / K`, `-A`).
    pub fn is_const_like(&self, e: &Expr) -> bool {
        use syn::BinOp::{Add, Div, Mul, Rem, Sub};
        match strip_groups(e) {
            Expr::Index(ix) => self.is_const_like(&ix.expr),
            Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => self.is_const_like(&u.expr),
            Expr::Lit(l) => matches!(l.lit, syn::Lit::Float(_)),
            Expr::Binary(b) if matches!(b.op, Add(_) | Sub(_) | Mul(_) | Div(_) | Rem(_)) => {
                self.is_const_like(&b.left) && self.is_const_like(&b.right)
            }
            Expr::Path(p) => {
                is_const_name(e)
                    || p.path
                        .get_ident()
                        .is_some_and(|id| self.const_like.contains(&id.to_string()))
            }
            _ => false,
        }
    }
}

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
const NON_FLOAT_METHODS: &[&str] = &[
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
fn strip_groups(mut e: &Expr) -> &Expr {
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
const STD_FLOAT_CONSTS: &[&str] = &[
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

/// `m`, `&m`, `&mut m`, `m.iter()` or `m.iter_mut()` for an array of float arrays `m`:
/// its name, and whether the rows are borrowed mutably.
pub fn nested_rows<'e>(scope: &Scope, e: &'e Expr) -> Option<(&'e Ident, bool)> {
    let (base, mutable) = match strip_groups(e) {
        Expr::Reference(r) => (&*r.expr, r.mutability.is_some()),
        Expr::MethodCall(m) if m.args.is_empty() && m.method == "iter" => (&*m.receiver, false),
        Expr::MethodCall(m) if m.args.is_empty() && m.method == "iter_mut" => (&*m.receiver, true),
        other => (other, false),
    };
    let Expr::Path(p) = strip_groups(base) else {
        return None;
    };
    let id = p.path.get_ident()?;
    scope
        .nested
        .contains(&id.to_string())
        .then_some((id, mutable))
}

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

/// Whether a path call `g(…)` goes to a rule (an annotated function or primitive):
/// not a local closure, not a constructor, not a type's associated function, not std.
pub fn is_rule_call(scope: &Scope, path: &syn::Path) -> bool {
    let segs: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    let Some(last) = segs.last() else {
        return false;
    };
    let upper = |s: &str| s.chars().next().is_some_and(|c| c.is_ascii_uppercase());
    if upper(last) {
        return false;
    }
    if segs.len() == 1 {
        return !scope.locals.contains(last) && !matches!(last.as_str(), "drop" | "identity");
    }
    let first = segs[0].as_str();
    // The runtime's array primitives are rules like any other (`lifted::linalg::dot`).
    if first == "lifted" && segs.len() > 2 && segs[1] == "linalg" {
        return !segs[2..segs.len() - 1].iter().any(|s| upper(s));
    }
    if matches!(
        first,
        "std"
            | "core"
            | "alloc"
            | "lifted"
            | "f64"
            | "f32"
            | "i8"
            | "i16"
            | "i32"
            | "i64"
            | "i128"
            | "isize"
            | "u8"
            | "u16"
            | "u32"
            | "u64"
            | "u128"
            | "usize"
            | "bool"
            | "char"
            | "str"
    ) {
        return false;
    }
    !segs[..segs.len() - 1].iter().any(|s| upper(s))
}

/// Answers of [`Scope::classify_with`] and [`Scope::mentions_with`], by the address of
/// the expression asked about. The class of a node depends on those of its
/// subexpressions, and the lowering asks at every level of a nesting: without the
/// answers kept, that costs the square of the depth.
///
/// An answer holds while the expression at that address, the whole subtree, and the
/// scope's sets are unchanged since it was found. Whoever changes any of them calls
/// [`Memo::forget`], which drops every answer at once.
#[derive(Debug, Default)]
pub struct Memo {
    generation: u64,
    classes: HashMap<usize, (u64, Class)>,
    mentions: HashMap<usize, (u64, bool)>,
}

impl Memo {
    /// Drops every answer.
    pub fn forget(&mut self) {
        self.generation += 1;
    }

    fn key(e: &Expr) -> usize {
        std::ptr::from_ref(e) as usize
    }

    fn class(&self, e: &Expr) -> Option<Class> {
        match self.classes.get(&Self::key(e)) {
            Some(&(g, c)) if g == self.generation => Some(c),
            _ => None,
        }
    }

    fn mention(&self, e: &Expr) -> Option<bool> {
        match self.mentions.get(&Self::key(e)) {
            Some(&(g, m)) if g == self.generation => Some(m),
            _ => None,
        }
    }
}

impl Scope {
    /// Whether `name` is a reference parameter (`&f64`, `&mut [f64; 3]`, …), whose
    /// explicit `*` must stay.
    pub fn locals_ref(&self, name: &str) -> bool {
        self.refs.contains(name)
    }

    /// Classifies an expression given the current sets.
    pub fn classify(&self, e: &Expr) -> Class {
        self.classify_with(e, &mut Memo::default())
    }

    /// [`Self::classify`], keeping the answers for `e` and its subexpressions in `memo`
    /// (see there for how long they hold).
    pub fn classify_with(&self, e: &Expr, memo: &mut Memo) -> Class {
        if let Some(c) = memo.class(e) {
            return c;
        }
        let c = self.classify_in(e, memo);
        memo.classes.insert(Memo::key(e), (memo.generation, c));
        c
    }

    fn classify_in(&self, e: &Expr, memo: &mut Memo) -> Class {
        match e {
            Expr::Lit(l) => match &l.lit {
                syn::Lit::Float(_) => Class::Inactive,
                syn::Lit::Int(i) if matches!(i.suffix(), "f64" | "f32") => Class::Inactive,
                _ => Class::Other,
            },
            Expr::Path(p) if p.qself.is_none() => {
                if let Some(id) = p.path.get_ident() {
                    let name = id.to_string();
                    if self.active.contains(&name) || self.arrays.contains_key(&name) {
                        Class::Active
                    } else if self.inactive.contains(&name)
                        || (!self.locals.contains(&name)
                            && STD_FLOAT_CONSTS.contains(&name.as_str()))
                    {
                        Class::Inactive
                    } else {
                        Class::Other
                    }
                } else if is_float_const_path(&p.path) {
                    Class::Inactive
                } else {
                    Class::Other
                }
            }
            Expr::Paren(p) => self.classify_with(&p.expr, memo),
            Expr::Group(g) => self.classify_with(&g.expr, memo),
            Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => {
                self.classify_with(&u.expr, memo)
            }
            Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) => {
                if self.mentions_with(&u.expr, memo) {
                    Class::Active
                } else {
                    Class::Other
                }
            }
            Expr::Cast(c) => {
                let to_float = self.float.is_some_and(|f| is_float(&c.ty, f))
                    || matches!(&*c.ty, syn::Type::Path(p) if p.path.is_ident("f64") || p.path.is_ident("f32"));
                if !to_float {
                    Class::Other
                } else if self.classify_with(&c.expr, memo) == Class::Active {
                    Class::Active
                } else {
                    Class::Inactive
                }
            }
            Expr::Binary(b) => {
                use syn::BinOp::*;
                match b.op {
                    Add(_) | Sub(_) | Mul(_) | Div(_) | Rem(_) => {
                        let (l, r) = (
                            self.classify_with(&b.left, memo),
                            self.classify_with(&b.right, memo),
                        );
                        // A `const` item next to a float constant (`2.0 * A`) is a
                        // float: nothing else type-checks in the primal.
                        let float =
                            |c: Class, e: &Expr| c == Class::Inactive || self.is_const_like(e);
                        if l == Class::Active || r == Class::Active {
                            Class::Active
                        } else if (l == Class::Inactive || r == Class::Inactive)
                            && float(l, &b.left)
                            && float(r, &b.right)
                        {
                            Class::Inactive
                        } else {
                            Class::Other
                        }
                    }
                    _ => Class::Other,
                }
            }
            Expr::MethodCall(m) => {
                let method = m.method.to_string();
                if NON_FLOAT_METHODS.contains(&method.as_str()) {
                    return Class::Other;
                }
                if self.mentions_with(e, memo) {
                    return Class::Active;
                }
                let recv = self.classify_with(&m.receiver, memo);
                if recv == Class::Inactive && FLOAT_METHODS.contains(&method.as_str()) {
                    Class::Inactive
                } else {
                    Class::Other
                }
            }
            Expr::Call(c) => {
                if self.mentions_with(e, memo) {
                    return Class::Active;
                }
                match &*c.func {
                    Expr::Path(p) if is_rule_call(self, &p.path) => Class::Active,
                    Expr::Path(p) => {
                        let segs = &p.path.segments;
                        let float_assoc = segs.len() == 2
                            && (segs[0].ident == "f64" || segs[0].ident == "f32")
                            && FLOAT_METHODS.contains(&segs[1].ident.to_string().as_str());
                        if float_assoc
                            && c.args
                                .iter()
                                .all(|a| self.classify_with(a, memo) == Class::Inactive)
                        {
                            Class::Inactive
                        } else {
                            Class::Other
                        }
                    }
                    _ => Class::Other,
                }
            }
            Expr::Index(i) => {
                if self.mentions_with(&i.expr, memo) {
                    Class::Active
                } else if matches!(&*i.expr, Expr::Path(p) if p.path.get_ident().is_some_and(|id| self.const_arrays.contains(&id.to_string())))
                    && !matches!(&*i.index, Expr::Range(_))
                {
                    Class::Inactive
                } else {
                    Class::Other
                }
            }
            Expr::Block(b) => self.classify_tail_in(&b.block, memo),
            // A struct literal with float fields builds the dual struct.
            Expr::Struct(s) => {
                if s.fields
                    .iter()
                    .any(|f| self.classify_with(&f.expr, memo) != Class::Other)
                {
                    Class::Active
                } else {
                    Class::Other
                }
            }
            Expr::Loop(l) => loop_breaks(&l.body, l.label.as_ref())
                .into_iter()
                .map(|v| self.classify_with(v, memo))
                .reduce(join)
                .unwrap_or(Class::Other),
            Expr::If(i) => {
                let then = self.classify_tail_in(&i.then_branch, memo);
                let other = i
                    .else_branch
                    .as_ref()
                    .map(|(_, e)| self.classify_with(e, memo));
                join(then, other.unwrap_or(Class::Other))
            }
            Expr::Match(m) => m
                .arms
                .iter()
                .map(|a| self.classify_with(&a.body, memo))
                .reduce(join)
                .unwrap_or(Class::Other),
            Expr::Macro(m) => {
                let name = m.mac.path.segments.last().map(|s| s.ident.to_string());
                match name.as_deref() {
                    Some("constant") => Class::Active,
                    Some("vec") if self.macro_is_float_vec(&m.mac) => Class::Active,
                    _ => Class::Other,
                }
            }
            _ => {
                if self.mentions_with(e, memo) {
                    Class::Active
                } else {
                    Class::Other
                }
            }
        }
    }

    fn classify_tail_in(&self, b: &syn::Block, memo: &mut Memo) -> Class {
        match b.stmts.last() {
            Some(syn::Stmt::Expr(e, None)) => self.classify_with(e, memo),
            _ => Class::Other,
        }
    }

    /// Whether `vec![…]` builds a float array.
    pub fn macro_is_float_vec(&self, mac: &syn::Macro) -> bool {
        if let Ok(rep) = mac.parse_body::<VecMacro>() {
            return match rep {
                VecMacro::Repeat(elem, _) => self.classify(&elem) != Class::Other,
                VecMacro::List(items) => {
                    !items.is_empty() && items.iter().all(|e| self.classify(e) != Class::Other)
                }
            };
        }
        false
    }

    /// `vec![vec![…]; m]` or `vec![vec![…], …]` whose rows are float arrays.
    pub fn builds_nested(&self, e: &Expr) -> bool {
        let Expr::Macro(m) = strip_groups(e) else {
            return false;
        };
        if !m.mac.path.is_ident("vec") {
            return false;
        }
        let row = |r: &Expr| {
            matches!(strip_groups(r), Expr::Macro(i)
                if i.mac.path.is_ident("vec") && self.macro_is_float_vec(&i.mac))
        };
        match m.mac.parse_body::<VecMacro>() {
            Ok(VecMacro::Repeat(elem, _)) => row(&elem),
            Ok(VecMacro::List(items)) => !items.is_empty() && items.iter().all(row),
            Err(_) => false,
        }
    }

    /// Whether an expression mentions an active or array name, or calls a rule.
    pub fn mentions_active(&self, e: &Expr) -> bool {
        self.mentions_with(e, &mut Memo::default())
    }

    /// [`Self::mentions_active`], keeping the answers for `e` and its subexpressions in
    /// `memo`.
    pub fn mentions_with(&self, e: &Expr, memo: &mut Memo) -> bool {
        struct Find<'s, 'm> {
            scope: &'s Scope,
            memo: &'m mut Memo,
            found: bool,
        }
        impl<'ast> Visit<'ast> for Find<'_, '_> {
            // Each expression's answer is recorded, so none is searched twice.
            fn visit_expr(&mut self, e: &'ast Expr) {
                if let Some(found) = self.memo.mention(e) {
                    self.found |= found;
                    return;
                }
                let outer = std::mem::replace(&mut self.found, false);
                syn::visit::visit_expr(self, e);
                let generation = self.memo.generation;
                self.memo
                    .mentions
                    .insert(Memo::key(e), (generation, self.found));
                self.found |= outer;
            }
            fn visit_expr_path(&mut self, p: &'ast syn::ExprPath) {
                if let Some(id) = p.path.get_ident() {
                    let name = id.to_string();
                    if self.scope.active.contains(&name) || self.scope.arrays.contains_key(&name) {
                        self.found = true;
                    }
                }
            }
            fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
                if let Expr::Path(p) = &*c.func
                    && is_rule_call(self.scope, &p.path)
                {
                    self.found = true;
                }
                syn::visit::visit_expr_call(self, c);
            }
            fn visit_macro(&mut self, m: &'ast syn::Macro) {
                let name = m.path.segments.last().map(|s| s.ident.to_string());
                if name.as_deref() == Some("constant") {
                    self.found = true;
                }
                if name.as_deref() == Some("vec") && self.scope.macro_is_float_vec(m) {
                    self.found = true;
                }
            }
        }
        let mut f = Find {
            scope: self,
            memo,
            found: false,
        };
        f.visit_expr(e);
        f.found
    }
}

fn join(a: Class, b: Class) -> Class {
    match (a, b) {
        (Class::Active, _) | (_, Class::Active) => Class::Active,
        (Class::Inactive, Class::Inactive) => Class::Inactive,
        _ => Class::Other,
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

/// Whether an expression builds a float array: `vec![…]` of floats, `Vec::new()` /
/// `Vec::with_capacity` annotated `Vec<f64>`, `x.to_vec()` / `x.clone()` of an array,
/// `collect::<Vec<f64>>()`.
fn builds_array(scope: &Scope, init: &Expr, annotated: Option<&syn::Type>, f: Float) -> bool {
    if annotated.is_some_and(|t| is_float_vec(t, f)) {
        return true;
    }
    match init {
        Expr::Macro(m) => m.mac.path.is_ident("vec") && scope.macro_is_float_vec(&m.mac),
        Expr::MethodCall(m) => {
            let method = m.method.to_string();
            let recv_is_array = matches!(&*m.receiver, Expr::Path(p)
                if p.path.get_ident().is_some_and(|i| scope.arrays.contains_key(&i.to_string())));
            let turbofish_vec = m.turbofish.as_ref().is_some_and(|t| {
                t.args
                    .iter()
                    .any(|a| matches!(a, syn::GenericArgument::Type(ty) if is_float_vec(ty, f)))
            });
            (recv_is_array && matches!(method.as_str(), "to_vec" | "clone"))
                || (method == "collect" && turbofish_vec)
        }
        _ => false,
    }
}

/// `a.dot(b)` on an ndarray `a`.
pub fn is_ndarray_dot(scope: &Scope, e: &Expr) -> bool {
    matches!(e, Expr::MethodCall(m) if m.method == "dot"
        && matches!(&*m.receiver, Expr::Path(p)
            if p.path.get_ident().is_some_and(|i| scope.ndarrays.contains(&i.to_string()))))
}

/// A view of a float array: `&x[a..b]`, `&mut y[a..]`, or another array's name.
fn view_of_array(scope: &Scope, init: &Expr) -> Option<ArrayKind> {
    let name_kind = |e: &Expr| match e {
        Expr::Path(p) => p
            .path
            .get_ident()
            .and_then(|i| scope.arrays.get(&i.to_string()).copied()),
        _ => None,
    };
    match init {
        Expr::Reference(r) => match &*r.expr {
            Expr::Index(ix) if matches!(&*ix.index, Expr::Range(_)) => {
                name_kind(&ix.expr).map(|_| {
                    if r.mutability.is_some() {
                        ArrayKind::Mut
                    } else {
                        ArrayKind::Ref
                    }
                })
            }
            other => name_kind(other).map(|_| {
                if r.mutability.is_some() {
                    ArrayKind::Mut
                } else {
                    ArrayKind::Ref
                }
            }),
        },
        _ => None,
    }
}

/// Runs the analysis to a fixed point over the body.
pub fn analyse(scope: &mut Scope, body: &syn::Block) {
    let Some(f) = scope.float else { return };
    // Every bound name is a local (so calls to closures are not taken for rules).
    struct Locals<'s>(&'s mut HashSet<String>);
    impl<'ast> Visit<'ast> for Locals<'_> {
        fn visit_pat_ident(&mut self, i: &'ast syn::PatIdent) {
            self.0.insert(i.ident.to_string());
            syn::visit::visit_pat_ident(self, i);
        }
    }
    Locals(&mut scope.locals).visit_block(body);

    // Candidate inactive names: shrink until stable, while active names and arrays grow.
    let base = scope.inactive.clone();
    let mut candidates: HashSet<String> = HashSet::new();
    for _round in 0..32 {
        scope.inactive = base.union(&candidates).cloned().collect();
        let before = (scope.active.len(), scope.arrays.len(), scope.inactive.len());
        let mut pass = Pass {
            scope,
            f,
            candidates: HashSet::new(),
            demoted: HashSet::new(),
            vec_candidates: HashSet::new(),
            memo: Memo::default(),
            sizes: (usize::MAX, usize::MAX),
            iter_mut_items: HashMap::new(),
        };
        pass.visit_block(body);
        let Pass {
            candidates: found,
            demoted,
            ..
        } = pass;
        candidates = found
            .into_iter()
            .filter(|n| !demoted.contains(n) && !scope.active.contains(n))
            .collect();
        scope.inactive = base.union(&candidates).cloned().collect();
        let after = (scope.active.len(), scope.arrays.len(), scope.inactive.len());
        if before == after {
            break;
        }
    }
}

struct Pass<'s> {
    scope: &'s mut Scope,
    f: Float,
    candidates: HashSet<String>,
    demoted: HashSet<String>,
    /// Locals initialised by an unannotated `Vec::new()` / `Vec::with_capacity(n)`: float
    /// arrays once a float is pushed into them.
    vec_candidates: HashSet<String>,
    /// Answers about the body, which a pass does not change: they hold while the sets
    /// they depend on, which only grow during a pass, keep their sizes.
    memo: Memo,
    sizes: (usize, usize),
    /// Names bound to the items of `a.iter_mut()` (`for z in a.iter_mut()`,
    /// `.zip(a.iter_mut()).map(|(x, o)| …)`), with the local `a` they point into: a
    /// value of the reading written through one (`*z += x`) lifts `a`.
    iter_mut_items: HashMap<String, String>,
}

impl Pass<'_> {
    fn sync(&mut self) {
        let sizes = (self.scope.active.len(), self.scope.arrays.len());
        if sizes != self.sizes {
            self.sizes = sizes;
            self.memo.forget();
        }
    }

    fn class(&mut self, e: &Expr) -> Class {
        self.sync();
        self.scope.classify_with(e, &mut self.memo)
    }

    fn mentions(&mut self, e: &Expr) -> bool {
        self.sync();
        self.scope.mentions_with(e, &mut self.memo)
    }

    fn bind(&mut self, pat: &Pat, class: Class) {
        let mut names = Vec::new();
        pat_idents(pat, &mut names);
        for n in names {
            match class {
                Class::Active => {
                    self.scope.active.insert(n);
                }
                Class::Inactive => {
                    self.candidates.insert(n);
                }
                Class::Other => {
                    self.demoted.insert(n);
                }
            }
        }
    }

    fn assigned(&mut self, target: &Expr, value: &Expr) {
        // `t.0 = x`, `a[0] = x`: a lifted value written into a local tuple or fixed array
        // lifts the whole local (never demotes it: other elements may hold floats).
        if let Some(root) = place_root(target) {
            let name = root.to_string();
            if !self.scope.arrays.contains_key(&name) && self.class(value) == Class::Active {
                self.scope.active.insert(name);
            }
            return;
        }
        if let Expr::Unary(u) = strip_groups(target)
            && matches!(u.op, syn::UnOp::Deref(_))
            && let Expr::Path(p) = strip_groups(&u.expr)
            && let Some(id) = p.path.get_ident()
        {
            if let Some(root) = self.iter_mut_items.get(&id.to_string()).cloned()
                && self.class(value) == Class::Active
            {
                self.scope.active.insert(root);
            }
            return;
        }
        let Expr::Path(p) = target else { return };
        let Some(id) = p.path.get_ident() else { return };
        let name = id.to_string();
        match self.class(value) {
            Class::Active => {
                self.scope.active.insert(name);
            }
            Class::Inactive => {}
            Class::Other => {
                self.demoted.insert(name);
            }
        }
    }

    /// `(a, b)` bound to `y.split_at(n)` / `y.split_at_mut(n)` of a float array `y`, or
    /// a tuple of such patterns bound to a tuple of such calls: the names become views.
    fn split_views(&mut self, pat: &Pat, init: &Expr) -> bool {
        match (pat, strip_groups(init)) {
            (Pat::Tuple(pt), Expr::Tuple(et)) if pt.elems.len() == et.elems.len() => {
                let views =
                    pt.elems.iter().zip(et.elems.iter()).all(|(p, e)| {
                        matches!(p, Pat::Tuple(_)) && is_split(self.scope, e).is_some()
                    });
                if views {
                    for (p, e) in pt.elems.iter().zip(et.elems.iter()) {
                        self.split_views(p, e);
                    }
                }
                views
            }
            (Pat::Tuple(pt), e) if pt.elems.len() == 2 => {
                let Some(kind) = is_split(self.scope, e) else {
                    return false;
                };
                let mut names = Vec::new();
                pat_idents(pat, &mut names);
                for n in names {
                    self.scope.arrays.insert(n, kind);
                }
                true
            }
            _ => false,
        }
    }

    /// Records the names `pat` binds as items of `a.iter_mut()` when `chain` (a loop's
    /// iterator, or the receiver and arguments of a closure's method) iterates a local
    /// fixed array or tuple `a` mutably.
    fn note_iter_mut(&mut self, chain: &[&Expr], pat: &Pat) {
        let mut roots = Vec::new();
        for e in chain {
            iter_mut_roots(e, &mut roots);
        }
        roots.retain(|r| self.scope.locals.contains(r) && !self.scope.arrays.contains_key(r));
        if let [root] = roots.as_slice() {
            let mut names = Vec::new();
            pat_idents(pat, &mut names);
            for n in names {
                // Each is a `&mut` to an element: its `*` stays.
                self.scope.refs.insert(n.clone());
                self.iter_mut_items.insert(n, root.clone());
            }
        }
    }
}

/// `y.split_at(n)` / `y.split_at_mut(n)` of a float array `y`: the kind of its halves.
fn is_split(scope: &Scope, e: &Expr) -> Option<ArrayKind> {
    let Expr::MethodCall(m) = strip_groups(e) else {
        return None;
    };
    let Expr::Path(p) = strip_groups(&m.receiver) else {
        return None;
    };
    let id = p.path.get_ident()?;
    scope.arrays.get(&id.to_string())?;
    match m.method.to_string().as_str() {
        "split_at" => Some(ArrayKind::Ref),
        "split_at_mut" => Some(ArrayKind::Mut),
        _ => None,
    }
}

/// The locals `a` of every `a.iter_mut()` in a method chain and its arguments.
fn iter_mut_roots(e: &Expr, out: &mut Vec<String>) {
    if let Expr::MethodCall(m) = strip_groups(e) {
        if m.method == "iter_mut"
            && let Expr::Path(p) = strip_groups(&m.receiver)
            && let Some(id) = p.path.get_ident()
        {
            out.push(id.to_string());
        }
        iter_mut_roots(&m.receiver, out);
        for a in &m.args {
            iter_mut_roots(a, out);
        }
    }
}

impl<'ast> Visit<'ast> for Pass<'_> {
    fn visit_local(&mut self, l: &'ast syn::Local) {
        let (pat, ty) = match &l.pat {
            Pat::Type(t) => (&*t.pat, Some(&*t.ty)),
            other => (other, None),
        };
        if let Some(init) = &l.init {
            if let Pat::Ident(id) = pat {
                let name = id.ident.to_string();
                let nd_annotated =
                    ty.is_some_and(|t| crate::types::ndarray_type(t, self.f).is_some());
                if nd_annotated || is_ndarray_dot(self.scope, &init.expr) {
                    self.scope.ndarrays.insert(name.clone());
                }
                if ty.is_none() && self.scope.is_const_like(&init.expr) {
                    self.scope.const_like.insert(name.clone());
                }
                if ty.is_none() && is_empty_vec(&init.expr) {
                    self.vec_candidates.insert(name.clone());
                }
                // `let mut h = vec![vec![0.0; n]; m];`, `let t: Vec<Vec<f64>> = …`: an
                // array of float arrays, as a `Vec<Vec<f64>>` parameter is.
                if ty.is_some_and(|t| crate::types::is_nested_array(t, self.f))
                    || self.scope.builds_nested(&init.expr)
                {
                    self.scope.nested.insert(name.clone());
                    self.scope.active.insert(name);
                    syn::visit::visit_local(self, l);
                    return;
                }
                if builds_array(self.scope, &init.expr, ty, self.f) {
                    self.scope.arrays.insert(name, ArrayKind::Owned);
                    syn::visit::visit_local(self, l);
                    return;
                }
                if let Some(kind) = view_of_array(self.scope, &init.expr) {
                    self.scope.arrays.insert(name, kind);
                    syn::visit::visit_local(self, l);
                    return;
                }
            }
            // `let (a, b) = y.split_at_mut(n);` (and tuples of such): views of `y`.
            if self.split_views(pat, &init.expr) {
                syn::visit::visit_local(self, l);
                return;
            }
            // `let (a, b) = (x, 2.0);` binds element by element.
            if let (Pat::Tuple(pt), Expr::Tuple(et)) = (pat, &*init.expr)
                && pt.elems.len() == et.elems.len()
            {
                for (p, e) in pt.elems.iter().zip(et.elems.iter()) {
                    let class = self.class(e);
                    self.bind(p, class);
                }
                syn::visit::visit_local(self, l);
                return;
            }
            let mut class = self.class(&init.expr);
            if class == Class::Other && ty.is_some_and(|t| is_float(t, self.f)) {
                class = Class::Inactive;
            }
            self.bind(pat, class);
        } else if ty.is_some_and(|t| is_float(t, self.f)) {
            self.bind(pat, Class::Inactive);
        }
        syn::visit::visit_local(self, l);
    }

    fn visit_expr_assign(&mut self, a: &'ast syn::ExprAssign) {
        self.assigned(&a.left, &a.right);
        syn::visit::visit_expr_assign(self, a);
    }

    fn visit_expr_binary(&mut self, b: &'ast syn::ExprBinary) {
        use syn::BinOp::*;
        if matches!(
            b.op,
            AddAssign(_) | SubAssign(_) | MulAssign(_) | DivAssign(_) | RemAssign(_)
        ) {
            self.assigned(&b.left, &b.right);
        }
        syn::visit::visit_expr_binary(self, b);
    }

    fn visit_expr_for_loop(&mut self, l: &'ast syn::ExprForLoop) {
        if let Some((_, mutable)) = nested_rows(self.scope, &l.expr) {
            // `for row in &m` over an array of float arrays: each row is an array.
            let mut names = Vec::new();
            pat_idents(&l.pat, &mut names);
            let kind = if mutable {
                ArrayKind::Mut
            } else {
                ArrayKind::Ref
            };
            for n in names {
                self.scope.arrays.insert(n, kind);
            }
            syn::visit::visit_expr_for_loop(self, l);
            return;
        }
        if yields_views(&l.expr) && self.mentions(&l.expr) {
            let item = match &*l.pat {
                Pat::Tuple(t) if chain_has(&l.expr, "enumerate") && t.elems.len() == 2 => {
                    &t.elems[1]
                }
                other => other,
            };
            let mut names = Vec::new();
            pat_idents(item, &mut names);
            for n in names {
                self.scope.arrays.insert(n, ArrayKind::Ref);
            }
            syn::visit::visit_expr_for_loop(self, l);
            return;
        }
        self.note_iter_mut(&[&l.expr], &l.pat);
        if self.mentions(&l.expr) {
            self.bind(&l.pat, Class::Active);
        }
        syn::visit::visit_expr_for_loop(self, l);
    }

    fn visit_expr_let(&mut self, l: &'ast syn::ExprLet) {
        // `while let Some(t) = v.pop()`, `if let Some(t) = x.first()`: values of the
        // reading bind lifted names.
        if self.class(&l.expr) == Class::Active {
            self.bind(&l.pat, Class::Active);
        }
        syn::visit::visit_expr_let(self, l);
    }

    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        // `v.push(1.0)` into an unannotated `Vec::new()`: a float array.
        if let Expr::Path(p) = &*m.receiver
            && let Some(id) = p.path.get_ident()
            && self.vec_candidates.contains(&id.to_string())
        {
            let value = match m.method.to_string().as_str() {
                "push" => m.args.first(),
                "insert" | "resize" => m.args.iter().nth(1),
                _ => None,
            };
            if value.is_some_and(|v| self.class(v) != Class::Other) {
                self.scope.arrays.insert(id.to_string(), ArrayKind::Owned);
            }
        }
        for arg in &m.args {
            if let Expr::Closure(c) = arg {
                for input in &c.inputs {
                    self.note_iter_mut(&[&m.receiver], input);
                }
            }
        }
        // Closures over the items of a lifted iterator (`x.iter().for_each(|v| s += v)`):
        // their parameters are values of the reading (for `enumerate`, the second one).
        // Closures first: finding `enumerate` walks the whole chain of receivers.
        if m.args.iter().any(|a| matches!(a, Expr::Closure(_))) && self.mentions(&m.receiver) {
            let enumerated = chain_has(&m.receiver, "enumerate");
            // `x.windows(2).map(|w| w[1] - w[0])`: the items are views of the array.
            let views = yields_views(&m.receiver);
            for arg in &m.args {
                let Expr::Closure(c) = arg else { continue };
                for input in &c.inputs {
                    let mut pat = input;
                    while let Pat::Reference(r) = pat {
                        pat = &r.pat;
                    }
                    let item = match pat {
                        Pat::Type(_) => continue,
                        Pat::Tuple(t) if enumerated && t.elems.len() == 2 => &t.elems[1],
                        other => other,
                    };
                    match (views, item) {
                        (true, Pat::Ident(id)) => {
                            self.scope
                                .arrays
                                .insert(id.ident.to_string(), ArrayKind::Ref);
                        }
                        _ => self.bind(item, Class::Active),
                    }
                }
            }
        }
        syn::visit::visit_expr_method_call(self, m);
    }

    fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
        // `g(x, &mut out)`: a rule writes values of the reading into a local it is lent
        // mutably (a fixed array or tuple of floats), so the local holds them.
        if let Expr::Path(p) = &*c.func
            && is_rule_call(self.scope, &p.path)
        {
            for arg in &c.args {
                if let Expr::Reference(r) = arg
                    && r.mutability.is_some()
                    && let Some(root) = place_root(&r.expr).or_else(|| match &*r.expr {
                        Expr::Path(p) => p.path.get_ident(),
                        _ => None,
                    })
                    && !self.scope.arrays.contains_key(&root.to_string())
                    && self.scope.locals.contains(&root.to_string())
                {
                    self.scope.active.insert(root.to_string());
                }
            }
        }
        syn::visit::visit_expr_call(self, c);
    }

    fn visit_expr_closure(&mut self, c: &'ast syn::ExprClosure) {
        // Closure parameters annotated with the float type are values of the reading.
        for input in &c.inputs {
            if let Pat::Type(t) = input
                && is_float(&t.ty, self.f)
            {
                self.bind(&t.pat, Class::Active);
            }
        }
        syn::visit::visit_expr_closure(self, c);
    }
}
