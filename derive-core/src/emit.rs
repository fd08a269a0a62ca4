//! Emission: the primal function unchanged, next to a module of the same name holding
//! the derived rule (`frule`), its `FRule` marker (`Rule`) and the default width
//! (`CHUNK`).

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::{FnArg, Ident, ItemFn, Pat, ReturnType, Type};

use crate::analyse::{ArrayKind, Scope, analyse, pat_idents};
use crate::errors::Errors;
use crate::lower::Lowerer;
use crate::options::Options;
use crate::types::{
    Float, ParamKind, classify_param, float_in, is_float, is_supported_output, map_type,
    owned_arg_type,
};

/// Lints that fire at user source positions inside generated code, where the user
/// cannot act on them. One list, so every allowance is visible here.
fn allowed_lints() -> TokenStream {
    quote! {
        #[allow(
            unused_mut,
            unused_parens,
            unused_braces,
            unused_variables,
            unused_assignments,
            unused_imports,
            dead_code,
            non_snake_case,
            missing_docs,
            private_interfaces,
            private_bounds,
            clippy::all,
            clippy::pedantic,
            clippy::nursery
        )]
    }
}

/// The name of the reading parameter in generated rules.
fn reading_ident() -> Ident {
    Ident::new("__LiftedReading", Span::mixed_site())
}

struct Param {
    pat: Pat,
    ty: Type,
    kind: ParamKind,
}

/// Removes the inert `#[constant]` markers so the primal compiles as written.
pub fn strip_constant_attrs(func: &ItemFn) -> ItemFn {
    let mut func = func.clone();
    for input in func.sig.inputs.iter_mut() {
        if let FnArg::Typed(t) = input {
            t.attrs.retain(|a| !a.path().is_ident("constant"));
        }
    }
    func
}

fn validate_signature(func: &ItemFn, errors: &mut Errors) {
    let sig = &func.sig;
    if let Some(a) = &sig.asyncness {
        errors.at(a, "`async fn` cannot be differentiated: differentiate a synchronous function and await around it");
    }
    if let syn::Safety::Unsafe(u) = &sig.safety {
        errors.at(u, "`unsafe fn` cannot be differentiated: give it a hand-written rule (implement `lifted::FRule`) instead");
    }
    if let Some(v) = &sig.variadic {
        errors.at(v, "variadic functions cannot be differentiated");
    }
    if let Some(p) = sig.generics.params.first() {
        errors.at(
            p,
            "generic functions are not supported by `#[autodiff]` yet: write the function for `f64` \
             (or `f32`); the derived rule is already generic over how the float is read",
        );
    }
    if let Some(w) = &sig.generics.where_clause {
        errors.at(w, "`where` clauses are not supported by `#[autodiff]` yet");
    }
    if let Some(r) = sig.receiver() {
        errors.at(
            r,
            "methods are not supported by `#[autodiff]` yet: write a free function taking the fields it needs",
        );
    }
    if let ReturnType::Type(_, ty) = &sig.output
        && matches!(&**ty, Type::ImplTrait(_))
    {
        errors.at(ty, "returning `impl Trait` (such as a closure) from an `#[autodiff]` function is not supported: return the values instead");
    }
}

fn float_of(func: &ItemFn, errors: &mut Errors) -> Float {
    let mut found: Option<Float> = None;
    let mut types: Vec<&Type> = Vec::new();
    for input in &func.sig.inputs {
        if let FnArg::Typed(t) = input
            && !t.attrs.iter().any(|a| a.path().is_ident("constant"))
        {
            types.push(&t.ty);
        }
    }
    if let ReturnType::Type(_, ty) = &func.sig.output {
        types.push(ty);
    }
    for ty in types {
        if let Some((f, span)) = float_in(ty) {
            match found {
                None => found = Some(f),
                Some(g) if g != f => errors.push(syn::Error::new(
                    span,
                    format!(
                        "this function mixes `{}` and `{}`: an `#[autodiff]` function is written in one float type",
                        g.name(),
                        f.name()
                    ),
                )),
                Some(_) => {}
            }
        }
    }
    found.unwrap_or(Float::F64)
}

fn params(func: &ItemFn, float: Float, errors: &mut Errors) -> Vec<Param> {
    let mut out = Vec::new();
    for input in &func.sig.inputs {
        let FnArg::Typed(t) = input else { continue };
        let constant = t.attrs.iter().any(|a| a.path().is_ident("constant"));
        let by_ref = matches!(&*t.ty, Type::Reference(_));
        let kind = if constant {
            Some(ParamKind::Constant { by_ref })
        } else {
            // Types without floats (enums, options of integers, …) carry no tangent:
            // they pass through as constants.
            classify_param(&t.ty, float).or_else(|| {
                float_in(&t.ty)
                    .is_none()
                    .then_some(ParamKind::Constant { by_ref })
            })
        };
        if kind.is_none() && float_in(&t.ty).is_some_and(|(f, _)| f != float) {
            // Already reported as mixing float types.
            continue;
        }
        match kind {
            Some(kind) => out.push(Param { pat: (*t.pat).clone(), ty: (*t.ty).clone(), kind }),
            None => errors.at(
                &t.ty,
                format!(
                    "this parameter type is not supported by `#[autodiff]`: use `{f}`, `&[{f}]`, `&mut [{f}]`, \
                     `Vec<{f}>`, `[{f}; K]`, tuples of them or integers; or mark the parameter `#[constant]` \
                     if it should not be differentiated",
                    f = float.name()
                ),
            ),
        }
    }
    out
}

fn scope_for(params: &[Param], float: Float) -> Scope {
    let mut scope = Scope {
        float: Some(float),
        ..Scope::default()
    };
    for p in params {
        let mut names = Vec::new();
        pat_idents(&p.pat, &mut names);
        for n in names {
            scope.locals.insert(n.clone());
            match &p.kind {
                ParamKind::SliceRef => {
                    scope.arrays.insert(n, ArrayKind::Ref);
                }
                ParamKind::SliceMut => {
                    scope.arrays.insert(n, ArrayKind::Mut);
                }
                ParamKind::VecOwned => {
                    scope.arrays.insert(n, ArrayKind::Owned);
                }
                ParamKind::Value | ParamKind::RefValue | ParamKind::MutValue => {
                    if float_in(&p.ty).is_some() {
                        if p.kind != ParamKind::Value {
                            scope.refs.insert(n.clone());
                        }
                        scope.active.insert(n);
                    }
                }
                ParamKind::Constant { .. } => {
                    if is_float(&p.ty, float) {
                        scope.inactive.insert(n);
                    } else if float_in(&p.ty).is_some() {
                        scope.const_arrays.insert(n);
                    }
                }
            }
        }
    }
    scope
}

/// Expands `#[autodiff(...)]` on `item`.
pub fn expand(func: &ItemFn, opts: &Options, errors: &mut Errors) -> TokenStream {
    validate_signature(func, errors);
    let float = float_of(func, errors);
    let params = params(func, float, errors);
    if !errors.is_empty() {
        return TokenStream::new();
    }
    let mut scope = scope_for(&params, float);
    analyse(&mut scope, &func.block);

    let d = reading_ident();
    let k = &opts.krate;
    let fl = float.ident();
    let returns_float = match &func.sig.output {
        ReturnType::Type(_, ty) => float_in(ty).is_some(),
        ReturnType::Default => false,
    };
    let mut body = (*func.block).clone();
    Lowerer::new(&scope, float, d.clone(), k.clone(), errors, returns_float).lower_body(&mut body);
    if !errors.is_empty() {
        return TokenStream::new();
    }

    let rule_params = params.iter().map(|p| {
        let mut pat = p.pat.clone();
        if p.kind == ParamKind::SliceMut
            && let Pat::Ident(id) = &mut pat
        {
            id.mutability = Some(syn::Token![mut](id.ident.span()));
        }
        let ty = match p.kind {
            ParamKind::Constant { .. } => p.ty.clone(),
            _ => map_type(&p.ty, float, &d, k),
        };
        quote!(#pat: #ty)
    });
    let ret = match &func.sig.output {
        ReturnType::Type(arrow, ty) => {
            let ty = map_type(ty, float, &d, k);
            quote!(#arrow #ty)
        }
        ReturnType::Default => quote!(),
    };

    let name = &func.sig.ident;
    let vis = &func.vis;
    let chunk = opts.chunk;
    let lints = allowed_lints();
    let frule_impl = frule_impl(func, &params, float, opts);
    let doc_mod = format!(
        "Derived forward rule of [`{name}`](fn@{name}): `frule` runs it at any reading, `Rule` \
         is its `lifted::FRule` marker for drivers, `CHUNK` its default width."
    );
    let span = func.sig.ident.span();
    quote_spanned! {span=>
        #[doc = #doc_mod]
        #lints
        #vis mod #name {
            use super::*;


            /// The default chunk width for drivers (the attribute's `chunk`).
            pub const CHUNK: usize = #chunk;

            /// The derived rule, generic over the reading: at `f64` it reproduces the
            /// primal function; at `lifted::NDual<f64, N>` it carries N directions.
            #[inline]
            pub fn frule<#d: #k::Reading<#fl>>(#(#rule_params),*) #ret #body

            #frule_impl
        }
    }
}

fn frule_impl(func: &ItemFn, params: &[Param], float: Float, opts: &Options) -> TokenStream {
    let out_ty: Type = match &func.sig.output {
        ReturnType::Type(_, ty) => (**ty).clone(),
        ReturnType::Default => syn::parse_quote!(()),
    };
    if !is_supported_output(&out_ty, float) {
        return TokenStream::new();
    }
    let k = &opts.krate;
    let d = reading_ident();
    let fl = float.ident();
    let name = &func.sig.ident;
    let chunk = opts.chunk;
    let name_str = name.to_string();
    let owned: Vec<TokenStream> = params
        .iter()
        .map(|p| owned_arg_type(&p.ty, &p.kind, k, float))
        .collect();
    let mut primal_args = Vec::new();
    let mut rule_args = Vec::new();
    for (i, p) in params.iter().enumerate() {
        let i = syn::Index::from(i);
        let (pa, ra) = match p.kind {
            ParamKind::Value => (quote!(args.#i), quote!(args.#i)),
            ParamKind::SliceRef => (
                quote!(&args.#i),
                quote!(#k::__private::ArrayView::view(&args.#i)),
            ),
            ParamKind::SliceMut => (
                quote!(&mut args.#i),
                quote!(#k::__private::ArrayViewMut::view_mut(&mut args.#i)),
            ),
            ParamKind::VecOwned => (quote!(args.#i.clone()), quote!(args.#i.clone())),
            ParamKind::RefValue => (quote!(&args.#i), quote!(&args.#i)),
            ParamKind::MutValue => (quote!(&mut args.#i), quote!(&mut args.#i)),
            ParamKind::Constant { by_ref: true } => (quote!(&args.#i.0), quote!(&args.#i)),
            ParamKind::Constant { by_ref: false } => {
                (quote!(args.#i.0.clone()), quote!(args.#i.clone()))
            }
        };
        primal_args.push(pa);
        rule_args.push(ra);
    }
    quote! {
        /// The `lifted::FRule` marker of this function: what drivers and
        /// `lifted::testing::check_rule` take.
        #[derive(Clone, Copy, Debug, Default)]
        pub struct Rule;

        impl #k::FRule for Rule {
            type Float = #fl;
            type Args = (#(#owned,)*);
            type Output = #out_ty;
            const CHUNK: usize = #chunk;
            const NAME: &'static str = #name_str;

            #[inline]
            fn primal(self, args: &mut Self::Args) -> Self::Output {
                super::#name(#(#primal_args),*)
            }

            #[inline]
            fn frule<#d: #k::Reading<#fl>>(
                self,
                args: &mut <Self::Args as #k::Param<#fl>>::Store<#d>,
            ) -> <Self::Output as #k::Param<#fl>>::Store<#d> {
                frule::<#d>(#(#rule_args),*)
            }
        }
    }
}
