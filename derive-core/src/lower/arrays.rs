//! Float arrays inside a rule body: indexing reads and writes, sub-slices and
//! references, array methods called through their traits' paths, and the reading's own
//! constructors for `Vec::new()` / `Vec::with_capacity`.

use quote::quote;
use syn::spanned::Spanned;
use syn::{Expr, Ident};

use super::{Lowerer, Want, strip};
use crate::analyse::{ArrayKind, is_rule_call};

impl Lowerer<'_> {
    /// `Vec::new()` / `Vec::with_capacity(n)` for a float array become the reading's array.
    pub(super) fn array_init(&mut self, e: &mut Expr) {
        let span = e.span();
        if matches!(e, Expr::Macro(m) if m.mac.path.is_ident("vec") && m.mac.tokens.is_empty()) {
            let (k, d, pv) = (&self.krate, &self.d, self.private());
            *e = syn::parse_quote_spanned!(span=> <<#d as #k::Real>::Vec as #pv::Default>::default());
            return;
        }
        let Expr::Call(c) = e else { return };
        let Expr::Path(p) = &*c.func else { return };
        let segs: Vec<String> = p
            .path
            .segments
            .iter()
            .map(|s| s.ident.to_string())
            .collect();
        let (k, d, pv) = (&self.krate, &self.d, self.private());
        let vec_ty = quote!(<#d as #k::Real>::Vec);

        match segs
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
            .as_slice()
        {
            ["Vec", "new"] => {
                *e = syn::parse_quote_spanned!(span=> <#vec_ty as #pv::Default>::default())
            }
            ["Vec", "with_capacity"] => {
                let args = &c.args;
                *e = syn::parse_quote_spanned!(span=> <#vec_ty as #pv::ArrayOwned<#d>>::with_capacity(#args));
            }
            _ => {}
        }
    }

    pub(super) fn index_read(&mut self, e: &mut Expr) {
        let span = e.span();
        let Expr::Index(ix) = e else { return };
        if let Expr::Index(inner) = strip(&ix.expr)
            && self.array_kind(&inner.expr).is_some()
        {
            self.errors.at(
                &*ix.index,
                "nested indexing into a float array (`y[i][j]`) is not supported: \
                     use a flat array and index it with `i * n + j`",
            );
            return;
        }
        let field_range =
            self.array_kind(&ix.expr).is_none() && matches!(strip(&ix.index), Expr::Range(_));
        let Some(base) = self.array_place(&ix.expr).filter(|_| !field_range) else {
            // The result of a rule call (`g(x)[1]`, `let v = g(x); v[0]`) may be the
            // reading's array, which has no `Index`: read through `ArrayRead`.
            let call_result = match strip(&ix.expr) {
                Expr::Call(c) => {
                    matches!(&*c.func, Expr::Path(p) if is_rule_call(self.scope, &p.path))
                }
                Expr::Path(p) => p
                    .path
                    .get_ident()
                    .is_some_and(|i| self.call_results.contains(&i.to_string())),
                _ => false,
            };
            if call_result && !matches!(strip(&ix.index), Expr::Range(_)) {
                self.expr(&mut ix.expr, Want::Any);
                self.expr(&mut ix.index, Want::Any);
                let (pv, base, idx) = (self.private(), &ix.expr, &ix.index);
                *e = syn::parse_quote_spanned!(span=> #pv::ArrayRead::get(&#base, #idx));
                return;
            }
            syn::visit_mut::visit_expr_index_mut(self, ix);
            return;
        };
        self.expr(&mut ix.index, Want::Any);
        let (pv, idx) = (self.private(), &ix.index);

        *e = if matches!(strip(idx), Expr::Range(_)) {
            syn::parse_quote_spanned!(span=> #pv::ArrayView::slice(&#base, #idx))
        } else {
            syn::parse_quote_spanned!(span=> #pv::ArrayRead::get(&#base, #idx))
        };
    }

    pub(super) fn reference(&mut self, e: &mut Expr) {
        let span = e.span();
        let Expr::Reference(r) = e else { return };
        let mutable = r.mutability.is_some();
        let pv = self.private();

        if let Expr::Index(ix) = strip(&r.expr).clone()
            && let Some((base, _)) = self.array_kind(&ix.expr)
        {
            let mut idx = (*ix.index).clone();
            self.expr(&mut idx, Want::Any);
            *e = if mutable {
                syn::parse_quote_spanned!(span=> #pv::ArrayViewMut::slice_mut(&mut #base, #idx))
            } else {
                syn::parse_quote_spanned!(span=> #pv::ArrayView::slice(&#base, #idx))
            };
            return;
        }
        if let Some((base, kind)) = self.array_kind(&r.expr) {
            *e = match (kind, mutable) {
                (_, true) => {
                    syn::parse_quote_spanned!(span=> #pv::ArrayViewMut::view_mut(&mut #base))
                }
                (ArrayKind::Ref, false) => syn::parse_quote_spanned!(span=> #base),
                (_, false) => syn::parse_quote_spanned!(span=> #pv::ArrayView::view(&#base)),
            };
            return;
        }
        self.expr(&mut r.expr, Want::Any);
    }

    /// A method of a float array (`x.len()`, `x.iter()`, `y.swap(i, j)`, `v.push(e)`):
    /// called through its trait's path, so that the trait need not be in scope — where it
    /// were, it would also change the methods of plain `Vec<f64>` values.
    pub(super) fn array_method(&mut self, e: &mut Expr) -> bool {
        let Expr::MethodCall(m) = e else { return false };
        let method = m.method.to_string();
        let Some((tr, by_mut)) = array_trait(&method) else {
            return false;
        };
        let (base, base_name) = match self.array_kind(&m.receiver) {
            Some((base, _)) => (quote!(#base), base),
            None => match self.sub_slice(&m.receiver, by_mut) {
                Some(view) => view,
                None => return false,
            },
        };
        let want = if matches!(method.as_str(), "push" | "fill" | "resize" | "insert") {
            Want::Reading
        } else {
            Want::Any
        };
        for arg in m.args.iter_mut() {
            match arg {
                Expr::Closure(c) => self.closure(c, true),
                _ => self.expr(arg, want),
            }
        }
        // `v.push(v[0] * x)`: the arguments read the array, so they are evaluated before
        // it is borrowed mutably (what two-phase borrows do for the method call).
        let hoist = by_mut
            && m.args
                .iter()
                .any(|a| !matches!(a, Expr::Closure(_)) && mentions_ident(a, &base_name));
        let mut temps = Vec::new();
        if hoist {
            for (i, arg) in m.args.iter_mut().enumerate() {
                if matches!(arg, Expr::Closure(_)) {
                    continue;
                }
                let tmp = Self::arg_temp(i);
                temps.push(quote!(let #tmp = #arg;));
                *arg = syn::parse_quote!(#tmp);
            }
        }
        let (pv, args, name) = (self.private(), &m.args, &m.method);
        let tr = Ident::new(tr, name.span());
        let recv = if by_mut {
            quote!(&mut #base)
        } else {
            quote!(&#base)
        };
        let span = name.span();
        let comma = if args.is_empty() { quote!() } else { quote!(,) };
        *e = if hoist {
            syn::parse_quote_spanned!(span=> { #(#temps)* #pv::#tr::#name(#recv #comma #args) })
        } else {
            syn::parse_quote_spanned!(span=> #pv::#tr::#name(#recv #comma #args))
        };
        true
    }

    /// `x[a..b]` or `&x[a..b]` of a float array, as the receiver of an array method: the
    /// view, shared or mutable.
    fn sub_slice(
        &mut self,
        recv: &Expr,
        by_mut: bool,
    ) -> Option<(proc_macro2::TokenStream, Ident)> {
        let inner = match strip(recv) {
            Expr::Reference(r) => strip(&r.expr),
            other => other,
        };
        let Expr::Index(ix) = inner else { return None };
        if !matches!(strip(&ix.index), Expr::Range(_)) {
            return None;
        }
        let (base, _) = self.array_kind(&ix.expr)?;
        let mut idx = (*ix.index).clone();
        self.expr(&mut idx, Want::Any);
        let pv = self.private();
        let view = if by_mut {
            quote!(#pv::ArrayViewMut::slice_mut(&mut #base, #idx))
        } else {
            quote!(#pv::ArrayView::slice(&#base, #idx))
        };
        Some((view, base))
    }
}

/// The array trait that provides `method`, and whether it takes `&mut self`.
fn array_trait(method: &str) -> Option<(&'static str, bool)> {
    Some(match method {
        "len" | "is_empty" | "first" | "last" => ("ArrayRead", false),
        "swap" => ("ArrayWrite", true),
        "iter" | "split_at" | "to_vec" | "windows" | "chunks" => ("ArrayView", false),
        "iter_mut" | "split_at_mut" | "for_each_mut" | "copy_from_slice" | "fill" | "reverse"
        | "chunks_mut" => ("ArrayViewMut", true),
        "push" | "pop" | "extend_from_slice" | "resize" | "truncate" | "clear" | "insert"
        | "remove" | "reserve" => ("ArrayOwned", true),
        _ => return None,
    })
}

/// Whether the tokens of `e` name `base` (a float array's identifier).
fn mentions_ident(e: &Expr, base: &Ident) -> bool {
    fn walk(t: proc_macro2::TokenStream, name: &str) -> bool {
        t.into_iter().any(|t| match t {
            proc_macro2::TokenTree::Ident(i) => i == name,
            proc_macro2::TokenTree::Group(g) => walk(g.stream(), name),
            _ => false,
        })
    }
    let name = base.to_string();
    walk(quote!(#e), &name)
}
