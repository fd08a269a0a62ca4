//! The body transformation: rewrites a primal body, statement by statement, into the
//! body of a rule generic over the reading. Control flow is kept as written; what
//! changes is how values are made, combined, read from and written to arrays.
//!
//! This file holds the lowerer's state and the helpers every part uses; statements,
//! expressions, calls and iteration each have their own file, as do the forms that
//! need their surroundings, macros, arrays and structs.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::visit_mut::VisitMut;
use syn::{Expr, Ident};

use crate::analyse::{ArrayKind, Class, Memo, Scope};

mod arrays;
mod calls;
mod exprs;
mod forms;
mod iteration;
mod macros;
mod stmts;
mod structs;

use crate::errors::Errors;
use crate::syntax::{fill, hole, ident_expr, span_of, strip};
use crate::types::Float;
pub use structs::{operand_traits, snake};

/// What a position expects of a value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Want {
    /// Anything: plain floats stay plain.
    Any,
    /// A value of the reading: plain floats are zero-lifted.
    Reading,
}

/// Rewrites one function body.
pub struct Lowerer<'a> {
    /// Names and their classes.
    pub scope: &'a Scope,
    /// The field of the function.
    pub float: Float,
    /// The reading type parameter.
    pub d: Ident,
    /// Path to the runtime crate.
    pub krate: syn::Path,
    /// Where problems go.
    pub errors: &'a mut Errors,
    /// Whether the function's result carries floats (tails and returns are lifted).
    pub returns_float: bool,
    /// Element names of `iter_mut` loops currently being lowered.
    iter_mut_elems: Vec<String>,
    /// Parameters of closures over lifted items: one reference level fewer than in
    /// the primal (the items are values), so one `*` on them is dropped.
    value_params: Vec<String>,
    /// The loops (and labelled blocks) being lowered, innermost last: label, what their
    /// `break` values are wanted as, whether a labelled block.
    breaks: Vec<(Option<Ident>, Want, bool)>,
    /// Locals bound to the result of a rule call: indexing them reads through
    /// `ArrayRead` (the result may be the reading's array).
    call_results: Vec<String>,
    /// Classes and mentions of the expressions being lowered (see [`Self::child`]).
    memo: Memo,
    /// The address of the expression [`Self::child`] is about to lower.
    in_place: Option<usize>,
}

impl<'a> Lowerer<'a> {
    /// A lowerer for one body.
    pub fn new(
        scope: &'a Scope,
        float: Float,
        d: Ident,
        krate: syn::Path,
        errors: &'a mut Errors,
        returns_float: bool,
    ) -> Self {
        Self {
            scope,
            float,
            d,
            krate,
            errors,
            returns_float,
            iter_mut_elems: Vec::new(),
            value_params: Vec::new(),
            breaks: Vec::new(),
            call_results: Vec::new(),
            memo: Memo::default(),
            in_place: None,
        }
    }

    /// Lowers `e`, a subexpression of the expression being lowered, still in its place
    /// and unchanged since that expression's lowering began: so the answers the memo
    /// holds for it are still true. Every other expression handed to [`Self::expr`]
    /// (moved out of its place, parsed from a macro body, rewritten before its turn)
    /// drops the memo's answers.
    fn child(&mut self, e: &mut Expr, want: Want) {
        self.in_place = Some(std::ptr::from_ref(e) as usize);
        self.expr(e, want);
    }

    /// [`Scope::classify`] of an expression in place and unchanged since the lowering
    /// of the expression holding it began (as for [`Self::child`]).
    fn class(&mut self, e: &Expr) -> Class {
        self.scope.classify_with(e, &mut self.memo)
    }

    /// [`Scope::mentions_active`], under the terms of [`Self::class`].
    fn mentions(&mut self, e: &Expr) -> bool {
        self.scope.mentions_with(e, &mut self.memo)
    }

    fn private(&self) -> TokenStream {
        let k = &self.krate;
        quote!(#k::__private)
    }

    fn reading(&self) -> TokenStream {
        let (k, f) = (&self.krate, self.float.ident());
        quote!(#k::Reading::<#f>)
    }

    /// `<D as Reading<F>>::constant(e)`, spanned at `e`.
    fn lift(&self, e: Expr) -> Expr {
        let (k, d, f, h) = (&self.krate, &self.d, self.float.ident(), hole(0));
        let span = span_of(&e);
        fill(
            quote_spanned!(span=> <#d as #k::Reading<#f>>::constant(#h)),
            [e],
        )
    }

    /// The array an index expression's base names: an array name, or a float array in
    /// a field of a lifted value.
    fn array_place(&mut self, e: &Expr) -> Option<Expr> {
        match self.array_kind(e) {
            Some((base, _)) => Some(ident_expr(&base)),
            None => self.field_array(e),
        }
    }

    fn array_kind(&self, e: &Expr) -> Option<(Ident, ArrayKind)> {
        let Expr::Path(p) = strip(e) else { return None };
        let id = p.path.get_ident()?;
        self.scope
            .arrays
            .get(&id.to_string())
            .map(|k| (id.clone(), *k))
    }

    /// Lowers the body of the function (its tail is lifted when the result is a float).
    pub fn lower_body(&mut self, block: &mut syn::Block) {
        let want = if self.returns_float {
            Want::Reading
        } else {
            Want::Any
        };
        self.block(block, want);
    }
}

/// Only ever run over an expression from the start of its lowering (`visit_expr_mut`
/// and the like on the expression `expr` is lowering): each subexpression it reaches is
/// then in its place and unchanged until its turn, as `Lowerer::child` requires.
impl VisitMut for Lowerer<'_> {
    fn visit_expr_mut(&mut self, e: &mut Expr) {
        self.child(e, Want::Any);
    }
    fn visit_block_mut(&mut self, b: &mut syn::Block) {
        self.block(b, Want::Any);
    }
    fn visit_local_mut(&mut self, l: &mut syn::Local) {
        self.local(l);
    }
}
