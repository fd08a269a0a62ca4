//! The primal types of expressions over lifted structs, as far as the syntax shows them:
//! `z: Cplx` is a `Cplx`, `z * w` with `w: Cplx` is `<Cplx as Mul<Cplx>>::Output`.
//!
//! An operator between two such operands is lowered to a call of `lifted::ops`, named
//! by these types, so that an operator `impl` without `#[autodiff]` is reported by the
//! primal types and the block to annotate (see `runtime/src/ops.rs`).

use std::collections::HashMap;

use quote::quote;
use syn::visit::Visit;
use syn::{Expr, Pat, Type};

use super::Scope;
use crate::syntax::strip;
use crate::types::is_struct_type;

impl Scope {
    /// The primal type of `e` when it is a lifted struct the syntax names: a name
    /// bound once to one ([`Scope::structs`]), a literal of a type such a name has, or
    /// an arithmetic operator over such operands (its `Output`).
    pub fn struct_type(&self, e: &Expr) -> Option<Type> {
        // Every form below bottoms out in a name of the map: without one, none applies
        // (and the lowering asks of every operator).
        if self.structs.is_empty() {
            return None;
        }
        match strip(e) {
            Expr::Path(p) if p.qself.is_none() => {
                let id = p.path.get_ident()?;
                self.structs.get(&id.to_string()).cloned()
            }
            Expr::Struct(s) if s.qself.is_none() => {
                let path = &s.path;
                let ty: Type = syn::parse2(quote!(#path)).ok()?;
                // A type also seen on a lifted name: it derives `Lift` (a local helper
                // struct of constants may not, and keeps its own operators).
                let name = quote!(#ty).to_string();
                let lifted = self
                    .structs
                    .values()
                    .any(|t| quote!(#t).to_string() == name);
                (lifted && is_struct_type(&ty)).then_some(ty)
            }
            Expr::Binary(b) => {
                let op = binary_trait(&b.op)?;
                let (l, r) = (self.struct_type(&b.left)?, self.struct_type(&b.right)?);
                Some(binary_output(&op, &l, &r))
            }
            Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => {
                Some(neg_output(&self.struct_type(&u.expr)?))
            }
            _ => None,
        }
    }
}

/// `<L as Op<R>>::Output`: the primal type of `l OP r`.
pub fn binary_output(op: &syn::Ident, l: &Type, r: &Type) -> Type {
    syn::parse_quote!(<#l as ::core::ops::#op<#r>>::Output)
}

/// `<T as Neg>::Output`: the primal type of `-t`.
pub fn neg_output(t: &Type) -> Type {
    syn::parse_quote!(<#t as ::core::ops::Neg>::Output)
}

/// The `core::ops` trait of an arithmetic operator (`Mul` for `*`), or of a compound
/// assignment (`MulAssign` for `*=`).
pub fn binary_trait(op: &syn::BinOp) -> Option<syn::Ident> {
    use syn::BinOp::*;
    let name = match op {
        Add(_) => "Add",
        Sub(_) => "Sub",
        Mul(_) => "Mul",
        Div(_) => "Div",
        Rem(_) => "Rem",
        AddAssign(_) => "AddAssign",
        SubAssign(_) => "SubAssign",
        MulAssign(_) => "MulAssign",
        DivAssign(_) => "DivAssign",
        RemAssign(_) => "RemAssign",
        _ => return None,
    };
    Some(syn::Ident::new(name, proc_macro2::Span::call_site()))
}

/// Fills [`Scope::structs`] from the body: parameters of struct type are already in
/// it; a `let` binding one name to a struct-typed initialiser (or under a struct type
/// annotation) adds it. A name bound more than once anywhere (shadowed, rebound in a
/// closure or a loop) is left out, so a name's entry holds wherever it appears.
pub fn struct_locals(scope: &mut Scope, body: &syn::Block) {
    #[derive(Default)]
    struct Bindings(HashMap<String, usize>);
    impl<'ast> Visit<'ast> for Bindings {
        fn visit_pat_ident(&mut self, i: &'ast syn::PatIdent) {
            *self.0.entry(i.ident.to_string()).or_default() += 1;
            syn::visit::visit_pat_ident(self, i);
        }
    }
    let mut bindings = Bindings::default();
    bindings.visit_block(body);
    let counts = bindings.0;
    scope.structs.retain(|name, _| !counts.contains_key(name));

    struct Lets<'s> {
        scope: &'s mut Scope,
        counts: &'s HashMap<String, usize>,
    }
    impl<'ast> Visit<'ast> for Lets<'_> {
        fn visit_local(&mut self, l: &'ast syn::Local) {
            syn::visit::visit_local(self, l);
            let (pat, ty) = match &l.pat {
                Pat::Type(t) => (&*t.pat, Some(&*t.ty)),
                other => (other, None),
            };
            let Pat::Ident(id) = pat else { return };
            let name = id.ident.to_string();
            if id.by_ref.is_some() || self.counts.get(&name) != Some(&1) {
                return;
            }
            let found = match ty {
                Some(t) => is_struct_type(t).then(|| t.clone()),
                None => l
                    .init
                    .as_ref()
                    .and_then(|init| self.scope.struct_type(&init.expr)),
            };
            if let Some(t) = found {
                self.scope.structs.insert(name, t);
            }
        }
        // A nested item is a function of its own (closures are part of this body: their
        // names are counted above, so a name they rebind is left out).
        fn visit_item(&mut self, _: &'ast syn::Item) {}
    }
    Lets {
        scope,
        counts: &counts,
    }
    .visit_block(body);
}
