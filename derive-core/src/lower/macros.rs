//! Macros inside a rule body: `vec![…]` of floats becomes the reading's array,
//! `lifted::constant!` runs on primals and is zero-lifted, format-like macros have their
//! arguments lowered, and any other macro that receives lifted values is an error.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote, quote_spanned};
use syn::punctuated::Punctuated;
use syn::{Expr, Token};

use super::{Lowerer, Want};
use crate::analyse::{Class, Scope};
use crate::syntax::{FORMAT_MACROS, VecMacro, fill, hole, holes, span_of};

impl Lowerer<'_> {
    pub(super) fn expr_macro(&mut self, e: &mut Expr) {
        let span = span_of(e);
        let Expr::Macro(m) = e else { return };
        let name = m
            .mac
            .path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default();

        match name.as_str() {
            "vec" if self.scope.macro_is_float_vec(&m.mac) => {
                let Ok(body) = m.mac.parse_body::<VecMacro>() else {
                    return;
                };
                let (k, d, pv) = (self.krate.clone(), self.d.clone(), self.private());
                let vec_ty = quote!(<#d as #k::array::ArrayReading>::Vec);
                *e = match body {
                    VecMacro::Repeat(mut elem, mut n) => {
                        self.expr(&mut elem, Want::Reading);
                        self.expr(&mut n, Want::Any);
                        let [he, hn] = [hole(0), hole(1)];
                        fill(
                            quote_spanned!(span=> <#vec_ty as #pv::ArrayOwned<#d>>::from_elem(#he, #hn)),
                            [*elem, *n],
                        )
                    }
                    VecMacro::List(mut items) => {
                        for it in items.iter_mut() {
                            self.expr(it, Want::Reading);
                        }
                        let hs = holes(items.len());
                        fill(
                            quote_spanned!(span=> <#vec_ty as ::core::iter::FromIterator<#d>>::from_iter([#(#hs),*])),
                            items,
                        )
                    }
                };
            }
            "constant" => {
                // Not one expression: `constant!` itself says so (`crate::constant`).
                let Ok(mut inner) = m.mac.parse_body::<Expr>() else {
                    return;
                };
                let plain = self.scope.classify(&inner) == Class::Inactive;
                // Without lifted names the expression runs exactly as written, on
                // primals: its calls are plain functions, not rules.
                let untouched = !mentions_name(&inner.to_token_stream(), self.scope);
                if !untouched {
                    self.expr(&mut inner, Want::Any);
                }
                let plain = plain || untouched;
                let (k, d, f, pv) = (&self.krate, &self.d, self.float.ident(), self.private());
                let h = hole(0);
                let template = if plain {
                    quote_spanned!(span=> <#d as #k::Reading<#f>>::constant(#h))
                } else {
                    quote_spanned!(span=> <#d as #k::Reading<#f>>::constant(#pv::ToPrimal::to_primal(#h)))
                };
                *e = fill(template, [inner]);
            }
            _ => self.other_macro(&mut m.mac),
        }
    }

    pub(super) fn stmt_macro(&mut self, mac: &mut syn::Macro) {
        self.other_macro(mac);
    }

    fn other_macro(&mut self, mac: &mut syn::Macro) {
        let name = mac
            .path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default();
        if matches!(name.as_str(), "asm" | "global_asm" | "naked_asm") {
            self.errors.at(&mac.path, "inline assembly cannot be differentiated: give the function a hand-written rule (implement `lifted::FRule`)");
            return;
        }
        if FORMAT_MACROS.contains(&name.as_str()) {
            if let Ok(mut args) =
                mac.parse_body_with(Punctuated::<Expr, Token![,]>::parse_terminated)
            {
                // Where the format string sits: what follows it is printed, and prints the
                // primal of lifted values, as the primal function does.
                let format_at = match name.as_str() {
                    "write" | "writeln" | "assert" | "debug_assert" => Some(1),
                    "assert_eq" | "assert_ne" | "debug_assert_eq" | "debug_assert_ne" => Some(2),
                    "dbg" => None,
                    _ => Some(0),
                };
                let mut captured = Vec::new();
                for (i, a) in args.iter_mut().enumerate() {
                    let printed = format_at.is_some_and(|f| i > f);
                    if format_at == Some(i) {
                        captured = self.captured_lifted(a);
                    }
                    self.expr(a, Want::Any);
                    if printed {
                        self.print_primal(a);
                    }
                }
                let pv = self.private();
                let named: Vec<String> = args
                    .iter()
                    .filter_map(|a| match a {
                        Expr::Assign(n) => Some(n.left.to_token_stream().to_string()),
                        _ => None,
                    })
                    .collect();
                captured.retain(|c| !named.contains(&c.to_string()));
                for name in captured {
                    let span = name.span();
                    args.push(fill(
                        quote_spanned!(span=> #name = #pv::ToPrimal::to_primal(#name)),
                        [],
                    ));
                }
                mac.tokens = args.to_token_stream();
            }
            return;
        }
        if mentions_name(&mac.tokens, self.scope) {
            self.errors.at(
                &mac.path,
                format!(
                    "the macro `{name}!` receives lifted values and cannot be differentiated: \
                     compute the value outside the macro, or wrap an input-independent use in `lifted::constant!(…)`"
                ),
            );
        }
    }
}

impl Lowerer<'_> {
    /// A printed argument (`x`, `name = x`) that is a lifted value: its primal.
    fn print_primal(&self, a: &mut Expr) {
        let value = match a {
            Expr::Assign(named) => &mut *named.right,
            other => other,
        };
        let is_array_name = matches!(&*value, Expr::Path(p)
            if p.path.get_ident().is_some_and(|i| self.scope.arrays.contains_key(&i.to_string())));
        if is_array_name || !self.scope.mentions_active(value) {
            return;
        }
        if matches!(&*value, Expr::Path(_)) || self.scope.classify(value) == Class::Active {
            let (pv, span, h) = (self.private(), span_of(value), hole(0));
            *value = fill(
                quote_spanned!(span=> #pv::ToPrimal::to_primal(#h)),
                [crate::syntax::take(value)],
            );
        }
    }

    /// The lifted names a format string captures inline (`"{x}"`, `"{x:.3}"`), each once.
    fn captured_lifted(&self, fmt: &Expr) -> Vec<proc_macro2::Ident> {
        let Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) = fmt
        else {
            return Vec::new();
        };
        let text = s.value();
        let mut out: Vec<proc_macro2::Ident> = Vec::new();
        let mut rest = text.as_str();
        while let Some(open) = rest.find('{') {
            rest = &rest[open + 1..];
            if rest.starts_with('{') {
                rest = &rest[1..];
                continue;
            }
            let end = rest.find(['}', ':']).unwrap_or(rest.len());
            let name = rest[..end].trim();
            if self.scope.active.contains(name)
                && !self.scope.arrays.contains_key(name)
                && !out.iter().any(|i| i == name)
                && let Ok(id) = syn::parse_str::<proc_macro2::Ident>(name)
            {
                out.push(proc_macro2::Ident::new(&id.to_string(), s.span()));
            }
        }
        out
    }
}

fn mentions_name(tokens: &TokenStream, scope: &Scope) -> bool {
    tokens.clone().into_iter().any(|t| match t {
        proc_macro2::TokenTree::Ident(i) => {
            let n = i.to_string();
            scope.active.contains(&n) || scope.arrays.contains_key(&n)
        }
        proc_macro2::TokenTree::Group(g) => mentions_name(&g.stream(), scope),
        _ => false,
    })
}
