//! Macros inside a rule body: `vec![…]` of floats becomes the reading's array,
//! `lifted::constant!` runs on primals and is zero-lifted, format-like macros have their
//! arguments lowered, and any other macro that receives lifted values is an error.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Expr, Token};

use super::{Lowerer, Want};
use crate::analyse::{Class, Scope};

/// `vec![elem; n]` or `vec![a, b, …]`.
pub enum VecMacro {
    /// `vec![elem; n]`
    Repeat(Box<Expr>, Box<Expr>),
    /// `vec![a, b, …]`
    List(Vec<Expr>),
}

impl Parse for VecMacro {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        if input.is_empty() {
            return Ok(VecMacro::List(Vec::new()));
        }
        let first: Expr = input.parse()?;
        if input.peek(Token![;]) {
            input.parse::<Token![;]>()?;
            let n: Expr = input.parse()?;
            return Ok(VecMacro::Repeat(Box::new(first), Box::new(n)));
        }
        let mut items = vec![first];
        while input.peek(Token![,]) {
            input.parse::<Token![,]>()?;
            if input.is_empty() {
                break;
            }
            items.push(input.parse()?);
        }
        Ok(VecMacro::List(items))
    }
}

/// Macros whose arguments are ordinary expressions and that only read values.
const FORMAT_MACROS: &[&str] = &[
    "println",
    "print",
    "eprintln",
    "eprint",
    "format",
    "write",
    "writeln",
    "assert",
    "assert_eq",
    "assert_ne",
    "debug_assert",
    "debug_assert_eq",
    "debug_assert_ne",
    "panic",
    "unreachable",
    "dbg",
];

impl Lowerer<'_> {
    pub(super) fn expr_macro(&mut self, e: &mut Expr) {
        let span = e.span();
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
                let vec_ty = quote!(<#d as #k::Real>::Vec);
                *e = match body {
                    VecMacro::Repeat(mut elem, mut n) => {
                        self.expr(&mut elem, Want::Reading);
                        self.expr(&mut n, Want::Any);
                        syn::parse_quote_spanned!(span=> <#vec_ty as #pv::ArrayOwned<#d>>::from_elem(#elem, #n))
                    }
                    VecMacro::List(mut items) => {
                        for it in items.iter_mut() {
                            self.expr(it, Want::Reading);
                        }
                        syn::parse_quote_spanned!(span=> <#vec_ty as ::core::iter::FromIterator<#d>>::from_iter([#(#items),*]))
                    }
                };
            }
            "constant" => {
                let Ok(mut inner) = m.mac.parse_body::<Expr>() else {
                    self.errors.at(&m.mac, "`constant!` takes one expression");
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
                *e = if plain {
                    syn::parse_quote_spanned!(span=> <#d as #k::Reading<#f>>::constant(#inner))
                } else {
                    syn::parse_quote_spanned!(span=> <#d as #k::Reading<#f>>::constant(#pv::ToPrimal::to_primal(#inner)))
                };
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
                for a in args.iter_mut() {
                    self.expr(a, Want::Any);
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
