//! The transformation behind `#[autodiff]`, as a plain library: `syn` in, `syn` out.
//!
//! This crate has no `proc_macro` dependency so that every step is unit-tested with
//! `parse_quote!`. The procedural macro crate `lifted-macros` is a thin wrapper.
//!
//! Pipeline: parse the options ([`options`]) and the function, within a bound on
//! nesting ([`depth`]) → analyse activity ([`analyse`]) → validate and lower the body
//! ([`lower`]) → emit the primal function unchanged plus the rule module ([`emit`]).
//! Every problem is collected and reported; the primal function is emitted even when
//! the rule cannot be, so IDEs keep working.
#![forbid(unsafe_code)]
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub mod analyse;
pub mod depth;
pub mod emit;
pub mod errors;
pub mod lift;
pub mod lower;
pub mod methods;
pub mod options;
pub mod syntax;
pub mod types;

use proc_macro2::TokenStream;
use quote::quote;

/// Expands `lifted::constant!(expr)` outside a rule: the expression itself. Anything
/// but one expression is reported in lifted's words; inside a rule the lowering leaves
/// such a call as it is, so both copies give one message at one place.
pub fn constant(input: TokenStream) -> TokenStream {
    match syn::parse2::<syn::Expr>(input.clone()) {
        Ok(_) => input,
        Err(e) => syn::Error::new(
            e.span(),
            "`constant!` takes one expression: write `lifted::constant!(expr)`",
        )
        .to_compile_error(),
    }
}

/// Expands `#[autodiff(attr)] item`. Never panics: problems become `compile_error!`s
/// next to the unchanged primal item.
pub fn autodiff(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = errors::Errors::new();
    let opts = options::parse(attr, &mut errors);
    if !depth::check_tokens(&item, 0, &mut errors) {
        return too_deep(&item, &errors);
    }
    let func: syn::ItemFn = match syn::parse2(item.clone()) {
        Ok(f) => f,
        Err(fn_error) => {
            let impl_block = syn::parse2::<syn::ItemImpl>(item.clone());
            if let Ok(block) = impl_block {
                if !depth::check_impl(&block, &mut errors) {
                    return too_deep(&item, &errors);
                }
                let primal = methods::strip_constant_attrs(&block);
                let rule = if errors.is_empty() {
                    methods::expand(&block, &opts, &mut errors)
                } else {
                    TokenStream::new()
                };
                let errs = errors.to_compile_errors();
                return quote!(#primal #rule #errs);
            }
            match item_kind(&item) {
                // The item is meant as a function or an `impl` block: `syn`'s error says
                // where its syntax goes wrong.
                Some(ItemKind::Fn) => errors.push(fn_error),
                Some(ItemKind::Impl) => {
                    if let Err(e) = impl_block {
                        errors.push(e);
                    }
                }
                None => {
                    errors.push(syn::Error::new_spanned(
                        &item,
                        "`#[autodiff]` applies to functions and `impl` blocks: put it on a `fn` item, or on the \
                         inherent `impl` block of a `#[derive(lifted::Lift)]` type",
                    ));
                    if let Err(e) = syn::parse2::<syn::Item>(item.clone()) {
                        errors.push(e);
                    }
                }
            }
            let errs = errors.to_compile_errors();
            return quote!(#item #errs);
        }
    };
    if !depth::check_fn(&func, &mut errors) {
        return too_deep(&item, &errors);
    }
    let primal = emit::strip_constant_attrs(&func);
    let rule = if errors.is_empty() {
        emit::expand(&func, &opts, &mut errors)
    } else {
        TokenStream::new()
    };
    let errs = errors.to_compile_errors();
    quote!(#primal #rule #errs)
}

/// The expansion of an item nested too deeply: its own tokens, not the parsed item
/// printed back, which would recurse as deeply as the item nests.
fn too_deep(item: &TokenStream, errors: &errors::Errors) -> TokenStream {
    let primal = strip_constant_tokens(item.clone(), true);
    let errs = errors.to_compile_errors();
    quote!(#primal #errs)
}

/// Removes the inert `#[constant]` markers from the parameters of a function's tokens,
/// or of the functions of an `impl` block's (`outer`), without parsing them.
fn strip_constant_tokens(tokens: TokenStream, outer: bool) -> TokenStream {
    use proc_macro2::{Delimiter, Group, TokenTree};
    let is_constant =
        |g: &Group| g.delimiter() == Delimiter::Bracket && g.stream().to_string() == "constant";
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out: Vec<TokenTree> = Vec::with_capacity(trees.len());
    let mut params_next = false;
    let mut i = 0;
    while i < trees.len() {
        let tt = &trees[i];
        i += 1;
        match tt {
            TokenTree::Ident(id) if id == "fn" => params_next = true,
            TokenTree::Group(g) if params_next && g.delimiter() == Delimiter::Parenthesis => {
                params_next = false;
                let mut params: Vec<TokenTree> = Vec::new();
                let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                let mut j = 0;
                while j < inner.len() {
                    if let (TokenTree::Punct(p), Some(TokenTree::Group(attr))) =
                        (&inner[j], inner.get(j + 1))
                        && p.as_char() == '#'
                        && is_constant(attr)
                    {
                        j += 2;
                        continue;
                    }
                    params.push(inner[j].clone());
                    j += 1;
                }
                let mut stripped = Group::new(g.delimiter(), params.into_iter().collect());
                stripped.set_span(g.span());
                out.push(TokenTree::Group(stripped));
                continue;
            }
            // The methods of an `impl` block, one level down.
            TokenTree::Group(g) if outer && !params_next && g.delimiter() == Delimiter::Brace => {
                let mut inner = Group::new(g.delimiter(), strip_constant_tokens(g.stream(), false));
                inner.set_span(g.span());
                out.push(TokenTree::Group(inner));
                continue;
            }
            _ => {}
        }
        out.push(tt.clone());
    }
    out.into_iter().collect()
}

enum ItemKind {
    Fn,
    Impl,
}

/// What an item that `syn` cannot parse is meant to be: the first of `fn name` and
/// `impl` before its body, past its attributes.
fn item_kind(item: &TokenStream) -> Option<ItemKind> {
    use proc_macro2::{Delimiter, TokenTree};
    let tokens: Vec<TokenTree> = item.clone().into_iter().collect();
    for (i, tt) in tokens.iter().enumerate() {
        let after_pound =
            i > 0 && matches!(&tokens[i - 1], TokenTree::Punct(p) if p.as_char() == '#');
        match tt {
            TokenTree::Group(g) if after_pound && g.delimiter() == Delimiter::Bracket => {}
            TokenTree::Group(g) if g.delimiter() == Delimiter::Brace => return None,
            // `fn name`, not the `fn(f64) -> f64` of a type.
            TokenTree::Ident(id)
                if id == "fn" && matches!(tokens.get(i + 1), Some(TokenTree::Ident(_))) =>
            {
                return Some(ItemKind::Fn);
            }
            TokenTree::Ident(id) if id == "impl" => return Some(ItemKind::Impl),
            TokenTree::Punct(p) if p.as_char() == ';' => return None,
            _ => {}
        }
    }
    None
}

/// Expands `#[derive(Lift)]` on `item`: the dual struct and the `Param` implementation
/// (see [`lift`]). Never panics. The runtime crate is `::lifted` unless the item says
/// `#[lift(crate = path)]`.
pub fn derive_lift(item: TokenStream) -> TokenStream {
    lift::derive(item, &options::default_crate())
}
