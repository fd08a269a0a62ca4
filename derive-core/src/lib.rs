//! The transformation behind `#[autodiff]`, as a plain library: `syn` in, `syn` out.
//!
//! This crate has no `proc_macro` dependency so that every step is unit-tested with
//! `parse_quote!`. The procedural macro crate `lifted-macros` is a thin wrapper.
//!
//! Pipeline: parse the options ([`options`]) and the function → analyse activity
//! ([`analyse`]) → validate and lower the body ([`lower`]) → emit the primal function
//! unchanged plus the rule module ([`emit`]). Every problem is collected and reported;
//! the primal function is emitted even when the rule cannot be, so IDEs keep working.
#![forbid(unsafe_code)]
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub mod analyse;
pub mod emit;
pub mod errors;
pub mod lift;
pub mod lower;
pub mod methods;
pub mod options;
pub mod types;

use proc_macro2::TokenStream;
use quote::quote;

/// Expands `#[autodiff(attr)] item`. Never panics: problems become `compile_error!`s
/// next to the unchanged primal item.
pub fn autodiff(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = errors::Errors::new();
    let opts = options::parse(attr, &mut errors);
    let func: syn::ItemFn = match syn::parse2(item.clone()) {
        Ok(f) => f,
        Err(_) => {
            if let Ok(block) = syn::parse2::<syn::ItemImpl>(item.clone()) {
                let primal = methods::strip_constant_attrs(&block);
                let rule = if errors.is_empty() {
                    methods::expand(&block, &opts, &mut errors)
                } else {
                    TokenStream::new()
                };
                let errs = errors.to_compile_errors();
                return quote!(#primal #rule #errs);
            }
            errors.push(syn::Error::new_spanned(
                &item,
                "`#[autodiff]` applies to functions and `impl` blocks: put it on a `fn` item, or on the \
                 inherent `impl` block of a `#[derive(lifted::Lift)]` type",
            ));
            let errs = errors.to_compile_errors();
            return quote!(#item #errs);
        }
    };
    let primal = emit::strip_constant_attrs(&func);
    let rule = if errors.is_empty() {
        emit::expand(&func, &opts, &mut errors)
    } else {
        TokenStream::new()
    };
    let errs = errors.to_compile_errors();
    quote!(#primal #rule #errs)
}

/// Expands `#[derive(Lift)]` on `item`: the dual struct and the `Param` implementation
/// (see [`lift`]). Never panics.
pub fn derive_lift(item: TokenStream) -> TokenStream {
    lift::derive(item, &syn::parse_quote!(::lifted))
}
