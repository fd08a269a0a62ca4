//! `for` loops and closures over lifted items: the items are values of the reading,
//! one reference level fewer than in the primal, so their patterns and `*`s change.

use quote::quote_spanned;
use syn::visit_mut::VisitMut;
use syn::{Expr, Pat, Token};

use super::{Lowerer, Want, strip};
use crate::syntax::{fill, span_of};
use crate::types::map_type;

impl Lowerer<'_> {
    pub(super) fn closure(&mut self, c: &mut syn::ExprClosure, over_values: bool) {
        if c.asyncness.is_some() {
            self.errors.at(
                &c.asyncness,
                "`async` closures cannot be differentiated: use a plain closure (`|x| …`)",
            );
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

    pub(super) fn for_loop(&mut self, e: &mut Expr) {
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
