//! The body transformation: rewrites a primal body, statement by statement, into the
//! body of a rule generic over the reading. Control flow is kept as written; what
//! changes is how values are made, combined, read from and written to arrays.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::visit_mut::VisitMut;
use syn::{Expr, Ident, Pat, Token};

use crate::analyse::{ArrayKind, Class, FLOAT_METHODS, Memo, Scope, is_rule_call};

mod arrays;
mod forms;
mod macros;
mod structs;

use crate::errors::Errors;
use crate::syntax::{fill, hole, holes, ident_expr, place_root, span_of, strip, take};
use crate::types::{Float, is_float, map_type};
pub use structs::operand_traits;

/// What a position expects of a value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Want {
    /// Anything: plain floats stay plain.
    Any,
    /// A value of the reading: plain floats are zero-lifted.
    Reading,
}

/// Rewrites one function body.
pub struct Lowerer<'a> {
    /// Names and their classes.
    pub scope: &'a Scope,
    /// The field of the function.
    pub float: Float,
    /// The reading type parameter.
    pub d: Ident,
    /// Path to the runtime crate.
    pub krate: syn::Path,
    /// Where problems go.
    pub errors: &'a mut Errors,
    /// Whether the function's result carries floats (tails and returns are lifted).
    pub returns_float: bool,
    /// Element names of `iter_mut` loops currently being lowered.
    iter_mut_elems: Vec<String>,
    /// Parameters of closures over lifted items: one reference level fewer than in
    /// the primal (the items are values), so one `*` on them is dropped.
    value_params: Vec<String>,
    /// The loops (and labelled blocks) being lowered, innermost last: label, what their
    /// `break` values are wanted as, whether a labelled block.
    breaks: Vec<(Option<Ident>, Want, bool)>,
    /// Locals bound to the result of a rule call: indexing them reads through
    /// `ArrayRead` (the result may be the reading's array).
    call_results: Vec<String>,
    /// Classes and mentions of the expressions being lowered (see [`Self::child`]).
    memo: Memo,
    /// The address of the expression [`Self::child`] is about to lower.
    in_place: Option<usize>,
}

impl<'a> Lowerer<'a> {
    /// A lowerer for one body.
    pub fn new(
        scope: &'a Scope,
        float: Float,
        d: Ident,
        krate: syn::Path,
        errors: &'a mut Errors,
        returns_float: bool,
    ) -> Self {
        Self {
            scope,
            float,
            d,
            krate,
            errors,
            returns_float,
            iter_mut_elems: Vec::new(),
            value_params: Vec::new(),
            breaks: Vec::new(),
            call_results: Vec::new(),
            memo: Memo::default(),
            in_place: None,
        }
    }

    /// Lowers `e`, a subexpression of the expression being lowered, still in its place
    /// and unchanged since that expression's lowering began: so the answers the memo
    /// holds for it are still true. Every other expression handed to [`Self::expr`]
    /// (moved out of its place, parsed from a macro body, rewritten before its turn)
    /// drops the memo's answers.
    fn child(&mut self, e: &mut Expr, want: Want) {
        self.in_place = Some(std::ptr::from_ref(e) as usize);
        self.expr(e, want);
    }

    /// [`Scope::classify`] of an expression in place and unchanged since the lowering
    /// of the expression holding it began (as for [`Self::child`]).
    fn class(&mut self, e: &Expr) -> Class {
        self.scope.classify_with(e, &mut self.memo)
    }

    /// [`Scope::mentions_active`], under the terms of [`Self::class`].
    fn mentions(&mut self, e: &Expr) -> bool {
        self.scope.mentions_with(e, &mut self.memo)
    }

    fn private(&self) -> TokenStream {
        let k = &self.krate;
        quote!(#k::__private)
    }

    fn reading(&self) -> TokenStream {
        let (k, f) = (&self.krate, self.float.ident());
        quote!(#k::Reading::<#f>)
    }

    /// `<D as Reading<F>>::constant(e)`, spanned at `e`.
    fn lift(&self, e: Expr) -> Expr {
        let (k, d, f, h) = (&self.krate, &self.d, self.float.ident(), hole(0));
        let span = span_of(&e);
        fill(
            quote_spanned!(span=> <#d as #k::Reading<#f>>::constant(#h)),
            [e],
        )
    }

    /// The array an index expression's base names: an array name, or a float array in
    /// a field of a lifted value.
    fn array_place(&mut self, e: &Expr) -> Option<Expr> {
        match self.array_kind(e) {
            Some((base, _)) => Some(ident_expr(&base)),
            None => self.field_array(e),
        }
    }

    fn array_kind(&self, e: &Expr) -> Option<(Ident, ArrayKind)> {
        let Expr::Path(p) = strip(e) else { return None };
        let id = p.path.get_ident()?;
        self.scope
            .arrays
            .get(&id.to_string())
            .map(|k| (id.clone(), *k))
    }

    /// Lowers the body of the function (its tail is lifted when the result is a float).
    pub fn lower_body(&mut self, block: &mut syn::Block) {
        let want = if self.returns_float {
            Want::Reading
        } else {
            Want::Any
        };
        self.block(block, want);
    }

    fn block(&mut self, block: &mut syn::Block, want: Want) {
        let n = block.stmts.len();
        for (i, stmt) in block.stmts.iter_mut().enumerate() {
            match stmt {
                syn::Stmt::Expr(e, None) if i + 1 == n => self.expr(e, want),
                syn::Stmt::Expr(e, _) => self.expr(e, Want::Any),
                syn::Stmt::Local(l) => self.local(l),
                syn::Stmt::Item(syn::Item::Fn(f)) => self.errors.at(
                    &f.sig.ident,
                    "functions defined inside an `#[autodiff]` function cannot be differentiated: \
                     move this function out to module level and annotate it with `#[autodiff(forward)]`",
                ),
                syn::Stmt::Item(_) => {}
                syn::Stmt::Macro(m) => self.stmt_macro(&mut m.mac),
            }
        }
    }

    fn local(&mut self, l: &mut syn::Local) {
        let mut names = Vec::new();
        crate::analyse::pat_idents(&l.pat, &mut names);
        let is_array = names.len() == 1 && self.scope.arrays.contains_key(&names[0]);
        let active = is_array || names.iter().any(|n| self.scope.active.contains(n));
        if active {
            self.map_pat_types(&mut l.pat);
        }
        // `let v = &mut y[..]`, `let (a, b) = v.split_at_mut(n)`: a mutable view is a
        // value whose methods take `&mut self`, where `&mut [f64]` reborrows itself.
        self.mutable_views(&mut l.pat);
        if let Some(init) = &mut l.init {
            if is_array {
                self.array_init(&mut init.expr);
            }
            if let Pat::Ident(id) = &l.pat
                && self.rule_result(&init.expr)
            {
                self.call_results.push(id.ident.to_string());
            }
            // `let mut h = vec![vec![0.0; n]; m];`: rows of the reading's arrays.
            if names.len() == 1
                && self.scope.nested.contains(&names[0])
                && let Expr::Macro(m) = strip(&init.expr)
                && let Ok(body) = m.mac.parse_body::<crate::syntax::VecMacro>()
            {
                let span = span_of(&init.expr);
                *init.expr = match body {
                    crate::syntax::VecMacro::Repeat(mut row, mut n) => {
                        self.expr(&mut row, Want::Any);
                        self.expr(&mut n, Want::Any);
                        syn::parse_quote_spanned!(span=> ::std::vec![#row; #n])
                    }
                    crate::syntax::VecMacro::List(mut rows) => {
                        for r in rows.iter_mut() {
                            self.expr(r, Want::Any);
                        }
                        syn::parse_quote_spanned!(span=> ::std::vec![#(#rows),*])
                    }
                };
                return;
            }
            // `let (a, b) = (2.0 * x, 1.0);` binds element by element (as the analysis
            // does): each element is lifted only if its name holds lifted values.
            if let (Pat::Tuple(pt), Expr::Tuple(et)) = (&l.pat, &mut *init.expr)
                && pt.elems.len() == et.elems.len()
            {
                for (p, e) in pt.elems.iter().zip(et.elems.iter_mut()) {
                    let mut names = Vec::new();
                    crate::analyse::pat_idents(p, &mut names);
                    let want = if names.iter().any(|n| self.scope.active.contains(n)) {
                        Want::Reading
                    } else {
                        Want::Any
                    };
                    self.expr(e, want);
                }
            } else {
                let want = if active { Want::Reading } else { Want::Any };
                self.expr(&mut init.expr, want);
            }
            if let Some((_, diverge)) = &mut init.diverge {
                self.expr(diverge, Want::Any);
            }
        }
    }

    fn mutable_views(&self, pat: &mut Pat) {
        struct Views<'l, 'a>(&'l Lowerer<'a>);
        impl VisitMut for Views<'_, '_> {
            fn visit_pat_ident_mut(&mut self, i: &mut syn::PatIdent) {
                let mutable_view =
                    self.0.scope.arrays.get(&i.ident.to_string()) == Some(&ArrayKind::Mut);
                if mutable_view && i.by_ref.is_none() && i.mutability.is_none() {
                    i.mutability = Some(syn::Token![mut](i.ident.span()));
                }
                syn::visit_mut::visit_pat_ident_mut(self, i);
            }
        }
        Views(self).visit_pat_mut(pat);
    }

    fn map_pat_types(&mut self, pat: &mut Pat) {
        struct MapTypes<'l, 'a>(&'l Lowerer<'a>);
        impl VisitMut for MapTypes<'_, '_> {
            fn visit_pat_type_mut(&mut self, t: &mut syn::PatType) {
                *t.ty = map_type(&t.ty, self.0.float, &self.0.d, &self.0.krate);
                syn::visit_mut::visit_pat_type_mut(self, t);
            }
        }
        MapTypes(self).visit_pat_mut(pat);
    }

    fn expr(&mut self, e: &mut Expr, want: Want) {
        if self.in_place.take() != Some(std::ptr::from_ref(e) as usize) {
            self.memo.forget();
        }
        let class = self.class(e);
        if want == Want::Reading && class == Class::Inactive {
            self.child(e, Want::Any);
            *e = self.lift(take(e));
            return;
        }
        // `let mut a = TABLE[0];` for an `a` that later holds lifted values: a constant
        // of unseen type, zero-lifted if it is a float.
        if want == Want::Reading && class == Class::Other && self.scope.is_const_like(e) {
            *e = self.operand(take(e));
            return;
        }
        if want == Want::Reading && class == Class::Active && self.fieldish(e) {
            self.child(e, Want::Any);
            *e = self.operand(take(e));
            return;
        }
        // Branching expressions that produce a lifted value lift all their tails.
        let tails = if class == Class::Active {
            Want::Reading
        } else {
            want
        };
        match e {
            Expr::Binary(_) => self.binary(e),
            Expr::Unary(u) => {
                if matches!(u.op, syn::UnOp::Deref(_))
                    && let Expr::Path(p) = &*u.expr {
                        let by_value = p.path.get_ident().is_some_and(|id| {
                            let n = id.to_string();
                            self.value_params.contains(&n)
                                || (!self.iter_mut_elems.contains(&n)
                                    && self.scope.active.contains(&n)
                                    && !self.scope.locals_ref(&n))
                        });
                        if by_value {
                            *e = take(&mut u.expr);
                            return;
                        }
                    }
                // `*x.iter().max_by(…).unwrap()`: the lifted array's iterators and
                // accessors yield values, not references.
                if matches!(u.op, syn::UnOp::Deref(_)) && self.yields_value(&u.expr) {
                    let mut inner = take(&mut u.expr);
                    self.child(&mut inner, want);
                    *e = inner;
                    return;
                }
                let inner = if matches!(u.op, syn::UnOp::Neg(_)) { want } else { Want::Any };
                self.child(&mut u.expr, inner);
            }
            Expr::Paren(p) => self.child(&mut p.expr, want),
            Expr::Group(g) => self.child(&mut g.expr, want),
            Expr::Cast(_) => self.cast(e),
            Expr::Index(_) => self.index_read(e),
            Expr::Reference(_) => self.reference(e),
            Expr::Call(_) => self.call(e),
            Expr::MethodCall(_) => self.method_call(e),
            Expr::Macro(_) => self.expr_macro(e),
            Expr::Assign(_) => self.assign(e),
            Expr::Block(b) if b.label.is_some() => {
                let label = b.label.clone();
                self.in_loop(label.as_ref(), tails, true, |s| s.block(&mut b.block, tails));
            }
            Expr::Block(b) => self.block(&mut b.block, tails),
            Expr::Loop(l) => {
                let label = l.label.clone();
                self.in_loop(label.as_ref(), tails, false, |s| {
                    s.block(&mut l.body, Want::Any);
                });
            }
            Expr::While(w) => {
                self.expr(&mut w.cond, Want::Any);
                let label = w.label.clone();
                self.in_loop(label.as_ref(), Want::Any, false, |s| {
                    s.block(&mut w.body, Want::Any);
                });
            }
            Expr::Break(b) => self.break_value(b),
            Expr::If(i) => {
                self.child(&mut i.cond, Want::Any);
                self.block(&mut i.then_branch, tails);
                if let Some((_, els)) = &mut i.else_branch {
                    self.child(els, tails);
                }
            }
            Expr::Match(m) => {
                self.child(&mut m.expr, Want::Any);
                for arm in &mut m.arms {
                    if let Pat::Guard(g) = &mut arm.pat {
                        self.child(&mut g.guard, Want::Any);
                    }
                    self.child(&mut arm.body, tails);
                }
            }
            Expr::Return(r) => {
                let want = if self.returns_float { Want::Reading } else { Want::Any };
                if let Some(v) = &mut r.expr {
                    self.child(v, want);
                }
            }
            Expr::Tuple(t) => t.elems.iter_mut().for_each(|x| self.child(x, want)),
            Expr::Array(a) => a.elems.iter_mut().for_each(|x| self.child(x, want)),
            Expr::Repeat(r) => self.child(&mut r.expr, want),
            Expr::ForLoop(l) => {
                let label = l.label.clone();
                self.in_loop(label.as_ref(), Want::Any, false, |s| s.for_loop(e));
            }
            Expr::Closure(c) => self.closure(c, false),
            Expr::Struct(_) => self.struct_lit(e),
            Expr::Unsafe(u) => self.errors.at(
                &u.unsafe_token,
                "`unsafe` blocks cannot be differentiated: move the unsafe code into a function and \
                 give it a hand-written rule (implement `lifted::FRule`), or mark the value `lifted::constant!`",
            ),
            Expr::Async(a) => self.errors.at(
                &a.async_token,
                "`async` blocks cannot be differentiated: compute the value in a synchronous function",
            ),
            Expr::Await(a) => self.errors.at(
                &a.await_token,
                "`.await` cannot be differentiated: compute the value in a synchronous function",
            ),
            Expr::RawAddr(r) => self.errors.at(
                &r.raw,
                "raw pointers cannot be differentiated: use slices (`&[f64]`, `&mut [f64]`) instead",
            ),
            Expr::Yield(y) => {
                self.errors.at(&y.yield_token, "`yield` cannot be differentiated")
            }
            _ => syn::visit_mut::visit_expr_mut(self, e),
        }
    }

    fn binary(&mut self, e: &mut Expr) {
        let Expr::Binary(b) = e else { return };
        use syn::BinOp::*;
        let (mut lc, rc) = (self.class(&b.left), self.class(&b.right));
        // Struct fields may be plain floats (`#[constant]`) or values of the reading.
        let (mut lf, rf) = (self.fieldish(&b.left), self.fieldish(&b.right));
        // An operand of unseen type on the left of a lifted one (`w * x` with `w` bound
        // by a pattern over a constant table) is a float, a reference to one, or a value
        // of the reading: `Operand` picks by type, as for fields.
        lf |= lc == Class::Other && rc == Class::Active;
        // A `const` item on the left (`SCALE * x`, `PI < x`) is a plain float when the
        // right side is lifted: nothing else type-checks in the primal.
        if lc == Class::Other && rc == Class::Active && self.scope.is_const_like(&b.left) {
            lc = Class::Inactive;
        }
        match b.op {
            Add(_) | Sub(_) | Mul(_) | Div(_) | Rem(_)
                if lc == Class::Inactive && rc != Class::Inactive =>
            {
                // `c OP x` with a plain constant on the left: a reading method, because
                // `impl Op<D> for f64` cannot be written for a generic reading.
                let method = match b.op {
                    Add(_) => "radd",
                    Sub(_) => "rsub",
                    Mul(_) => "rmul",
                    Div(_) => "rdiv",
                    _ => "rrem",
                };
                let method = Ident::new(method, b.op.span());
                self.child(&mut b.left, Want::Any);
                self.child(&mut b.right, Want::Any);
                if rf {
                    *b.right = self.operand(take(&mut b.right));
                }
                let (l, r, rd) = (take(&mut b.left), take(&mut b.right), self.reading());
                let (span, [hr, hl]) = (b.op.span(), [hole(0), hole(1)]);
                *e = fill(quote_spanned!(span=> #rd::#method(#hr, #hl)), [r, l]);
            }
            Lt(_) | Le(_) | Gt(_) | Ge(_) | Eq(_) | Ne(_) => {
                self.child(&mut b.left, Want::Any);
                self.child(&mut b.right, Want::Any);
                self.wrap_fields(b, lf, rf);
                if lc == Class::Inactive && rc != Class::Inactive {
                    // Mirror the comparison so the lifted value is on the left; exact,
                    // IEEE comparisons being symmetric.
                    let span = b.op.span();
                    b.op = match b.op {
                        Lt(_) => Gt(Token![>](span)),
                        Le(_) => Ge(Token![>=](span)),
                        Gt(_) => Lt(Token![<](span)),
                        Ge(_) => Le(Token![<=](span)),
                        other => other,
                    };
                    std::mem::swap(&mut b.left, &mut b.right);
                }
            }
            AddAssign(_) | SubAssign(_) | MulAssign(_) | DivAssign(_) | RemAssign(_) => {
                self.child(&mut b.right, Want::Any);
                if let Expr::Index(ix) = &mut *b.left
                    && let Some(base) = self.array_place(&ix.expr)
                {
                    // Where the statement starts: its attributes, or the place.
                    let span = match b
                        .attrs
                        .iter()
                        .find(|a| matches!(a.style, syn::AttrStyle::Outer))
                    {
                        Some(a) => a.pound_token.span(),
                        None => span_of(&ix.expr),
                    };
                    self.child(&mut ix.index, Want::Any);
                    let (pv, op) = (self.private(), b.op);
                    let parts = [take(&mut ix.index), base.clone(), take(&mut b.right), base];
                    let [idx, read, rhs, write] = [hole(0), hole(1), hole(2), hole(3)];
                    let tmp_i = Ident::new("__lifted_index", Span::mixed_site());
                    let tmp_v = Ident::new("__lifted_element", Span::mixed_site());

                    *e = fill(
                        quote_spanned!(span=> {
                            let #tmp_i = #idx;
                            let mut #tmp_v = #pv::ArrayRead::get(&#read, #tmp_i);
                            #tmp_v #op #rhs;
                            #pv::ArrayWrite::set(&mut #write, #tmp_i, #tmp_v);
                        }),
                        parts,
                    );
                    return;
                }
                self.child(&mut b.left, Want::Any);
            }
            Add(_) | Sub(_) | Mul(_) | Div(_) | Rem(_) => {
                self.child(&mut b.left, Want::Any);
                self.child(&mut b.right, Want::Any);
                self.wrap_fields(b, lf, rf);
            }
            _ => {
                self.child(&mut b.left, Want::Any);
                self.child(&mut b.right, Want::Any);
            }
        }
    }

    /// Passes the field operands of a binary operator through `Operand`.
    fn wrap_fields(&self, b: &mut syn::ExprBinary, lf: bool, rf: bool) {
        if lf {
            *b.left = self.operand(take(&mut b.left));
        }
        if rf {
            *b.right = self.operand(take(&mut b.right));
        }
    }

    fn cast(&mut self, e: &mut Expr) {
        let Expr::Cast(c) = e else { return };
        let inner = self.class(&c.expr);
        self.child(&mut c.expr, Want::Any);
        if inner != Class::Active {
            return;
        }
        let (pv, f, d, h) = (self.private(), self.float.ident(), &self.d, hole(0));
        let span = c.as_token.span();
        let to_float = is_float(&c.ty, self.float);
        let (x, ty) = (take(&mut c.expr), &c.ty);
        let template = if to_float {
            quote_spanned!(span=> #pv::IntoReading::<#f, #d>::into_reading(#h))
        } else {
            quote_spanned!(span=> (#pv::ToPrimal::to_primal(#h) as #ty))
        };
        *e = fill(template, [x]);
    }

    fn call(&mut self, e: &mut Expr) {
        let Expr::Call(c) = e else { return };
        let Expr::Path(p) = &*c.func else {
            syn::visit_mut::visit_expr_call_mut(self, c);
            return;
        };
        let path = p.path.clone();
        let segs: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        if is_rule_call(self.scope, &path) {
            for arg in c.args.iter_mut() {
                self.rule_arg(arg);
            }
            let mut callee = path.clone();
            match segs.first().map(String::as_str) {
                Some("super") => {
                    let up = Ident::new("super", Span::call_site());
                    callee.segments.insert(0, syn::PathSegment::from(up));
                }
                Some("self") => {
                    if let Some(first) = callee.segments.first_mut() {
                        first.ident = Ident::new("super", first.ident.span());
                    }
                }
                _ => {}
            }
            let args: Vec<Expr> = std::mem::take(&mut c.args).into_iter().collect();
            let (d, hs, span) = (&self.d, holes(args.len()), path.span());
            *e = fill(quote_spanned!(span=> #callee::frule::<#d>(#(#hs),*)), args);
            return;
        }
        let float_assoc = segs.len() == 2
            && (segs[0] == "f64" || segs[0] == "f32")
            && FLOAT_METHODS.contains(&segs[1].as_str());
        if float_assoc && self.class(e) == Class::Active {
            let Expr::Call(c) = e else { return };
            for arg in c.args.iter_mut() {
                self.child(arg, Want::Reading);
            }
            let args: Vec<Expr> = std::mem::take(&mut c.args).into_iter().collect();
            let (k, method, hs) = (&self.krate, &path.segments[1].ident, holes(args.len()));
            let span = path.span();
            *e = fill(quote_spanned!(span=> #k::Real::#method(#(#hs),*)), args);
            return;
        }
        let Expr::Call(c) = e else { return };
        let local_closure = segs.len() == 1 && self.scope.locals.contains(&segs[0]);
        let want = if local_closure {
            Want::Reading
        } else {
            Want::Any
        };
        for arg in c.args.iter_mut() {
            self.child(arg, want);
        }
    }

    /// An argument of a rule call: plain floats are lifted, a mutable view is reborrowed
    /// (so it can be used again after the call), an owned array passed by reference is
    /// viewed.
    fn rule_arg(&mut self, arg: &mut Expr) {
        if let Some((base, ArrayKind::Mut)) = self.array_kind(arg) {
            let pv = self.private();
            let span = span_of(arg);
            *arg = fill(
                quote_spanned!(span=> #pv::ArrayViewMut::view_mut(&mut #base)),
                [],
            );
            return;
        }
        if self.literal_slice_arg(arg) {
            return;
        }
        // A `&mut [f64; K]` parameter passed on: reborrowed, so it can be used after the
        // call (the callee's parameter is generic, where rustc would not reborrow).
        if let Expr::Path(p) = strip(arg)
            && p.path
                .get_ident()
                .is_some_and(|i| self.scope.mut_refs.contains(&i.to_string()))
        {
            let span = span_of(arg);
            let x = take(arg);
            *arg = fill(quote_spanned!(span=> &mut *#x), []);
            return;
        }
        if self.const_slice_arg(arg) {
            return;
        }
        // `g(A)`: a `const` item of unseen type, zero-lifted if it is a float.
        if self.class(arg) == Class::Other && self.scope.is_const_like(arg) {
            *arg = self.operand(take(arg));
            return;
        }
        self.child(arg, Want::Reading);
    }

    /// `g(&xs[a..b])` of a `#[constant] xs: &[f64]`: wrapped in `ConstSlice`, which a
    /// rule taking a slice zero-lifts and one taking a constant slice reads as it is.
    /// Whether `arg` was one.
    fn const_slice_arg(&self, arg: &mut Expr) -> bool {
        if !self.const_slice(arg) {
            return false;
        }
        let (pv, span) = (self.private(), span_of(arg));
        let x = take(arg);
        *arg = fill(quote_spanned!(span=> #pv::ConstSlice(#x)), []);
        true
    }

    /// `xs`, `&xs` or `&xs[a..b]` of a `#[constant]` float array `xs`.
    fn const_slice(&self, e: &Expr) -> bool {
        let inner = match strip(e) {
            Expr::Reference(r) if r.mutability.is_none() => strip(&r.expr),
            other => other,
        };
        let base = match inner {
            Expr::Index(ix) if matches!(strip(&ix.index), Expr::Range(_)) => strip(&ix.expr),
            other => other,
        };
        matches!(base, Expr::Path(p)
            if p.path.get_ident().is_some_and(|i| self.scope.const_arrays.contains(&i.to_string())))
    }

    fn method_call(&mut self, e: &mut Expr) {
        if crate::analyse::is_ndarray_dot(self.scope, e) {
            self.ndarray_dot(e);
            return;
        }
        let recv_active = match e {
            Expr::MethodCall(m) => self.mentions(&m.receiver),
            _ => return,
        };
        if self.array_method(e) {
            return;
        }
        let Expr::MethodCall(m) = e else { return };
        let method = m.method.to_string();
        // Our iterators yield values, not references: `copied` / `cloned` are no-ops.
        if recv_active && matches!(method.as_str(), "copied" | "cloned") && m.args.is_empty() {
            let mut recv = take(&mut m.receiver);
            self.expr(&mut recv, Want::Any);
            *e = recv;
            return;
        }
        // `10.31_f64.powf(2.0 * x)`: a plain receiver of a float method whose arguments are
        // lifted is lifted too.
        let lift_receiver = !recv_active
            && FLOAT_METHODS.contains(&method.as_str())
            && m.args.iter().any(|a| self.mentions(a))
            && self.class(&m.receiver) == Class::Inactive;
        self.child(&mut m.receiver, Want::Any);
        if lift_receiver {
            *m.receiver = self.lift(take(&mut m.receiver));
        }
        let recv_active = recv_active || lift_receiver;
        if recv_active && let Some(tf) = &mut m.turbofish {
            for arg in tf.args.iter_mut() {
                if let syn::GenericArgument::Type(t) = arg {
                    *t = map_type(t, self.float, &self.d, &self.krate);
                }
            }
        }
        let want = if recv_active {
            Want::Reading
        } else {
            Want::Any
        };
        let takes_iter = matches!(method.as_str(), "zip" | "chain");
        for arg in m.args.iter_mut() {
            if recv_active && let Some(f) = self.float_fn_value(arg) {
                // `map(f64::sin)`, `fold(f64::NEG_INFINITY, f64::max)`: the reading's.
                *arg = f;
                continue;
            }
            // `mlp.forward(&xs[a..b])`: as an argument of a function rule.
            if recv_active && !takes_iter && self.const_slice_arg(arg) {
                continue;
            }
            match arg {
                Expr::Closure(c) => self.closure(c, recv_active),
                _ => {
                    if !(takes_iter && self.array_as_iter(arg)) {
                        self.child(arg, want);
                    }
                }
            }
        }
        self.fixed_array_iter(e);
    }

    /// A method chain over a lifted array's elements that the primal reads through a
    /// reference (`x.iter().max_by(…).unwrap()`, `x.first().unwrap()`): at the reading
    /// it holds a value.
    fn yields_value(&mut self, e: &Expr) -> bool {
        let mut cur = strip(e);
        let mut by_value = false;
        while let Expr::MethodCall(m) = cur {
            match m.method.to_string().as_str() {
                "iter_mut" | "get_mut" | "first_mut" | "last_mut" | "as_mut" => return false,
                "iter" | "first" | "last" | "get" | "windows" | "chunks" => by_value = true,
                _ => {}
            }
            cur = strip(&m.receiver);
        }
        by_value && !matches!(cur, Expr::MethodCall(_)) && self.mentions(e)
    }

    /// `f64::sin` or `f32::max` as a value: the reading's method, `<D as Real>::sin`.
    fn float_fn_value(&self, e: &Expr) -> Option<Expr> {
        let Expr::Path(p) = strip(e) else { return None };
        let segs: Vec<&Ident> = p.path.segments.iter().map(|s| &s.ident).collect();
        let [ty, method] = segs.as_slice() else {
            return None;
        };
        let method_name = method.to_string();
        if p.qself.is_some()
            || *ty != self.float.name()
            || !FLOAT_METHODS.contains(&method_name.as_str())
        {
            return None;
        }
        let (k, d, span) = (&self.krate, &self.d, span_of(e));
        Some(fill(quote_spanned!(span=> <#d as #k::Real>::#method), []))
    }

    /// `a.dot(b)` on an ndarray: the `linalg` rules through `NdDot` (ndarray's own
    /// `dot` would multiply the reading's values element by element).
    fn ndarray_dot(&mut self, e: &mut Expr) {
        let Expr::MethodCall(m) = e else { return };
        let pv = self.private();
        // A constant ndarray (`#[constant]`) keeps plain elements: `NdConst` marks it.
        let scope = self.scope;
        let operand = |x: Expr| -> Expr {
            let inner = match x {
                Expr::Reference(r) => *r.expr,
                other => other,
            };
            let constant = matches!(&inner, Expr::Path(p) if p.path.get_ident().is_some_and(|i| {
                let name = i.to_string();
                scope.ndarrays.contains(&name) && !scope.active.contains(&name)
            }));
            let h = hole(0);
            if constant {
                fill(quote!(&#pv::NdConst(&#h)), [inner])
            } else {
                fill(quote!(&#h), [inner])
            }
        };
        let Some(arg) = m.args.first_mut() else {
            return;
        };
        self.child(arg, Want::Any);
        let arg = operand(take(arg));
        let recv = operand(take(&mut m.receiver));
        let (d, span, [hr, ha]) = (&self.d, m.method.span(), [hole(0), hole(1)]);
        *e = fill(
            quote_spanned!(span=> #pv::NdDot::<_, #d>::nd_dot(#hr, #ha)),
            [recv, arg],
        );
    }

    fn closure(&mut self, c: &mut syn::ExprClosure, over_values: bool) {
        if c.asyncness.is_some() {
            self.errors
                .at(&c.asyncness, "`async` closures cannot be differentiated");
        }
        let mut names = Vec::new();
        for input in c.inputs.iter_mut() {
            if over_values {
                strip_ref_pats(input);
                crate::analyse::pat_idents(input, &mut names);
            }
            self.map_pat_types(input);
        }
        if let syn::ReturnType::Type(_, ty) = &mut c.output {
            **ty = map_type(ty, self.float, &self.d, &self.krate);
        }
        // Items of a local's `iter_mut()` (`.zip(out.iter_mut()).map(|(x, o)| *o = x)`)
        // are references: their `*` stays.
        names.retain(|n| !self.scope.refs.contains(n));
        let pushed = names.len();
        self.value_params.extend(names);
        let breaks = std::mem::take(&mut self.breaks);
        self.expr(&mut c.body, Want::Any);
        self.breaks = breaks;
        let keep = self.value_params.len() - pushed;
        self.value_params.truncate(keep);
    }

    fn assign(&mut self, e: &mut Expr) {
        let span = span_of(e);
        let Expr::Assign(a) = e else { return };
        if let Expr::Index(ix) = &mut *a.left
            && let Some(base) = self.array_place(&ix.expr)
        {
            self.child(&mut ix.index, Want::Any);
            if self.array_kind(&ix.expr).is_some() {
                self.child(&mut a.right, Want::Reading);
            } else {
                self.field_store(&mut a.right);
            }
            let pv = self.private();
            let parts = [take(&mut a.right), take(&mut ix.index), base];
            let [rhs, idx, place] = [hole(0), hole(1), hole(2)];
            let tmp_i = Ident::new("__lifted_index", Span::mixed_site());
            let tmp_v = Ident::new("__lifted_element", Span::mixed_site());
            // The value first, then the place, as Rust evaluates `y[i] = v`.
            *e = fill(
                quote_spanned!(span=> {
                    let #tmp_v = #rhs;
                    let #tmp_i = #idx;
                    #pv::ArrayWrite::set(&mut #place, #tmp_i, #tmp_v);
                }),
                parts,
            );
            return;
        }
        if self.fieldish(&a.left) {
            self.child(&mut a.left, Want::Any);
            self.field_store(&mut a.right);
            return;
        }
        let target_active = match strip(&a.left) {
            Expr::Path(p) => p
                .path
                .get_ident()
                .is_some_and(|i| self.scope.active.contains(&i.to_string())),
            Expr::Unary(_) => true,
            other => place_root(other).is_some_and(|i| self.scope.active.contains(&i.to_string())),
        };
        self.child(&mut a.left, Want::Any);
        let want = if target_active {
            Want::Reading
        } else {
            Want::Any
        };
        self.child(&mut a.right, want);
    }

    fn for_loop(&mut self, e: &mut Expr) {
        let Expr::ForLoop(l) = e else { return };
        // `for v in y.iter_mut()`: the items are write-back handles, so `*v = …` stays.
        if let Some(names) = self.iter_mut_names(&l.expr, &l.pat) {
            let pushed = names.len();
            self.iter_mut_elems.extend(names);
            // Other items (`zip(x.iter())`) are values of the reading.
            strip_ref_pats(&mut l.pat);
            // The items are handles written through `*v = …`: they must be `mut`.
            make_bindings_mut(&mut l.pat);
            self.expr(&mut l.expr, Want::Any);
            self.block(&mut l.body, Want::Any);
            let keep = self.iter_mut_elems.len() - pushed;
            self.iter_mut_elems.truncate(keep);
            return;
        }
        let pv = self.private();
        if let Some((m, mutable)) = crate::analyse::nested_rows(self.scope, &l.expr) {
            // Rows of a nested array, as views (what the row's array methods take).
            let (m, span) = (m.clone(), span_of(&l.expr));
            *l.expr = if mutable {
                fill(
                    quote_spanned!(span=> #m.iter_mut().map(|r| #pv::ArrayViewMut::view_mut(r))),
                    [],
                )
            } else {
                fill(
                    quote_spanned!(span=> #m.iter().map(|r| #pv::ArrayView::view(r))),
                    [],
                )
            };
            self.block(&mut l.body, Want::Any);
            return;
        }
        let over_values = self.scope.mentions_active(&l.expr);
        let shared_slice = !matches!(strip(&l.expr), Expr::Reference(r) if r.mutability.is_some());
        if let Some((view, _)) = self.sub_slice(&l.expr, false).filter(|_| shared_slice) {
            // `for v in &x[1..]`: the sub-slice's view, iterated.
            let span = span_of(&l.expr);
            *l.expr = fill(quote_spanned!(span=> #pv::ArrayView::iter(&#view)), []);
        } else if let Some((base, _)) = self.array_kind(&l.expr) {
            let span = span_of(&l.expr);
            *l.expr = fill(quote_spanned!(span=> #pv::ArrayView::iter(&#base)), []);
        } else if let Expr::Reference(r) = &*l.expr {
            if let Some((base, _)) = self.array_kind(&r.expr) {
                let span = span_of(&l.expr);
                *l.expr = fill(quote_spanned!(span=> #pv::ArrayView::iter(&#base)), []);
            } else if r.mutability.is_none()
                && matches!(strip(&r.expr), Expr::Field(_))
                && self.fieldish(&r.expr)
            {
                // `for v in &self.w`: a field's elements, by value (see `FieldArray`).
                let mut field = (*r.expr).clone();
                self.child(&mut field, Want::Any);
                let span = span_of(&l.expr);
                *l.expr = fill(
                    quote_spanned!(span=> (&#pv::FieldArray(&#field)).iter()),
                    [],
                );
            } else if r.mutability.is_none()
                && let Expr::Path(p) = strip(&r.expr)
                && p.path
                    .get_ident()
                    .is_some_and(|i| self.scope.active.contains(&i.to_string()))
            {
                // `for v in &p` over a lifted fixed array: its items, by value.
                let (span, base) = (span_of(&l.expr), p.clone());
                *l.expr = fill(quote_spanned!(span=> #base.iter().copied()), []);
            } else {
                self.expr(&mut l.expr, Want::Any);
            }
        } else {
            self.expr(&mut l.expr, Want::Any);
        }
        if over_values {
            strip_ref_pats(&mut l.pat);
        }
        self.block(&mut l.body, Want::Any);
    }
}

/// Only ever run over an expression from the start of its lowering (`visit_expr_mut`
/// and the like on the expression `expr` is lowering): each subexpression it reaches is
/// then in its place and unchanged until its turn, as `Lowerer::child` requires.
impl VisitMut for Lowerer<'_> {
    fn visit_expr_mut(&mut self, e: &mut Expr) {
        self.child(e, Want::Any);
    }
    fn visit_block_mut(&mut self, b: &mut syn::Block) {
        self.block(b, Want::Any);
    }
    fn visit_local_mut(&mut self, l: &mut syn::Local) {
        self.local(l);
    }
}

fn make_bindings_mut(p: &mut Pat) {
    struct Mut;
    impl VisitMut for Mut {
        fn visit_pat_ident_mut(&mut self, i: &mut syn::PatIdent) {
            if i.by_ref.is_none() && i.mutability.is_none() {
                i.mutability = Some(Token![mut](i.ident.span()));
            }
        }
    }
    Mut.visit_pat_mut(p);
}

/// `&v` → `v` in patterns over iterators that yield values of the reading: each float
/// item is one reference level fewer than in the primal, so the `&` right around a
/// binding goes (`&&v` → `&v`, `(i, &v)` → `(i, v)`, `&(a, &b)` → `&(a, b)`).
fn strip_ref_pats(p: &mut Pat) {
    struct Strip;
    impl VisitMut for Strip {
        fn visit_pat_mut(&mut self, p: &mut Pat) {
            if let Pat::Reference(r) = p
                && r.mutability.is_none()
                && matches!(&*r.pat, Pat::Ident(i) if i.subpat.is_none())
            {
                *p = (*r.pat).clone();
                return;
            }
            syn::visit_mut::visit_pat_mut(self, p);
        }
    }
    Strip.visit_pat_mut(p);
}
