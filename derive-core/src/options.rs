//! `#[autodiff(...)]` options, parsed with darling.

use darling::FromMeta;
use darling::ast::NestedMeta;
use darling::util::Flag;
use proc_macro2::{Span, TokenStream};
use syn::Path;

use crate::errors::Errors;

/// The widest chunk a rule may declare: beyond it, stack-held `NDual`s grow large and
/// the drivers' own chunk heuristic serves better.
pub const MAX_CHUNK: usize = 64;

/// Options as written by the user.
#[derive(Debug, Default, FromMeta)]
struct RawOptions {
    forward: Flag,
    reverse: Flag,
    chunk: Option<syn::LitInt>,
    #[darling(rename = "crate")]
    krate: Option<Path>,
}

/// Checked options.
#[derive(Debug, Clone)]
pub struct Options {
    /// Default chunk width for drivers.
    pub chunk: usize,
    /// Path to the runtime crate (`::lifted` unless `crate = path`).
    pub krate: Path,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            chunk: 8,
            krate: syn::parse_quote!(::lifted),
        }
    }
}

/// Parses the attribute's arguments; every problem is recorded and defaults are used
/// in its place, so expansion continues.
pub fn parse(attr: TokenStream, errors: &mut Errors) -> Options {
    let mut out = Options::default();
    let list = match NestedMeta::parse_meta_list(attr) {
        Ok(list) => list,
        Err(e) => {
            errors.push(e);
            return out;
        }
    };
    let raw = match RawOptions::from_list(&list) {
        Ok(raw) => raw,
        Err(e) => {
            errors.push(syn::Error::from(e.with_span(&Span::call_site())));
            return out;
        }
    };
    if raw.reverse.is_present() {
        errors.push(syn::Error::new(
            raw.reverse.span(),
            "lifted differentiates in forward mode only: write `#[autodiff(forward)]`",
        ));
    } else if !raw.forward.is_present() {
        errors.push(syn::Error::new(
            Span::call_site(),
            "missing the mode: write `#[autodiff(forward)]` or `#[autodiff(forward, chunk = 8)]`",
        ));
    }
    if let Some(lit) = raw.chunk {
        match lit.base10_parse::<usize>() {
            Ok(n) if (1..=MAX_CHUNK).contains(&n) => out.chunk = n,
            _ => errors.push(syn::Error::new(
                lit.span(),
                format!("`chunk` must be an integer from 1 to {MAX_CHUNK}"),
            )),
        }
    }
    if let Some(path) = raw.krate {
        out.krate = path;
    }
    out
}
