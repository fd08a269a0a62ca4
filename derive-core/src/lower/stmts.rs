//! Blocks and `let` statements: which bindings hold lifted values, so their types are
//! mapped and their initialisers lowered as the reading's.

use syn::visit_mut::VisitMut;
use syn::{Expr, Pat};

use super::{Lowerer, Want, strip};
use crate::analyse::ArrayKind;
use crate::syntax::span_of;
use crate::types::map_type;

impl Lowerer<'_> {
    pub(super) fn block(&mut self, block: &mut syn::Block, want: Want) {
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
