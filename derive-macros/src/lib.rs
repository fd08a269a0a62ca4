//! Procedural macros of `lifted`. Use them through the `lifted` crate, which re-exports
//! them; this crate only forwards to `lifted-derive-core`.
#![forbid(unsafe_code)]

use proc_macro::TokenStream;

/// Derives a forward-mode rule for a function: see the `lifted` crate.
#[proc_macro_attribute]
pub fn autodiff(attr: TokenStream, item: TokenStream) -> TokenStream {
    lifted_derive_core::autodiff(attr.into(), item.into()).into()
}

/// Marks a sub-expression as independent of the inputs. In the primal function it is
/// the expression itself; inside a derived rule it runs on primals and is zero-lifted.
#[proc_macro]
pub fn constant(input: TokenStream) -> TokenStream {
    input
}

/// Derives the lifted form of a struct or enum, so it can be a parameter, result or
/// local of `#[autodiff]` functions.
///
/// For a struct `P` with float fields it generates the dual struct `PDual<D>` (each
/// float field read at reading `D`; fields marked `#[constant]` keep their type) and
/// implements `lifted::Param` for `P`. A type without floats reads as itself. The type
/// must also be `Clone` and `Debug`. See the book's "Structs and methods" chapter.
#[proc_macro_derive(Lift, attributes(constant, lift))]
pub fn lift(item: TokenStream) -> TokenStream {
    lifted_derive_core::derive_lift(item.into()).into()
}
