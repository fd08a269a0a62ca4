//! `#[autodiff(...)]` options, and the `crate = path` option `#[derive(Lift)]` shares.
//!
//! Parsed by hand rather than with `darling`: a flag written with arguments
//! (`forward()`) makes `darling`'s `Flag` panic, and each mistake here gets an error on
//! its own token that says what to write instead.

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};
use syn::Path;
use syn::ext::IdentExt;
use syn::parse::{ParseStream, Parser};
use syn::spanned::Spanned;

use crate::errors::Errors;

/// The widest chunk a rule may declare: beyond it, stack-held `NDual`s grow large and
/// the drivers' own chunk heuristic serves better.
pub const MAX_CHUNK: usize = 64;

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
            krate: default_crate(),
        }
    }
}

/// `::lifted`, the runtime crate's path unless `crate = path` says otherwise.
pub fn default_crate() -> Path {
    let mut path = Path::from(syn::Ident::new("lifted", Span::call_site()));
    path.leading_colon = Some(Default::default());
    path
}

const CRATE_PATH: &str = "`crate = …` must be a plain path such as `::lifted` or \
                          `my_crate::lifted`, without generic arguments";

/// One `name`, `name = value` or `name(…)` of an attribute's list.
struct Item {
    name: syn::Ident,
    value: Option<Value>,
    /// The arguments of `name(…)`, `name[…]` or `name {…}`.
    args: Option<proc_macro2::Group>,
}

enum Value {
    Crate(Path),
    Expr(syn::Expr),
}

/// Parses `a, b = value, c(…)`: the value of `crate` as a path (or a string holding
/// one), others as expressions.
fn parse_items(input: ParseStream<'_>) -> syn::Result<Vec<Item>> {
    let mut items = Vec::new();
    while !input.is_empty() {
        let name = input.call(syn::Ident::parse_any).map_err(|e| {
            syn::Error::new(
                e.span(),
                "expected an option: write `#[autodiff(forward)]`, optionally with \
                 `chunk = N` and `crate = path`",
            )
        })?;
        let mut item = Item {
            name,
            value: None,
            args: None,
        };
        if input.peek(syn::Token![=]) {
            input.parse::<syn::Token![=]>()?;
            item.value = Some(if item.name == "crate" {
                Value::Crate(parse_crate_path(input)?)
            } else {
                Value::Expr(input.parse()?)
            });
        } else if let Some((tree, _)) = input.cursor().token_tree()
            && let proc_macro2::TokenTree::Group(g) = tree
        {
            input.parse::<proc_macro2::TokenTree>()?;
            item.args = Some(g);
        }
        items.push(item);
        if input.is_empty() {
            break;
        }
        input.parse::<syn::Token![,]>().map_err(|e| {
            syn::Error::new(
                e.span(),
                "expected `,` between the options of `#[autodiff]`",
            )
        })?;
    }
    Ok(items)
}

/// The value of `crate = …`: a path, or a string literal holding one.
pub fn parse_crate_path(input: ParseStream<'_>) -> syn::Result<Path> {
    let path = if input.peek(syn::LitStr) {
        let lit: syn::LitStr = input.parse()?;
        lit.parse::<Path>()
            .map_err(|_| syn::Error::new(lit.span(), CRATE_PATH))?
    } else {
        input
            .call(Path::parse_mod_style)
            .map_err(|e| syn::Error::new(e.span(), CRATE_PATH))?
    };
    check_crate_path(&path)?;
    if !input.is_empty() && !input.peek(syn::Token![,]) {
        // `crate = x<u8>`, `crate = x::y()`: a path with more after it.
        return Err(syn::Error::new(input.span(), CRATE_PATH));
    }
    Ok(path)
}

/// A path pasted into generated code as `#krate::Reading` and `use #krate::…`: plain
/// segments only.
fn check_crate_path(path: &Path) -> syn::Result<()> {
    match path.segments.iter().find(|s| !s.arguments.is_none()) {
        Some(seg) => Err(syn::Error::new(seg.arguments.span(), CRATE_PATH)),
        None if path.segments.is_empty() => Err(syn::Error::new(path.span(), CRATE_PATH)),
        None => Ok(()),
    }
}

/// The tokens with invisible groups opened: a `macro_rules!` macro that writes
/// `#[autodiff(forward, chunk = $n)]` hands `$n` over wrapped in one.
pub(crate) fn ungroup(tokens: TokenStream) -> TokenStream {
    tokens
        .into_iter()
        .flat_map(|t| match t {
            TokenTree::Group(g) if g.delimiter() == Delimiter::None => {
                ungroup(g.stream()).into_iter().collect::<Vec<_>>()
            }
            t => vec![t],
        })
        .collect()
}

/// Parses the attribute's arguments; every problem is recorded and defaults are used
/// in its place, so expansion continues.
pub fn parse(attr: TokenStream, errors: &mut Errors) -> Options {
    let mut out = Options::default();
    if !crate::depth::check_tokens(&attr, 0, errors) {
        return out;
    }
    let items = match parse_items.parse2(ungroup(attr)) {
        Ok(items) => items,
        Err(e) => {
            errors.push(e);
            return out;
        }
    };
    let (mut forward, mut chunk, mut krate) = (None, None, None);
    for item in items {
        let name = item.name.to_string();
        let seen = match name.as_str() {
            "forward" => forward.replace(item.name.span()).is_some(),
            "chunk" => chunk.is_some(),
            "crate" => krate.is_some(),
            _ => false,
        };
        if seen {
            errors.at(
                &item.name,
                format!("`{name}` is given twice: write it once"),
            );
            continue;
        }
        match (name.as_str(), item.value, item.args) {
            ("forward", None, None) => {}
            ("forward", _, _) => errors.at(
                &item.name,
                "`forward` takes no arguments: write `#[autodiff(forward)]`",
            ),
            ("reverse", _, _) => errors.at(
                &item.name,
                "lifted differentiates in forward mode only: write `#[autodiff(forward)]`",
            ),
            ("chunk", Some(Value::Expr(value)), None) => chunk = Some(value),
            ("chunk", _, _) => errors.at(
                &item.name,
                format!("`chunk` takes a value: write `chunk = 8` (from 1 to {MAX_CHUNK})"),
            ),
            ("crate", Some(Value::Crate(path)), None) => krate = Some(path),
            ("crate", _, _) => errors.at(
                &item.name,
                "`crate` takes a path: write `crate = ::lifted` (or the path the runtime \
                 crate is re-exported at)",
            ),
            _ => errors.at(
                &item.name,
                format!(
                    "unknown option `{name}`: `#[autodiff]` takes `forward`, `chunk = N` \
                     (1 to {MAX_CHUNK}) and `crate = path`"
                ),
            ),
        }
    }
    if forward.is_none() && errors.is_empty() {
        errors.push(syn::Error::new(
            Span::call_site(),
            "missing the mode: write `#[autodiff(forward)]` or `#[autodiff(forward, chunk = 8)]`",
        ));
    }
    if let Some(value) = chunk {
        let n = match &value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Int(i),
                ..
            }) => i.base10_parse::<usize>().ok(),
            _ => None,
        };
        match n {
            Some(n) if (1..=MAX_CHUNK).contains(&n) => out.chunk = n,
            _ => errors.at(
                &value,
                format!("`chunk` must be an integer from 1 to {MAX_CHUNK}"),
            ),
        }
    }
    if let Some(path) = krate {
        out.krate = path;
    }
    out
}
