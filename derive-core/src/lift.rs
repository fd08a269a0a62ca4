//! `#[derive(Lift)]`: the dual struct of a user type and its `Param` implementation,
//! which is how derived rules take, build and return user structs.
//!
//! For `struct Particle { x: f64, v: f64, #[constant] m: f64 }` it generates
//! `ParticleDual<D>`, with one field per field of `Particle`: a field holding floats
//! becomes its forward value at reading `D` (`<T as Param<F>>::Store<D>`: `D` for a
//! float, `[D; K]` for a fixed array, the reading's array for a `Vec`, the dual struct
//! of a nested lifted struct), a `#[constant]` field keeps its type. `Param` for
//! `Particle` lifts, visits and flattens the float fields in declaration order, so
//! drivers and `check_rule` seed and read them like any argument. A type without
//! float fields (a plain enum, a configuration of integers) reads as itself.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields};

use crate::errors::Errors;
use crate::types::{Float, float_in};

/// The name of the dual struct of a type named `name`.
pub fn dual_name(name: &syn::Ident) -> syn::Ident {
    format_ident!("{}Dual", name, span = name.span())
}

/// Whether a field carries `#[constant]`.
fn is_constant(f: &syn::Field) -> bool {
    f.attrs.iter().any(|a| a.path().is_ident("constant"))
}

/// The runtime crate's path `#[lift(crate = path)]` gives, if any: for a crate that
/// re-exports `lifted` (the same option as `#[autodiff(…, crate = path)]`).
fn crate_option(input: &DeriveInput, errors: &mut Errors) -> Option<syn::Path> {
    let mut found = None;
    for attr in input.attrs.iter().filter(|a| a.path().is_ident("lift")) {
        let parse = |input: syn::parse::ParseStream<'_>| {
            let name = input.call(<syn::Ident as syn::ext::IdentExt>::parse_any)?;
            if name != "crate" || !input.peek(syn::Token![=]) {
                return Err(syn::Error::new(
                    name.span(),
                    "`#[lift]` takes the runtime crate's path: write `#[lift(crate = ::lifted)]`",
                ));
            }
            input.parse::<syn::Token![=]>()?;
            let path = crate::options::parse_crate_path(input)?;
            input.parse::<Option<syn::Token![,]>>()?;
            Ok(path)
        };
        let parsed = attr.meta.require_list().and_then(|list| {
            syn::parse::Parser::parse2(parse, crate::options::ungroup(list.tokens.clone()))
        });
        match parsed {
            Ok(path) if found.is_none() => found = Some(path),
            Ok(_) => errors.at(attr, "`#[lift(crate = …)]` is given twice: write it once"),
            Err(e) => errors.push(e),
        }
    }
    found
}

/// Expands `#[derive(Lift)]` on `item`, with the runtime crate at `krate` unless the
/// item says `#[lift(crate = path)]`. Never panics: problems become errors.
pub fn derive(item: TokenStream, krate: &syn::Path) -> TokenStream {
    let mut errors = Errors::new();
    if !crate::depth::check_tokens(&item, 0, &mut errors) {
        return errors.to_compile_errors();
    }
    let input: DeriveInput = match syn::parse2(item) {
        Ok(i) => i,
        Err(e) => return e.to_compile_error(),
    };
    let own = crate_option(&input, &mut errors);
    let krate = own.as_ref().unwrap_or(krate);
    if let Some(p) = input.generics.params.first() {
        errors.at(
            p,
            "`#[derive(Lift)]` does not support generic types: write the type for `f64` (or `f32`)",
        );
    }
    let out = match &input.data {
        Data::Struct(s) => derive_struct(&input, &s.fields, krate, &mut errors),
        Data::Enum(e) => {
            for v in &e.variants {
                for f in &v.fields {
                    if let Some((_, span)) = float_in(&f.ty) {
                        errors.push(syn::Error::new(
                            span,
                            "`#[derive(Lift)]` on an enum supports variants without floats only: \
                             put the floats in a struct, or derive on a struct holding the enum",
                        ));
                    }
                }
            }
            inert(&input, krate)
        }
        Data::Union(u) => {
            errors.at(
                &u.union_token,
                "`#[derive(Lift)]` does not support unions: use a struct",
            );
            TokenStream::new()
        }
    };
    if errors.is_empty() {
        out
    } else {
        errors.to_compile_errors()
    }
}

/// A type without floats: its own forward value, no degrees of freedom.
fn inert(input: &DeriveInput, krate: &syn::Path) -> TokenStream {
    let name = &input.ident;
    let elem = elementwise_elem(
        krate,
        quote!(<__LiftedFloat: #krate::Scalar>),
        &quote!(__LiftedFloat),
        name,
    );
    quote! {
        impl<__LiftedFloat: #krate::Scalar> #krate::Param<__LiftedFloat> for #name {
            type Store<__LiftedReading: #krate::Reading<__LiftedFloat>> = #name;
            #[inline(always)]
            fn dim(&self) -> usize {
                0
            }
            #[inline(always)]
            fn lift<__LiftedReading: #krate::Reading<__LiftedFloat>>(
                &self,
                _seed: &mut impl FnMut(__LiftedFloat) -> __LiftedReading,
            ) -> Self {
                #krate::__private::Clone::clone(self)
            }
            #[inline(always)]
            fn visit<__LiftedReading: #krate::Reading<__LiftedFloat>>(
                _store: &Self,
                _f: &mut impl FnMut(__LiftedReading),
            ) {
            }
            #[inline(always)]
            fn primal_of<__LiftedReading: #krate::Reading<__LiftedFloat>>(store: &Self) -> Self {
                #krate::__private::Clone::clone(store)
            }
            fn flatten(&self, _out: &mut #krate::__private::Vec<__LiftedFloat>) {}
            fn unflatten(&mut self, _from: &mut impl Iterator<Item = __LiftedFloat>) {}
        }
        #elem
    }
}

/// `ParamElem` for a derived type: a `Vec` of it holds its forward values one by one
/// (the runtime's element-wise helpers), so `Vec<T>` is a parameter like `Vec<f64>`.
fn elementwise_elem(
    krate: &syn::Path,
    generics: TokenStream,
    fl: &TokenStream,
    name: &syn::Ident,
) -> TokenStream {
    let d = quote!(__LiftedReading);
    quote! {
        impl #generics #krate::ParamElem<#fl> for #name {
            type VecStore<#d: #krate::Reading<#fl>> =
                #krate::__private::Vec<<#name as #krate::Param<#fl>>::Store<#d>>;
            #[inline]
            fn lift_vec<#d: #krate::Reading<#fl>>(
                v: &[Self],
                seed: &mut impl FnMut(#fl) -> #d,
            ) -> Self::VecStore<#d> {
                #krate::__private::lift_each(v, seed)
            }
            #[inline]
            fn relift_vec<#d: #krate::Reading<#fl>>(
                v: &[Self],
                store: &mut Self::VecStore<#d>,
                seed: &mut impl FnMut(#fl) -> #d,
            ) {
                #krate::__private::relift_each(v, store, seed);
            }
            #[inline]
            fn visit_vec<#d: #krate::Reading<#fl>>(
                store: &Self::VecStore<#d>,
                f: &mut impl FnMut(#d),
            ) {
                #krate::__private::visit_each::<#fl, Self, #d>(store, f);
            }
            #[inline]
            fn primal_of_vec<#d: #krate::Reading<#fl>>(
                store: &Self::VecStore<#d>,
            ) -> #krate::__private::Vec<Self> {
                #krate::__private::primal_of_each::<#fl, Self, #d>(store)
            }
        }
    }
}

fn derive_struct(
    input: &DeriveInput,
    fields: &Fields,
    krate: &syn::Path,
    errors: &mut Errors,
) -> TokenStream {
    let mut float: Option<Float> = None;
    for f in fields.iter().filter(|f| !is_constant(f)) {
        if let Some((fl, span)) = float_in(&f.ty) {
            match float {
                None => float = Some(fl),
                Some(g) if g != fl => errors.push(syn::Error::new(
                    span,
                    format!(
                        "this struct mixes `{}` and `{}`: a lifted struct is written in one float type; \
                         mark the other fields `#[constant]`",
                        g.name(),
                        fl.name()
                    ),
                )),
                Some(_) => {}
            }
        }
    }
    // Fields that are lifted structs carry floats the derive cannot see: their float
    // type is the one written elsewhere in the struct, `f64` when there is none.
    let nested = fields
        .iter()
        .any(|f| !is_constant(f) && crate::types::mentions_struct(&f.ty));
    // A struct whose floats are all `#[constant]` gets a dual struct all the same (with
    // no lifted field): an `#[autodiff]` `impl` block cannot see the fields, so it
    // implements its methods on the dual struct whatever they are.
    let constant_float = fields.iter().find_map(|f| float_in(&f.ty)).map(|(f, _)| f);
    let all_constant = float.is_none() && !nested;
    let float = match float {
        Some(f) => f,
        None if nested || constant_float.is_some() => constant_float.unwrap_or(Float::F64),
        None => return inert(input, krate),
    };
    let fl = float.ident();
    let d = syn::Ident::new("__LiftedReading", proc_macro2::Span::mixed_site());
    let name = &input.ident;
    let dual = dual_name(name);
    let vis = &input.vis;

    // Per field: its name (or index), the dual field's type, and whether it is lifted.
    let members: Vec<syn::Member> = fields
        .iter()
        .enumerate()
        .map(|(i, f)| match &f.ident {
            Some(id) => syn::Member::Named(id.clone()),
            None => syn::Member::Unnamed(syn::Index {
                index: u32::try_from(i).unwrap_or(u32::MAX),
                span: f.span(),
            }),
        })
        .collect();
    let lifted: Vec<bool> = fields.iter().map(|f| !is_constant(f)).collect();
    let dual_fields = fields.iter().zip(&lifted).map(|(f, &l)| {
        let ty = &f.ty;
        let fvis = &f.vis;
        let mut docs: Vec<TokenStream> = f
            .attrs
            .iter()
            .filter(|a| a.path().is_ident("doc"))
            .map(|a| quote!(#a))
            .collect();
        // The user's field without docs is warned about by `missing_docs` once, on
        // the field: the dual struct's copy needs none of its own.
        if docs.is_empty() {
            docs.push(quote!(#[doc = "The field of the same name, read at the reading."]));
        }
        let ty = if l {
            quote!(<#ty as #krate::Param<#fl>>::Store<#d>)
        } else if all_constant {
            quote!(<#ty as #krate::__private::Keep<#d>>::Type)
        } else {
            quote!(#ty)
        };
        match &f.ident {
            Some(id) => quote!(#(#docs)* #fvis #id: #ty),
            None => quote!(#(#docs)* #fvis #ty),
        }
    });
    let body = match fields {
        Fields::Named(_) => quote!({ #(#dual_fields,)* }),
        Fields::Unnamed(_) => quote!((#(#dual_fields,)*);),
        Fields::Unit => quote!(;),
    };
    let build = |each: &dyn Fn(&syn::Member, &syn::Type, bool) -> TokenStream| {
        let inits = members
            .iter()
            .zip(fields.iter())
            .zip(&lifted)
            .map(|((m, f), &l)| {
                let v = each(m, &f.ty, l);
                quote!(#m: #v)
            });
        quote!({ #(#inits,)* })
    };
    let lift_body = build(&|m, ty, l| {
        if l {
            quote!(<#ty as #krate::Param<#fl>>::lift::<#d>(&self.#m, seed))
        } else {
            quote!(#krate::__private::Clone::clone(&self.#m))
        }
    });
    let primal_body = build(&|m, ty, l| {
        if l {
            quote!(<#ty as #krate::Param<#fl>>::primal_of::<#d>(&store.#m))
        } else {
            quote!(#krate::__private::Clone::clone(&store.#m))
        }
    });
    let clone_body = build(&|m, _, _| quote!(#krate::__private::Clone::clone(&self.#m)));
    let per_lifted = |f: &dyn Fn(&syn::Member, &syn::Type) -> TokenStream| -> Vec<TokenStream> {
        members
            .iter()
            .zip(fields.iter())
            .zip(&lifted)
            .filter(|(_, l)| **l)
            .map(|((m, fd), _)| f(m, &fd.ty))
            .collect()
    };
    let dims = per_lifted(&|m, ty| quote!(<#ty as #krate::Param<#fl>>::dim(&self.#m)));
    let visits =
        per_lifted(&|m, ty| quote!(<#ty as #krate::Param<#fl>>::visit::<#d>(&store.#m, f);));
    let flattens =
        per_lifted(&|m, ty| quote!(<#ty as #krate::Param<#fl>>::flatten(&self.#m, out);));
    let unflattens =
        per_lifted(&|m, ty| quote!(<#ty as #krate::Param<#fl>>::unflatten(&mut self.#m, from);));
    let debug_fields = members.iter().map(|m| {
        let label = match m {
            syn::Member::Named(id) => id.to_string(),
            syn::Member::Unnamed(i) => i.index.to_string(),
        };
        quote!(.field(#label, &self.#m))
    });
    let clone_bounds = fields
        .iter()
        .zip(&lifted)
        .filter(|(_, l)| **l)
        .map(|(f, _)| {
            let ty = &f.ty;
            quote!(<#ty as #krate::Param<#fl>>::Store<#d>: #krate::__private::Clone)
        });
    let debug_bounds = fields
        .iter()
        .zip(&lifted)
        .filter(|(_, l)| **l)
        .map(|(f, _)| {
            let ty = &f.ty;
            quote!(<#ty as #krate::Param<#fl>>::Store<#d>: #krate::__private::Debug)
        });
    // The dual struct is `Copy` where all its fields are (a struct of floats at every
    // scalar reading), so rules use it as the primal uses a `Copy` struct. A constant
    // field's bound sits under a binder: a bound on a concrete type that does not hold
    // (`Vec<f64>: Copy`) is an error unless it is higher-ranked, and then it is only
    // an impl that does not apply.
    let copy_bounds = fields.iter().zip(&lifted).map(|(f, l)| {
        let ty = &f.ty;
        if *l {
            quote!(<#ty as #krate::Param<#fl>>::Store<#d>: #krate::__private::Copy)
        } else {
            quote!(for<'__lifted> #ty: #krate::__private::Copy)
        }
    });
    let copy = quote! {
        impl<#d: #krate::Reading<#fl>> #krate::__private::Copy for #dual<#d>
        where #(#copy_bounds,)*
        {
        }
    };
    let dual_doc = format!(
        "The dual struct of [`{name}`]: each float field read at `{d}` (a reading of `{fl}`: \
         `{fl}` itself, `lifted::NDual<{fl}, N>`, …), `#[constant]` fields as they are. \
         Generated by `#[derive(lifted::Lift)]`.",
        d = "D"
    );
    let name_str = dual.to_string();
    let elem = elementwise_elem(krate, TokenStream::new(), &quote!(#fl), name);
    quote! {
        #[doc = #dual_doc]
        #vis struct #dual<#d: #krate::Reading<#fl>> #body

        // Written out (the bounds are on the fields' forward values), also where the
        // dual struct is `Copy`.
        #[allow(clippy::expl_impl_clone_on_copy)]
        impl<#d: #krate::Reading<#fl>> #krate::__private::Clone for #dual<#d>
        where #(#clone_bounds,)*
        {
            #[inline]
            fn clone(&self) -> Self {
                Self #clone_body
            }
        }

        #copy

        impl<#d: #krate::Reading<#fl>> #krate::__private::Debug for #dual<#d>
        where #(#debug_bounds,)*
        {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.debug_struct(#name_str) #(#debug_fields)* .finish()
            }
        }

        #[allow(dead_code)]
        impl<#d: #krate::Reading<#fl>> #dual<#d> {
            /// The value with every float field zero-lifted: a constant of the reading.
            #[inline]
            #[must_use]
            #vis fn constant(primal: &#name) -> Self {
                <#name as #krate::Param<#fl>>::lift::<#d>(primal, &mut <#d as #krate::Reading<#fl>>::constant)
            }
            /// The primal value: every float field's primal, `#[constant]` fields cloned.
            #[inline]
            #[must_use]
            #vis fn primal(&self) -> #name {
                <#name as #krate::Param<#fl>>::primal_of::<#d>(self)
            }
        }

        impl #krate::Param<#fl> for #name {
            type Store<#d: #krate::Reading<#fl>> = #dual<#d>;
            #[inline]
            fn dim(&self) -> usize {
                0 #(+ #dims)*
            }
            #[inline]
            fn lift<#d: #krate::Reading<#fl>>(
                &self,
                seed: &mut impl FnMut(#fl) -> #d,
            ) -> #dual<#d> {
                #dual #lift_body
            }
            #[inline]
            fn visit<#d: #krate::Reading<#fl>>(store: &#dual<#d>, f: &mut impl FnMut(#d)) {
                #(#visits)*
            }
            #[inline]
            fn primal_of<#d: #krate::Reading<#fl>>(store: &#dual<#d>) -> Self {
                Self #primal_body
            }
            fn flatten(&self, out: &mut #krate::__private::Vec<#fl>) {
                #(#flattens)*
            }
            fn unflatten(&mut self, from: &mut impl Iterator<Item = #fl>) {
                #(#unflattens)*
            }
        }

        #elem
    }
}
