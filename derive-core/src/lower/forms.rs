//! Smaller forms of the body that need a look at their surroundings: `break` values of a
//! `loop`, writes into a field or element of a local, iterator chains whose items are
//! `iter_mut` handles, literal arrays passed as slices, iterators over fixed arrays.

use proc_macro2::Span;
use quote::quote;
use syn::spanned::Spanned;
use syn::visit::Visit;
use syn::{Expr, Ident, Pat};

use super::{Lowerer, Want, strip};
use crate::analyse::pat_idents;

/// The values of the `break`s that leave the loop with body `body` (labelled `label`),
/// not those of nested loops or closures.
pub fn loop_breaks<'b>(body: &'b syn::Block, label: Option<&syn::Label>) -> Vec<&'b Expr> {
    struct Find<'b, 'l> {
        label: Option<&'l syn::Label>,
        depth: usize,
        out: Vec<&'b Expr>,
    }
    impl<'b> Visit<'b> for Find<'b, '_> {
        fn visit_expr_break(&mut self, b: &'b syn::ExprBreak) {
            let ours = match &b.label {
                Some(l) => self.label.is_some_and(|own| own.name.ident == l.ident),
                None => self.depth == 0,
            };
            if ours && let Some(v) = &b.expr {
                self.out.push(v);
            }
            syn::visit::visit_expr_break(self, b);
        }
        fn visit_expr_loop(&mut self, l: &'b syn::ExprLoop) {
            self.depth += 1;
            syn::visit::visit_expr_loop(self, l);
            self.depth -= 1;
        }
        fn visit_expr_while(&mut self, l: &'b syn::ExprWhile) {
            self.depth += 1;
            syn::visit::visit_expr_while(self, l);
            self.depth -= 1;
        }
        fn visit_expr_for_loop(&mut self, l: &'b syn::ExprForLoop) {
            self.depth += 1;
            syn::visit::visit_expr_for_loop(self, l);
            self.depth -= 1;
        }
        fn visit_expr_closure(&mut self, _: &'b syn::ExprClosure) {}
        fn visit_item(&mut self, _: &'b syn::Item) {}
    }
    let mut f = Find {
        label,
        depth: 0,
        out: Vec::new(),
    };
    f.visit_block(body);
    f.out
}

/// The local written by `t.0 = …` or `a[i] = …` (through any chain of fields and
/// indices); `None` for other places.
pub fn place_root(target: &Expr) -> Option<&Ident> {
    fn root(e: &Expr) -> Option<&Ident> {
        match strip(e) {
            Expr::Path(p) => p.path.get_ident(),
            Expr::Field(f) => root(&f.base),
            Expr::Index(i) => root(&i.expr),
            _ => None,
        }
    }
    match strip(target) {
        Expr::Field(f) => root(&f.base),
        Expr::Index(i) => root(&i.expr),
        _ => None,
    }
}

/// `Vec::new()`, `Vec::with_capacity(n)` or `vec![]`: an empty vector whose element type
/// the primal infers from later uses.
pub fn is_empty_vec(e: &Expr) -> bool {
    match strip(e) {
        Expr::Call(c) => match &*c.func {
            Expr::Path(p) => {
                let segs: Vec<String> = p
                    .path
                    .segments
                    .iter()
                    .map(|s| s.ident.to_string())
                    .collect();
                matches!(
                    segs.iter()
                        .rev()
                        .take(2)
                        .map(String::as_str)
                        .collect::<Vec<_>>()
                        .as_slice(),
                    ["new" | "with_capacity", "Vec"]
                )
            }
            _ => false,
        },
        Expr::Macro(m) => m.mac.path.is_ident("vec") && m.mac.tokens.is_empty(),
        _ => false,
    }
}

/// Whether a method chain (`x.iter().enumerate().map(…)`) calls `method` anywhere.
pub fn chain_has(e: &Expr, method: &str) -> bool {
    match strip(e) {
        Expr::MethodCall(m) => m.method == method || chain_has(&m.receiver, method),
        _ => false,
    }
}

impl Lowerer<'_> {
    /// The names of `pat` bound to `iter_mut` handles of a float array when `pat`
    /// destructures the items of `e` (`y.iter_mut()`, `.enumerate()`, `.zip(…)`, `.rev()`,
    /// `.skip(n)`, `.take(n)`, `.step_by(n)`); `None` when `e` has no such handles.
    pub(super) fn iter_mut_names(&self, e: &Expr, pat: &Pat) -> Option<Vec<String>> {
        let Expr::MethodCall(m) = strip(e) else {
            return None;
        };
        let pair = |p: &Pat| match p {
            Pat::Tuple(t) if t.elems.len() == 2 => Some((t.elems[0].clone(), t.elems[1].clone())),
            _ => None,
        };
        match m.method.to_string().as_str() {
            "iter_mut" if m.args.is_empty() => self.array_kind(&m.receiver).map(|_| {
                let mut names = Vec::new();
                pat_idents(pat, &mut names);
                names
            }),
            "enumerate" => {
                let (_, item) = pair(pat)?;
                self.iter_mut_names(&m.receiver, &item)
            }
            "zip" => {
                let (a, b) = pair(pat)?;
                let left = self.iter_mut_names(&m.receiver, &a);
                let right = m.args.first().and_then(|arg| self.iter_mut_names(arg, &b));
                match (left, right) {
                    (None, None) => None,
                    (l, r) => Some(l.into_iter().chain(r).flatten().collect()),
                }
            }
            "rev" | "skip" | "take" | "step_by" => self.iter_mut_names(&m.receiver, pat),
            _ => None,
        }
    }

    /// `break v`: the value is lifted when the loop it leaves produces a lifted value.
    pub(super) fn break_value(&mut self, b: &mut syn::ExprBreak) {
        let Some(v) = &mut b.expr else { return };
        let target = match &b.label {
            Some(l) => self
                .breaks
                .iter()
                .rev()
                .find(|(label, _, _)| label.as_ref() == Some(&l.ident)),
            None => self.breaks.iter().rev().find(|(_, _, block)| !block),
        };
        let want = target.map_or(Want::Any, |(_, w, _)| *w);
        self.expr(v, want);
    }

    /// Lowers `f` inside a loop (or labelled block) whose `break` values are wanted as
    /// `want`.
    pub(super) fn in_loop(
        &mut self,
        label: Option<&syn::Label>,
        want: Want,
        block: bool,
        f: impl FnOnce(&mut Self),
    ) {
        self.breaks
            .push((label.map(|l| l.name.ident.clone()), want, block));
        f(self);
        self.breaks.pop();
    }

    /// A literal array passed by reference to a rule (`g(&[a, 1.0])`, `g(&vec![a, b])`):
    /// built as an array of the reading and viewed, so it reads as the callee's slice
    /// parameter. `None` when `arg` is not such a literal.
    pub(super) fn literal_slice_arg(&mut self, arg: &Expr) -> Option<Expr> {
        let Expr::Reference(r) = strip(arg) else {
            return None;
        };
        if r.mutability.is_some() {
            return None;
        }
        let span = arg.span();
        let (k, d, pv) = (self.krate.clone(), self.d.clone(), self.private());
        let vec_ty = quote!(<#d as #k::Real>::Vec);
        let owned: Expr = match strip(&r.expr) {
            Expr::Array(a) => {
                let mut items: Vec<Expr> = a.elems.iter().cloned().collect();
                for it in &mut items {
                    self.expr(it, Want::Reading);
                }
                syn::parse_quote_spanned!(span=> <#vec_ty as ::core::iter::FromIterator<#d>>::from_iter([#(#items),*]))
            }
            Expr::Repeat(a) => {
                let (mut elem, mut n) = ((*a.expr).clone(), (*a.len).clone());
                self.expr(&mut elem, Want::Reading);
                self.expr(&mut n, Want::Any);
                syn::parse_quote_spanned!(span=> <#vec_ty as #pv::ArrayOwned<#d>>::from_elem(#elem, #n))
            }
            Expr::Macro(m)
                if m.mac.path.is_ident("vec") && self.scope.macro_is_float_vec(&m.mac) =>
            {
                let mut v = (*r.expr).clone();
                self.expr(&mut v, Want::Reading);
                v
            }
            _ => return None,
        };
        Some(syn::parse_quote_spanned!(span=> #pv::ArrayView::view(&#owned)))
    }

    /// `x.iter()` on a lifted fixed array (`[D; K]`, not a float array): its items are
    /// `&D`, so they are copied to read as values like every other lifted iterator.
    pub(super) fn fixed_array_iter(&self, e: &mut Expr) {
        let Expr::MethodCall(m) = e else { return };
        if m.method != "iter" || !m.args.is_empty() {
            return;
        }
        let Expr::Path(p) = strip(&m.receiver) else {
            return;
        };
        let Some(id) = p.path.get_ident() else { return };
        let name = id.to_string();
        if !self.scope.active.contains(&name) || self.scope.arrays.contains_key(&name) {
            return;
        }
        let span = m.method.span();
        let copied = Ident::new("copied", span);
        *e = syn::parse_quote_spanned!(span=> #e.#copied());
    }

    /// `y` or `&y` naming a float array, as the argument of `zip` / `chain`: the array's
    /// iterator (a view of the reading is not `IntoIterator`).
    pub(super) fn array_as_iter(&self, arg: &mut Expr) -> bool {
        let base = match strip(arg) {
            Expr::Reference(r) if r.mutability.is_none() => self.array_kind(&r.expr),
            other => self.array_kind(other),
        };
        let Some((base, _)) = base else {
            return false;
        };
        let (pv, span) = (self.private(), arg.span());
        *arg = syn::parse_quote_spanned!(span=> #pv::ArrayView::iter(&#base));
        true
    }

    /// Hygienic name of the `i`-th hoisted argument.
    pub(super) fn arg_temp(i: usize) -> Ident {
        Ident::new(&format!("__lifted_arg{i}"), Span::mixed_site())
    }
}
