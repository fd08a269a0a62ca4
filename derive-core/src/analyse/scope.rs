//! The names of a body and the classes of expressions over them. Classification is
//! asked of every node, by the analysis and again by the lowering, so it lives with
//! the memo that keeps its answers.

use std::collections::{HashMap, HashSet};

use syn::visit::Visit;
use syn::{Expr, Ident};

use super::predicates::{
    FLOAT_METHODS, NON_FLOAT_METHODS, STD_FLOAT_CONSTS, is_const_name, is_float_const_path,
    strip_groups,
};
use crate::syntax::{VecMacro, loop_breaks};
use crate::types::{Float, is_float};

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
    /// Float parameters (`x: f64`, `x: &f64`): values of the reading that are scalars,
    /// so that `let r = &x;` may bind the value (structs may not be `Copy`).
    pub scalars: HashSet<String>,
    /// Arrays of float arrays (`m: &[Vec<f64>]`): `m[i]` is an array of the reading.
    pub nested: HashSet<String>,
    /// Locals bound without a type to a `const` or `static` item (`let a = A;`), whose
    /// type the macro cannot see: see [`Scope::is_const_like`].
    pub const_like: HashSet<String>,
    /// Names of items declared or imported in the body (`use helpers::sq;`), or `*`
    /// for a glob import there: calls to them are left unqualified.
    pub body_items: HashSet<String>,
    /// Names holding lifted structs, with their primal types (`z: Cplx`), bound once in
    /// the body: see [`Scope::struct_type`].
    pub structs: HashMap<String, syn::Type>,
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

    /// Whether `e` is a float array by name, a range of one or a reference to either
    /// (`x`, `x[1..]`, `&x[..n]`).
    pub fn names_array(&self, e: &Expr) -> bool {
        let e = match strip_groups(e) {
            Expr::Reference(r) => strip_groups(&r.expr),
            e => e,
        };
        let e = match e {
            Expr::Index(ix) if matches!(strip_groups(&ix.index), Expr::Range(_)) => &*ix.expr,
            e => e,
        };
        matches!(strip_groups(e), Expr::Path(p)
            if p.path.get_ident().is_some_and(|i| self.arrays.contains_key(&i.to_string())))
    }

    /// `vec![vec![…]; m]`, `vec![vec![…], …]` or `vec![a.to_vec(), …]` whose rows are
    /// float arrays.
    pub fn builds_nested(&self, e: &Expr) -> bool {
        let Expr::Macro(m) = strip_groups(e) else {
            return false;
        };
        if !m.mac.path.is_ident("vec") {
            return false;
        }
        // A row is a float `vec![…]` or a copy of a float array (`x[..k].to_vec()`).
        let row = |r: &Expr| match strip_groups(r) {
            Expr::Macro(i) => i.mac.path.is_ident("vec") && self.macro_is_float_vec(&i.mac),
            Expr::MethodCall(c) if c.method == "to_vec" && c.args.is_empty() => {
                self.names_array(&c.receiver)
            }
            _ => false,
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
        "std" | "core" | "alloc" | "lifted" | "f64" | "f32" | "bool" | "char" | "str"
    ) || crate::types::INTEGER_TYPES.contains(&first)
    {
        return false;
    }
    !segs[..segs.len() - 1].iter().any(|s| upper(s))
}

/// `a.dot(b)` on an ndarray `a`.
pub fn is_ndarray_dot(scope: &Scope, e: &Expr) -> bool {
    matches!(e, Expr::MethodCall(m) if m.method == "dot"
        && matches!(&*m.receiver, Expr::Path(p)
            if p.path.get_ident().is_some_and(|i| scope.ndarrays.contains(&i.to_string()))))
}
