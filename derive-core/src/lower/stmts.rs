//! Blocks and `let` statements: which bindings hold lifted values, so their types are
//! mapped and their initialisers lowered as the reading's.

use syn::visit_mut::VisitMut;
use syn::{Expr, Pat};

use super::arrays::mentions_ident;
use super::{Lowerer, Want, strip};
use crate::analyse::ArrayKind;
use crate::syntax::span_of;
use crate::types::map_type;

impl Lowerer<'_> {
    pub(super) fn block(&mut self, block: &mut syn::Block, want: Want) {
        self.split_as_chunks(block);
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

    /// `let (pairs, rest) = y.as_chunks::<2>();` binds the chunks as a slice
    /// (`&[[D; 2]]`, as the primal's `&[[f64; 2]]`): the call's result, which may own a
    /// gathered copy, is kept in a hidden local the slice borrows.
    fn split_as_chunks(&self, block: &mut syn::Block) {
        let at = |s: &syn::Stmt| match s {
            syn::Stmt::Local(l) => l.init.as_ref().and_then(|init| {
                let pat = match &l.pat {
                    Pat::Type(t) => &*t.pat,
                    p => p,
                };
                let pair = matches!(pat, Pat::Tuple(t) if t.elems.len() == 2);
                let kind = crate::analyse::is_as_chunks(self.scope, &init.expr)?;
                (pair && init.diverge.is_none()).then_some(kind)
            }),
            _ => None,
        };
        if !block.stmts.iter().any(|s| at(s).is_some()) {
            return;
        }
        let mut stmts = std::mem::take(&mut block.stmts).into_iter();
        while let Some(stmt) = stmts.next() {
            let (kind, mut l, init) = match (at(&stmt), stmt) {
                (Some(kind), syn::Stmt::Local(mut l)) => match l.init.take() {
                    Some(init) => (kind, l, init.expr),
                    None => {
                        block.stmts.push(syn::Stmt::Local(l));
                        continue;
                    }
                },
                (_, stmt) => {
                    block.stmts.push(stmt);
                    continue;
                }
            };
            // A gathered mutable copy is written back when it is dropped: where the
            // statements up to the last use of the chunks declare nothing, they go in an
            // inner block, so the array is usable again after that use, as in the primal.
            let mut names = Vec::new();
            crate::analyse::pat_idents(&l.pat, &mut names);
            let rest = stmts.as_slice();
            let last_use = rest
                .iter()
                .rposition(|s| names.iter().any(|n| mentions_ident(s, n)));
            let scoped = kind == ArrayKind::Mut
                && last_use.is_some_and(|j| {
                    let tail = j + 1 == rest.len() && matches!(rest[j], syn::Stmt::Expr(_, None));
                    !tail
                        && rest[..=j]
                            .iter()
                            .all(|s| matches!(s, syn::Stmt::Expr(..) | syn::Stmt::Macro(_)))
                });
            let outer = if scoped {
                std::mem::take(&mut block.stmts)
            } else {
                Vec::new()
            };
            let span = span_of(&init);
            let held = syn::Ident::new("chunks_held", proc_macro2::Span::mixed_site());
            let (borrow, mutability) = if kind == ArrayKind::Mut {
                (quote::quote!(&mut *#held.0), quote::quote!(mut))
            } else {
                (quote::quote!(&*#held.0), quote::quote!())
            };
            block
                .stmts
                .push(syn::parse_quote_spanned!(span=> let #mutability #held = #init;));
            l.init = Some(syn::LocalInit {
                eq_token: Default::default(),
                expr: Box::new(syn::parse_quote_spanned!(span=> (#borrow, #held.1))),
                diverge: None,
            });
            block.stmts.push(syn::Stmt::Local(l));
            if let Some(j) = last_use.filter(|_| scoped) {
                let used: Vec<syn::Stmt> = stmts.by_ref().take(j + 1).collect();
                let inner = std::mem::replace(&mut block.stmts, outer);
                block
                    .stmts
                    .push(syn::parse_quote_spanned!(span=> { #(#inner)* #(#used)* }));
            }
        }
    }

    pub(super) fn local(&mut self, l: &mut syn::Local) {
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
        if l.init.as_ref().is_some_and(|i| holds_chunks(&i.expr)) {
            return;
        }
        if let Some(init) = &mut l.init {
            // `let r = &y;` of a lifted scalar binds the value (see `by_value_operand`);
            // `*r` then reads as `r`, as for other lifted scalars.
            if active && !is_array && matches!(l.pat, Pat::Ident(_)) && self.scalar_ref(&init.expr)
            {
                self.by_value_operand(&mut init.expr);
            }
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

    /// `&x[i]` of a float array or `&x` of a float parameter: a reference to a scalar,
    /// whose value a `let` may bind. A struct (`&bodies[i]`, `&p`) is not `Copy`.
    fn scalar_ref(&self, e: &Expr) -> bool {
        let Expr::Reference(r) = e else { return false };
        match strip(&r.expr) {
            Expr::Index(ix) => self.array_kind(&ix.expr).is_some(),
            Expr::Path(p) => p
                .path
                .get_ident()
                .is_some_and(|i| self.scope.scalars.contains(&i.to_string())),
            _ => false,
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

    pub(super) fn map_pat_types(&mut self, pat: &mut Pat) {
        struct MapTypes<'l, 'a>(&'l Lowerer<'a>);
        impl VisitMut for MapTypes<'_, '_> {
            fn visit_pat_type_mut(&mut self, t: &mut syn::PatType) {
                *t.ty = map_type(&t.ty, self.0.float, &self.0.d, &self.0.krate);
                syn::visit_mut::visit_pat_type_mut(self, t);
            }
        }
        MapTypes(self).visit_pat_mut(pat);
    }
}

/// The `(&*chunks_held.0, chunks_held.1)` of [`Lowerer::split_as_chunks`]: already in
/// the reading's terms.
fn holds_chunks(e: &Expr) -> bool {
    matches!(e, Expr::Tuple(t) if t.elems.iter().any(|e| matches!(e,
        Expr::Field(f) if matches!(&*f.base, Expr::Path(p) if p.path.is_ident("chunks_held")))))
}
