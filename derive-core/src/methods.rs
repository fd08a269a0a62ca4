//! `#[autodiff(forward)]` on an `impl` block of a `#[derive(lifted::Lift)]` type: the
//! block is emitted unchanged, and each function in it gets a rule as a function of the
//! same name in an `impl` of the dual struct, generic over the reading.
//!
//! A module cannot be emitted inside an `impl` block, so methods have no `frule` /
//! `Rule` / `CHUNK` of their own: inside another rule, `p.energy(k)` on a lifted `p`
//! calls the dual struct's method; drivers reach a method through a free annotated
//! function that calls it.

use proc_macro2::TokenStream;
use quote::quote;
use syn::visit_mut::VisitMut;
use syn::{ImplItem, ItemFn, ItemImpl, Type};

use crate::emit::{Lowered, allowed_lints, lower_fn, reading_ident};
use crate::errors::Errors;
use crate::lift::dual_name;
use crate::options::Options;
use crate::types::is_struct_type;

/// Replaces `Self` in a signature by the implemented type, so parameter and result
/// types read like those of a free function.
struct SelfType<'a>(&'a Type);

impl VisitMut for SelfType<'_> {
    fn visit_type_mut(&mut self, t: &mut Type) {
        if matches!(t, Type::Path(p) if p.qself.is_none() && p.path.is_ident("Self")) {
            *t = self.0.clone();
            return;
        }
        syn::visit_mut::visit_type_mut(self, t);
    }
}

/// Removes the inert `#[constant]` markers from the methods' parameters.
pub fn strip_constant_attrs(item: &ItemImpl) -> ItemImpl {
    let mut item = item.clone();
    for it in item.items.iter_mut() {
        if let ImplItem::Fn(f) = it {
            for input in f.sig.inputs.iter_mut() {
                if let syn::FnArg::Typed(t) = input {
                    t.attrs.retain(|a| !a.path().is_ident("constant"));
                }
            }
        }
    }
    item
}

/// Expands `#[autodiff(...)]` on an `impl` block.
pub fn expand(item: &ItemImpl, opts: &Options, errors: &mut Errors) -> TokenStream {
    if let Some((path, _)) = &item.trait_ {
        errors.at(
            path,
            "`#[autodiff]` on a trait implementation is not supported: put the methods in an \
             inherent `impl` block, or write free functions",
        );
        return TokenStream::new();
    }
    if let Some(p) = item.generics.params.first() {
        errors.at(
            p,
            "`#[autodiff]` on a generic `impl` block is not supported yet",
        );
        return TokenStream::new();
    }
    let self_ty = &*item.self_ty;
    let Type::Path(tp) = self_ty else {
        errors.at(
            self_ty,
            "`#[autodiff]` on an `impl` block needs a named type deriving `lifted::Lift`",
        );
        return TokenStream::new();
    };
    if !is_struct_type(self_ty) {
        errors.at(
            self_ty,
            "`#[autodiff]` on an `impl` block needs a named type deriving `lifted::Lift`",
        );
        return TokenStream::new();
    }
    let mut dual_path = tp.path.clone();
    if let Some(last) = dual_path.segments.last_mut() {
        last.ident = dual_name(&last.ident);
    }

    let mut methods = Vec::new();
    let mut float = None;
    for it in &item.items {
        let ImplItem::Fn(f) = it else { continue };
        let (attrs, vis, sig, block) = (&f.attrs, &f.vis, &f.sig, &f.block);
        let Ok(mut func) = syn::parse2::<ItemFn>(quote!(#(#attrs)* #vis #sig #block)) else {
            errors.at(&f.sig.ident, "this method could not be read as a function");
            continue;
        };
        SelfType(self_ty).visit_signature_mut(&mut func.sig);
        let Some(Lowered {
            float: fl,
            rule_params,
            ret,
            mut body,
            ..
        }) = lower_fn(&func, opts, errors, true)
        else {
            continue;
        };
        if *float.get_or_insert(fl) != fl {
            errors.at(
                &f.sig.ident,
                "the methods of one `impl` block are written in one float type",
            );
            continue;
        }
        body.stmts
            .insert(0, crate::lower::operand_traits(&opts.krate));
        let receiver = f.sig.receiver().map(|r| quote!(#r,));
        let (vis, name) = (&f.vis, &f.sig.ident);
        let docs = f.attrs.iter().filter(|a| a.path().is_ident("doc"));
        methods.push(quote! {
            #(#docs)*
            #[inline]
            #vis fn #name(#receiver #(#rule_params),*) #ret #body
        });
    }
    if !errors.is_empty() {
        return TokenStream::new();
    }
    let d = reading_ident();
    let k = &opts.krate;
    let fl = float.unwrap_or(crate::types::Float::F64).ident();
    let lints = allowed_lints();
    quote! {
        #lints
        impl<#d: #k::Reading<#fl>> #dual_path<#d> {
            #(#methods)*
        }
    }
}
