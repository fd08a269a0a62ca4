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
                    let arg: Expr = syn::parse_quote_spanned!(name.span()=> #name = #pv::ToPrimal::to_primal(#name));
                    args.push(arg);
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
            let (pv, span) = (self.private(), value.span());
            *value = syn::parse_quote_spanned!(span=> #pv::ToPrimal::to_primal(#value));
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
