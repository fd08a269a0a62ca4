//! Collects every error of one expansion so all are reported at once.

use proc_macro2::TokenStream;

/// The errors of one expansion, in the order found.
#[derive(Default)]
pub struct Errors(Vec<syn::Error>);

impl Errors {
    /// An empty collection.
    pub fn new() -> Self {
        Self::default()
    }
    /// Records one error.
    pub fn push(&mut self, e: syn::Error) {
        self.0.push(e);
    }
    /// Records an error at the span of `tokens`.
    pub fn at<T: quote::ToTokens>(&mut self, tokens: &T, message: impl std::fmt::Display) {
        self.0.push(syn::Error::new_spanned(tokens, message));
    }
    /// Whether any error was recorded.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    /// All errors as `compile_error!` invocations.
    pub fn to_compile_errors(&self) -> TokenStream {
        self.0.iter().map(syn::Error::to_compile_error).collect()
    }
}
