//! `#[autodiff(forward)]` on an `impl` block of a `#[derive(lifted::Lift)]` type: the
//! block is emitted unchanged, and each function in it gets a rule as a function of the
//! same name in an `impl` of the dual struct, generic over the reading.
//!
//! Inside another rule, `p.energy(k)` on a lifted `p` calls the dual struct's method.
//! Drivers take a method's `FRule` marker: a module cannot be emitted inside an `impl`
//! block, so the marker (`ParticleEnergyRule`) is a struct next to the block, named by
//! an associated function on the type, `Particle::energy_rule()`, whose arguments are
//! the receiver followed by the method's.

use proc_macro2::TokenStream;
use quote::quote;
use syn::visit_mut::VisitMut;
use syn::{Ident, ImplItem, ItemFn, ItemImpl, Type};

use crate::emit::{Lowered, Param, RuleTarget, allowed_lints, frule_impl, lower_fn, reading_ident};
use crate::errors::Errors;
use crate::lift::dual_name;
use crate::options::Options;
use crate::types::{ParamKind, is_struct_type, map_type};

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

/// `Self::C` for an associated constant of the primal type, in a method body: the
/// rule's `Self` is the dual struct, which has no such constant; the path becomes
/// `Type::C`. (`Self { .. }` and `Self::new(..)` keep `Self`: the dual struct has its
/// fields and the rules of its methods.)
struct SelfConsts<'a>(&'a syn::Path);

impl VisitMut for SelfConsts<'_> {
    fn visit_expr_path_mut(&mut self, e: &mut syn::ExprPath) {
        let segs = &e.path.segments;
        if e.qself.is_none()
            && segs.len() == 2
            && segs[0].ident == "Self"
            && crate::analyse::is_const_name(&syn::Expr::Path(e.clone()))
        {
            let mut path = self.0.clone();
            path.segments.push(segs[1].clone());
            e.path = path;
        }
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
    let operator = match &item.trait_ {
        None => None,
        Some((path, _)) if is_operator_trait(path) => Some(path),
        Some((path, _)) => {
            errors.at(
                path,
                "`#[autodiff]` on an implementation of a trait other than an operator \
                 (`Add`, `Mul`, `Neg`, `AddAssign`, …) is not supported: the trait's \
                 signatures say `f64`, which a lifted value is not. Put the methods in an \
                 inherent `impl` block under `#[autodiff(forward)]`: rules then call them \
                 on lifted values (`p.energy()`), and drivers take `Type::energy_rule()`",
            );
            return TokenStream::new();
        }
    };
    if let Some(p) = item.generics.params.first() {
        errors.at(
            p,
            "`#[autodiff]` on a generic `impl` block is out of scope: write the `impl` for a concrete \
             `#[derive(lifted::Lift)]` type in `f64` (or `f32`)",
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
    let mut rules = Vec::new();
    let mut float = None;
    for it in &item.items {
        let ImplItem::Fn(f) = it else { continue };
        let (attrs, vis, sig, block) = (&f.attrs, &f.vis, &f.sig, &f.block);
        let Ok(mut func) = syn::parse2::<ItemFn>(quote!(#(#attrs)* #vis #sig #block)) else {
            errors.at(&f.sig.ident, "this method could not be read as a function");
            continue;
        };
        SelfType(self_ty).visit_signature_mut(&mut func.sig);
        SelfConsts(&tp.path).visit_block_mut(&mut func.block);
        let Some(Lowered {
            params,
            float: fl,
            rule_params,
            ret,
            mut body,
        }) = lower_fn(&func, opts, errors, true)
        else {
            continue;
        };
        if *float.get_or_insert(fl) != fl {
            errors.at(
                &f.sig.ident,
                "the methods of one `impl` block are written in one float type: write them all in `f64` \
                 (or all in `f32`) and convert with `as` where they are called",
            );
            continue;
        }
        body.stmts
            .insert(0, crate::lower::operand_traits(&opts.krate));
        let receiver = f.sig.receiver().map(|r| quote!(#r,));
        let (vis, name) = (&f.vis, &f.sig.ident);
        let docs = f.attrs.iter().filter(|a| a.path().is_ident("doc"));
        let lifetimes = f.sig.generics.lifetimes();
        methods.push(quote! {
            #(#docs)*
            #[inline]
            #vis fn #name<#(#lifetimes),*>(#receiver #(#rule_params),*) #ret #body
        });
        if operator.is_none() {
            rules.push(method_rule(self_ty, &dual_path, f, &func, params, fl, opts));
        }
    }
    if !errors.is_empty() {
        return TokenStream::new();
    }
    let float = float.unwrap_or(crate::types::Float::F64);
    let d = reading_ident(float);
    let k = &opts.krate;
    let fl = float.ident();
    let lints = allowed_lints();
    if let Some(path) = operator {
        // `impl Mul for Cplx`: the same operator on the dual struct, its types mapped.
        // The trait's own path stays; its type arguments (`Mul<f64>`) are mapped.
        let mut tr = path.clone();
        for seg in tr.segments.iter_mut() {
            if let syn::PathArguments::AngleBracketed(args) = &mut seg.arguments {
                for arg in args.args.iter_mut() {
                    if let syn::GenericArgument::Type(t) = arg {
                        SelfType(self_ty).visit_type_mut(t);
                        *t = map_type(t, float, &d, k);
                    }
                }
            }
        }
        let assoc = item.items.iter().filter_map(|it| match it {
            ImplItem::Type(t) => {
                let (name, mut ty) = (&t.ident, t.ty.clone());
                SelfType(self_ty).visit_type_mut(&mut ty);
                let ty = map_type(&ty, float, &d, k);
                Some(quote!(type #name = #ty;))
            }
            _ => None,
        });
        let rule = operator_rule(path, self_ty, float, &d, k);
        return quote! {
            #lints
            impl<#d: #k::Reading<#fl>> #tr for #dual_path<#d> {
                #(#assoc)*
                #(#methods)*
            }
            #rule
        };
    }
    quote! {
        #lints
        impl<#d: #k::Reading<#fl>> #dual_path<#d> {
            #(#methods)*
        }
        #(#rules)*
    }
}

/// The operator's rule trait of `lifted::ops` for the primal type (`MulRule<Cplx, f64>`
/// for `impl Mul for Cplx`), which rule bodies call for the operator between two
/// lifted structs: its method applies the dual struct's operator. Nothing for a
/// right-hand side that is not a struct (`Mul<f64>`): the lowering takes that route
/// for struct operands alone.
fn operator_rule(
    path: &syn::Path,
    self_ty: &Type,
    float: crate::types::Float,
    d: &Ident,
    k: &syn::Path,
) -> TokenStream {
    let Some(last) = path.segments.last() else {
        return TokenStream::new();
    };
    let name = last.ident.to_string();
    let fl = float.ident();
    let store = |t: &dyn quote::ToTokens| quote!(<#t as #k::Param<#fl>>::Store<#d>);
    let self_store = store(&quote!(Self));
    let primal = quote!(<Self as #path>::Output);
    if name == "Neg" {
        let out = store(&primal);
        return quote! {
            impl #k::ops::NegRule<#fl> for #self_ty {
                type Output = #primal;
                #[inline]
                fn neg<#d: #k::Reading<#fl>>(a: #self_store) -> #out {
                    ::core::ops::Neg::neg(a)
                }
            }
        };
    }
    let rhs = match &last.arguments {
        syn::PathArguments::AngleBracketed(args) => match args.args.first() {
            Some(syn::GenericArgument::Type(t)) => {
                let mut t = t.clone();
                SelfType(self_ty).visit_type_mut(&mut t);
                t
            }
            _ => return TokenStream::new(),
        },
        _ => self_ty.clone(),
    };
    if !is_struct_type(&rhs) {
        return TokenStream::new();
    }
    let op = Ident::new(&name, last.ident.span());
    let rule = quote::format_ident!("{}Rule", name);
    let method = Ident::new(&crate::lower::snake(&name), last.ident.span());
    let rhs_store = store(&rhs);
    if name.ends_with("Assign") {
        return quote! {
            impl #k::ops::#rule<#rhs, #fl> for #self_ty {
                #[inline]
                fn #method<#d: #k::Reading<#fl>>(a: &mut #self_store, b: #rhs_store) {
                    ::core::ops::#op::#method(a, b)
                }
            }
        };
    }
    let out = store(&primal);
    quote! {
        impl #k::ops::#rule<#rhs, #fl> for #self_ty {
            type Output = #primal;
            #[inline]
            fn #method<#d: #k::Reading<#fl>>(a: #self_store, b: #rhs_store) -> #out {
                ::core::ops::#op::#method(a, b)
            }
        }
    }
}

/// `std::ops::Add`, `Mul`, `Neg`, `AddAssign`, … by their last path segment: the traits
/// whose methods take and return the implementing type, which the dual struct can
/// implement with the types mapped.
fn is_operator_trait(path: &syn::Path) -> bool {
    path.segments.last().is_some_and(|s| {
        matches!(
            s.ident.to_string().as_str(),
            "Add"
                | "Sub"
                | "Mul"
                | "Div"
                | "Rem"
                | "Neg"
                | "AddAssign"
                | "SubAssign"
                | "MulAssign"
                | "DivAssign"
                | "RemAssign"
        )
    })
}

/// A method's `FRule` marker, `TypeMethodRule`, and the associated function
/// `Type::method_rule()` that names it for drivers (a module, where a free function's
/// `Rule` lives, cannot be emitted inside an `impl` block). The receiver is the rule's
/// first argument: `&self` and `&mut self` as a reference to the struct (in/out for
/// `&mut`), `self` by value.
fn method_rule(
    self_ty: &Type,
    dual_path: &syn::Path,
    method: &syn::ImplItemFn,
    func: &ItemFn,
    mut params: Vec<Param>,
    float: crate::types::Float,
    opts: &Options,
) -> TokenStream {
    let name = &method.sig.ident;
    if let Some(r) = method.sig.receiver() {
        let (ty, kind): (Type, ParamKind) = match &r.kind {
            syn::ReceiverKind::Reference(_, _, Some(_)) => {
                (syn::parse_quote!(&mut #self_ty), ParamKind::MutValue)
            }
            syn::ReceiverKind::Reference(_, _, None) => {
                (syn::parse_quote!(&#self_ty), ParamKind::RefValue)
            }
            _ => (self_ty.clone(), ParamKind::Value),
        };
        let pat = syn::parse_quote!(this);
        params.insert(0, Param { pat, ty, kind });
    }
    let type_name = match self_ty {
        Type::Path(p) => p
            .path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default(),
        _ => String::new(),
    };
    let camel: String = name
        .to_string()
        .split('_')
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect();
    let marker = Ident::new(&format!("{type_name}{camel}Rule"), name.span());
    let getter = Ident::new(&format!("{name}_rule"), name.span());
    let doc = format!(
        "The `lifted::FRule` marker of [`{type_name}::{name}`]: what drivers take, through \
         [`{type_name}::{getter}`]."
    );
    let d = reading_ident(float);
    let rule_name = format!("{type_name}::{name}");
    let rule_impl = frule_impl(
        &RuleTarget {
            marker: &marker,
            name: &rule_name,
            doc: &doc,
            primal: quote!(<#self_ty>::#name),
            rule: quote!(<#dual_path<#d>>::#name),
        },
        func,
        &params,
        float,
        opts,
    );
    if rule_impl.is_empty() {
        return rule_impl;
    }
    let vis = &method.vis;
    let getter_doc = format!(
        "The forward rule of [`{type_name}::{name}`] for drivers: \
         `lifted::gradient({type_name}::{getter}(), args)`, the receiver first in `args`."
    );
    // Unused rules warn nobody: most methods are never handed to a driver.
    let lints = allowed_lints();
    quote! {
        #[doc(hidden)]
        #lints
        #rule_impl

        #lints
        impl #self_ty {
            #[doc = #getter_doc]
            #[inline]
            #vis fn #getter() -> #marker {
                #marker
            }
        }
    }
}
