//! The fixed point over a body: each pass visits every binding and assignment and grows
//! the scope's sets, until a pass changes nothing. The helpers here recognise the forms
//! of binding only the pass needs (arrays built, views taken, halves split off).

use std::collections::{HashMap, HashSet};

use syn::visit::Visit;
use syn::{Expr, Pat};

use super::predicates::{pat_idents, strip_groups, yields_views};
use super::scope::{ArrayKind, Class, Memo, Scope, is_ndarray_dot, is_rule_call, nested_rows};
use crate::syntax::{chain_has, is_empty_vec, place_root};
use crate::types::{Float, is_float, is_float_vec};

/// Runs the analysis to a fixed point over the body.
pub fn analyse(scope: &mut Scope, body: &syn::Block) {
    let Some(f) = scope.float else { return };
    // Every bound name is a local (so calls to closures are not taken for rules).
    // Items declared in the body (`use helpers::sq;`, `fn sq`) are seen by a call in the
    // body but not by a path through the rule's module (`self::sq`).
    struct Locals<'s>(&'s mut HashSet<String>, &'s mut HashSet<String>);
    impl<'ast> Visit<'ast> for Locals<'_> {
        fn visit_pat_ident(&mut self, i: &'ast syn::PatIdent) {
            self.0.insert(i.ident.to_string());
            syn::visit::visit_pat_ident(self, i);
        }
        fn visit_use_name(&mut self, u: &'ast syn::UseName) {
            self.1.insert(u.ident.to_string());
        }
        fn visit_use_rename(&mut self, u: &'ast syn::UseRename) {
            self.1.insert(u.rename.to_string());
        }
        fn visit_use_glob(&mut self, _: &'ast syn::UseGlob) {
            self.1.insert("*".to_string());
        }
        fn visit_item_fn(&mut self, i: &'ast syn::ItemFn) {
            self.1.insert(i.sig.ident.to_string());
        }
    }
    Locals(&mut scope.locals, &mut scope.body_items).visit_block(body);
    super::struct_types::struct_locals(scope, body);

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
                // `let (pairs, rest) = y.as_chunks::<2>();`: the chunks hold values of
                // the reading (`[D; K]`), the rest is a view of `y`.
                if let Some(kind) = is_as_chunks(self.scope, e) {
                    let (mut chunks, mut rest) = (Vec::new(), Vec::new());
                    pat_idents(&pt.elems[0], &mut chunks);
                    pat_idents(&pt.elems[1], &mut rest);
                    self.scope.active.extend(chunks);
                    for n in rest {
                        self.scope.arrays.insert(n, kind);
                    }
                    return true;
                }
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

/// The method of `y.method(…)` when `y` is a float array by name.
fn method_of_array(scope: &Scope, e: &Expr) -> Option<String> {
    let Expr::MethodCall(m) = strip_groups(e) else {
        return None;
    };
    let Expr::Path(p) = strip_groups(&m.receiver) else {
        return None;
    };
    scope.arrays.get(&p.path.get_ident()?.to_string())?;
    Some(m.method.to_string())
}

/// `y.split_at(n)` / `y.split_at_mut(n)` of a float array `y`: the kind of its halves.
fn is_split(scope: &Scope, e: &Expr) -> Option<ArrayKind> {
    match method_of_array(scope, e)?.as_str() {
        "split_at" => Some(ArrayKind::Ref),
        "split_at_mut" => Some(ArrayKind::Mut),
        _ => None,
    }
}

/// `y.as_chunks::<K>()` / `y.as_chunks_mut::<K>()` of a float array `y`: the kind of
/// the view of what is left after the whole chunks.
pub fn is_as_chunks(scope: &Scope, e: &Expr) -> Option<ArrayKind> {
    match method_of_array(scope, e)?.as_str() {
        "as_chunks" => Some(ArrayKind::Ref),
        "as_chunks_mut" => Some(ArrayKind::Mut),
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
            let concat = method == "concat" && concat_of_arrays(scope, &m.receiver);
            (recv_is_array && matches!(method.as_str(), "to_vec" | "clone"))
                || (method == "collect" && turbofish_vec)
                || concat
        }
        _ => false,
    }
}

/// `[a, &b[1..]]` of float arrays (views), or a nested array `m`: what `concat` joins.
pub fn concat_of_arrays(scope: &Scope, recv: &Expr) -> bool {
    match strip_groups(recv) {
        Expr::Array(a) => a.elems.iter().any(|e| scope.names_array(e)),
        Expr::Path(p) => p
            .path
            .get_ident()
            .is_some_and(|i| scope.nested.contains(&i.to_string())),
        _ => false,
    }
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
