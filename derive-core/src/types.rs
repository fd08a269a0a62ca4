//! What each parameter and the result are, read from their syntactic types, and how
//! those types read inside the rule.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Ident, Type};

/// Rust's integer types by name.
pub const INTEGER_TYPES: &[&str] = &[
    "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize",
];

/// The float field a function is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Float {
    /// `f64`
    F64,
    /// `f32`
    F32,
}

impl Float {
    /// The field's type name.
    pub fn ident(self) -> Ident {
        Ident::new(self.name(), Span::call_site())
    }
    /// The field's name.
    pub fn name(self) -> &'static str {
        match self {
            Float::F64 => "f64",
            Float::F32 => "f32",
        }
    }
    fn of_ident(name: &str) -> Option<Self> {
        match name {
            "f64" => Some(Float::F64),
            "f32" => Some(Float::F32),
            _ => None,
        }
    }
}

/// How an argument travels: what the owned `Args` tuple holds and how the primal and
/// the rule are handed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamKind {
    /// A float, a fixed array or tuple of floats, or an integer: passed by value.
    Value,
    /// `&[f]`: owned as `Vec<f>`, the rule gets a shared view.
    SliceRef,
    /// `&mut [f]`: owned as `Vec<f>`, the rule gets a mutable view (in/out).
    SliceMut,
    /// `Vec<f>` by value.
    VecOwned,
    /// `&T` for a `T` passed by value above (fixed arrays).
    RefValue,
    /// `&mut T` for a `T` passed by value above.
    MutValue,
    /// A tuple with shared references among its elements (`(&f32, &f32)`): owned as the
    /// tuple of the referenced values; each `&` element is handed a reference to its
    /// owned value, the others their value.
    RefTuple,
    /// An `ndarray` array of the field (`ArrayView2<'_, f64>`, `Array1<f64>`, …): owned
    /// as the array type `owned`; `view` when the parameter is a view (handed `.view()`).
    NdArray {
        /// Whether the parameter is a view.
        view: bool,
        /// The owned ndarray type's name (`Array2` for `ArrayView2`).
        owned: Ident,
    },
    /// An array of float arrays (`Vec<Vec<f>>`, `&[Vec<f>]`, `&Vec<[f; K]>`, …): owned as
    /// `Vec` of the inner array, the rule gets the type map's `Vec` of the reading's
    /// arrays; `by_ref` for `&` (`mutable` for `&mut`).
    Nested {
        /// Whether the parameter is a reference.
        by_ref: bool,
        /// Whether that reference is `&mut`.
        mutable: bool,
    },
    /// `#[constant]`: not lifted; `by_ref` when the parameter is a reference.
    Constant {
        /// Whether the parameter is `&T`.
        by_ref: bool,
    },
}

/// Whether a syntactic type mentions `f64` or `f32` anywhere, and which.
pub fn float_in(ty: &Type) -> Option<(Float, Span)> {
    struct Find(Option<(Float, Span)>);
    impl<'ast> syn::visit::Visit<'ast> for Find {
        fn visit_path(&mut self, p: &'ast syn::Path) {
            if let Some(id) = p.get_ident()
                && let Some(f) = Float::of_ident(&id.to_string())
            {
                self.0.get_or_insert((f, id.span()));
            }
            syn::visit::visit_path(self, p);
        }
    }
    let mut find = Find(None);
    syn::visit::visit_type(&mut find, ty);
    find.0
}

/// `f` as a bare float type name?
pub fn is_float(ty: &Type, f: Float) -> bool {
    matches!(ty, Type::Path(p) if p.qself.is_none() && p.path.is_ident(f.name()))
}

fn slice_of_float(ty: &Type, f: Float) -> bool {
    matches!(ty, Type::Slice(s) if is_float(&s.elem, f))
}

fn vec_of_float(ty: &Type, f: Float) -> bool {
    let Type::Path(p) = ty else { return false };
    let Some(last) = p.path.segments.last() else {
        return false;
    };
    if last.ident != "Vec" {
        return false;
    }
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return false;
    };
    matches!(args.args.first(), Some(syn::GenericArgument::Type(t)) if is_float(t, f))
}

/// Whether `ty` is a `Vec<f>` (a growable float array in the body).
pub fn is_float_vec(ty: &Type, f: Float) -> bool {
    vec_of_float(ty, f)
}

/// Standard types named like user types, which are never lifted structs.
const STD_TYPES: &[&str] = &[
    "String",
    "Vec",
    "Option",
    "Result",
    "Box",
    "Rc",
    "Arc",
    "Cow",
    "HashMap",
    "HashSet",
    "BTreeMap",
    "BTreeSet",
    "VecDeque",
    "Range",
    "RangeInclusive",
    "PhantomData",
    "Self",
    "Cell",
    "RefCell",
    "Mutex",
    "RwLock",
    "Ordering",
];

/// A user type by name (`Particle`, `geom::Point`): lifted through its
/// `#[derive(lifted::Lift)]` implementation of `Param`. Types with generic arguments and
/// standard types are not.
pub fn is_struct_type(ty: &Type) -> bool {
    let Type::Path(p) = ty else { return false };
    p.qself.is_none()
        && p.path.segments.iter().all(|s| s.arguments.is_none())
        && p.path.segments.last().is_some_and(|s| {
            let name = s.ident.to_string();
            name.chars().next().is_some_and(|c| c.is_ascii_uppercase())
                && !STD_TYPES.contains(&name.as_str())
        })
}

/// Whether a type mentions a user type ([`is_struct_type`]) anywhere.
pub fn mentions_struct(ty: &Type) -> bool {
    struct Find(bool);
    impl<'ast> syn::visit::Visit<'ast> for Find {
        fn visit_type(&mut self, t: &'ast Type) {
            if is_struct_type(t) {
                self.0 = true;
            }
            syn::visit::visit_type(self, t);
        }
    }
    let mut find = Find(false);
    syn::visit::Visit::visit_type(&mut find, ty);
    find.0
}

/// Types whose values are passed by value and lift element-wise: floats, integers,
/// `bool`, user types, fixed arrays and tuples of those.
fn is_value_type(ty: &Type, f: Float) -> bool {
    match ty {
        _ if is_struct_type(ty) => true,
        Type::Path(p) if p.qself.is_none() => p.path.get_ident().is_some_and(|id| {
            id == f.name() || id == "bool" || INTEGER_TYPES.contains(&id.to_string().as_str())
        }),
        Type::Array(a) => is_value_type(&a.elem, f),
        Type::Tuple(t) => t.elems.iter().all(|e| is_value_type(e, f)),
        Type::Paren(p) => is_value_type(&p.elem, f),
        _ => false,
    }
}

/// An `ndarray` array type of the field `f`: whether it is a view, and the owned
/// array type's name. Recognised by name (`Array1`, `ArrayView2`, …, `ArrayD`), as the
/// macro sees only syntax; the runtime's `ndarray` feature supplies the impls.
pub fn ndarray_type(ty: &Type, f: Float) -> Option<(bool, Ident)> {
    let Type::Path(p) = ty else { return None };
    let last = p.path.segments.last()?;
    let name = last.ident.to_string();
    let (view, owned) = match name.as_str() {
        "Array1" | "Array2" | "Array3" | "ArrayD" => (false, name.as_str()),
        "ArrayView1" => (true, "Array1"),
        "ArrayView2" => (true, "Array2"),
        "ArrayView3" => (true, "Array3"),
        "ArrayViewD" => (true, "ArrayD"),
        _ => return None,
    };
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    let elem = args.args.iter().find_map(|a| match a {
        syn::GenericArgument::Type(t) => Some(t),
        _ => None,
    })?;
    is_float(elem, f).then(|| (view, Ident::new(owned, last.ident.span())))
}

/// The element type of `Vec<E>`, `[E]` or `[E; K]`.
fn array_elem(ty: &Type) -> Option<&Type> {
    match ty {
        Type::Slice(s) => Some(&s.elem),
        Type::Array(a) => Some(&a.elem),
        Type::Path(p) => {
            let last = p.path.segments.last()?;
            if last.ident != "Vec" {
                return None;
            }
            let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
                return None;
            };
            match args.args.first() {
                Some(syn::GenericArgument::Type(t)) => Some(t),
                _ => None,
            }
        }
        _ => None,
    }
}

/// `Vec<Vec<f>>`, `[Vec<f>]`, `Vec<[f; K]>`, `[[f; K]]`: an array whose elements are float
/// arrays (not `[[f; K]; M]`, a value type).
pub fn is_nested_array(ty: &Type, f: Float) -> bool {
    if matches!(ty, Type::Array(_)) {
        return false;
    }
    array_elem(ty)
        .is_some_and(|e| vec_of_float(e, f) || matches!(e, Type::Array(a) if is_float(&a.elem, f)))
}

/// The inner array type of a nested array (`Vec<f64>` of `&[Vec<f64>]`).
pub fn nested_elem(ty: &Type) -> Option<&Type> {
    match ty {
        Type::Reference(r) => nested_elem(&r.elem),
        other => array_elem(other),
    }
}

/// Classifies a non-constant parameter's type; `None` when it is not supported.
pub fn classify_param(ty: &Type, f: Float) -> Option<ParamKind> {
    match ty {
        Type::Reference(r) if is_nested_array(&r.elem, f) => Some(ParamKind::Nested {
            by_ref: true,
            mutable: r.mutability.is_some(),
        }),
        _ if is_nested_array(ty, f) && !matches!(ty, Type::Slice(_)) => Some(ParamKind::Nested {
            by_ref: false,
            mutable: false,
        }),
        Type::Reference(r) if slice_of_float(&r.elem, f) => Some(if r.mutability.is_some() {
            ParamKind::SliceMut
        } else {
            ParamKind::SliceRef
        }),
        Type::Reference(r) if is_value_type(&r.elem, f) => Some(if r.mutability.is_some() {
            ParamKind::MutValue
        } else {
            ParamKind::RefValue
        }),
        _ if vec_of_float(ty, f) => Some(ParamKind::VecOwned),
        _ if is_value_type(ty, f) => Some(ParamKind::Value),
        Type::Tuple(t) if is_ref_tuple(t, f) => Some(ParamKind::RefTuple),
        _ => ndarray_type(ty, f).map(|(view, owned)| ParamKind::NdArray { view, owned }),
    }
}

/// A tuple of value types and shared references to value types, at least one of each
/// element a reference: `(&f64, &f64)`, `(&[f64; 3], f64)`.
fn is_ref_tuple(t: &syn::TypeTuple, f: Float) -> bool {
    let shared_value = |e: &Type| matches!(e, Type::Reference(r) if r.mutability.is_none() && is_value_type(&r.elem, f));
    t.elems.iter().any(shared_value)
        && t.elems
            .iter()
            .all(|e| shared_value(e) || is_value_type(e, f))
}

/// The elements of a [`ParamKind::RefTuple`] parameter's type: whether each is a
/// reference, and the type its owned tuple holds there.
pub fn ref_tuple_elems(ty: &Type) -> Vec<(bool, &Type)> {
    match ty {
        Type::Tuple(t) => t
            .elems
            .iter()
            .map(|e| match e {
                Type::Reference(r) => (true, &*r.elem),
                other => (false, other),
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// Whether a result type can be returned by a rule that implements `FRule`: a value
/// type, `Vec<f>`, `()` or `Option` of those.
pub fn is_supported_output(ty: &Type, f: Float) -> bool {
    match ty {
        _ if is_value_type(ty, f) || vec_of_float(ty, f) => true,
        _ if is_nested_array(ty, f) && !matches!(ty, Type::Slice(_)) => true,
        _ if ndarray_type(ty, f).is_some_and(|(view, _)| !view) => true,
        Type::Tuple(t) => t.elems.iter().all(|e| is_supported_output(e, f)),
        Type::Path(p) => p.path.segments.last().is_some_and(|last| {
            last.ident == "Option"
                && matches!(&last.arguments, syn::PathArguments::AngleBracketed(a)
                    if matches!(a.args.first(), Some(syn::GenericArgument::Type(t)) if is_supported_output(t, f)))
        }),
        _ => false,
    }
}

/// The owned type held in the rule's `Args` tuple for a parameter.
pub fn owned_arg_type(ty: &Type, kind: &ParamKind, krate: &syn::Path, f: Float) -> TokenStream {
    let fl = f.ident();
    match kind {
        ParamKind::SliceRef | ParamKind::SliceMut | ParamKind::VecOwned => {
            quote!(#krate::__private::Vec<#fl>)
        }
        ParamKind::Value => quote!(#ty),
        ParamKind::RefTuple => {
            let elems = ref_tuple_elems(ty).into_iter().map(|(_, e)| e);
            quote!((#(#elems,)*))
        }
        ParamKind::Nested { .. } => {
            let elem = nested_elem(ty);
            quote!(#krate::__private::Vec<#elem>)
        }
        ParamKind::NdArray { owned, .. } => quote!(#krate::__private::ndarray::#owned<#fl>),
        ParamKind::RefValue | ParamKind::MutValue => match ty {
            Type::Reference(r) => {
                let elem = &r.elem;
                quote!(#elem)
            }
            _ => quote!(#ty),
        },
        ParamKind::Constant { by_ref } => {
            if let Some((true, owned)) = ndarray_type(ty, f) {
                return quote!(#krate::__private::Constant<#krate::__private::ndarray::#owned<#fl>>);
            }
            let inner = match (by_ref, ty) {
                (true, Type::Reference(r)) => match &*r.elem {
                    Type::Slice(s) => {
                        let e = &s.elem;
                        quote!(#krate::__private::Vec<#e>)
                    }
                    Type::Path(p) if p.path.is_ident("str") => quote!(::std::string::String),
                    other => quote!(#other),
                },
                _ => quote!(#ty),
            };
            quote!(#krate::__private::Constant<#inner>)
        }
    }
}

/// Whether `ty` is an owned type the runtime's argument map (`Param`) lifts and that
/// carries derivatives: floats and user structs, and `Vec`, `Option`, `Result`, fixed
/// arrays and tuples of them. Leaves of other types (`usize`, `String`) map to
/// themselves, so types holding them are left to [`map_type`]'s rewriting in place.
fn in_argument_map(ty: &Type, f: Float) -> bool {
    match ty {
        _ if is_float(ty, f) || is_struct_type(ty) => true,
        Type::Array(a) => in_argument_map(&a.elem, f),
        Type::Paren(p) => in_argument_map(&p.elem, f),
        Type::Tuple(t) => !t.elems.is_empty() && t.elems.iter().all(|e| in_argument_map(e, f)),
        Type::Path(p) if p.qself.is_none() => {
            let Some(last) = p.path.segments.last() else {
                return false;
            };
            let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
                return false;
            };
            let arity = match last.ident.to_string().as_str() {
                "Vec" | "Option" => 1,
                "Result" => 2,
                _ => return false,
            };
            args.args.len() == arity
                && args
                    .args
                    .iter()
                    .all(|a| matches!(a, syn::GenericArgument::Type(t) if in_argument_map(t, f)))
        }
        _ => false,
    }
}

/// Rewrites a type as it reads inside the rule at reading `d`.
///
/// Owned types built from the argument map's parts read through that map,
/// `<T as Param<F>>::Store<D>`, so the runtime alone says
/// what `Vec<f64>`, `Vec<Vec<f64>>` or a user struct becomes. A bare float is written
/// `d` itself (the map's identity there, and what rustc's messages should name). The
/// rest is outside the map and rewritten in place: `&[f]` / `&mut [f]` become the
/// reading's views, and references, slices, mixed tuples and other generic types
/// (`HashMap<K, f64>`) have their parts rewritten.
pub fn map_type(ty: &Type, f: Float, d: &Ident, krate: &syn::Path) -> Type {
    let span = ty.span();
    let tokens = match ty {
        _ if is_float(ty, f) => quote_spanned!(span=> #d),
        Type::Reference(r) if slice_of_float(&r.elem, f) => {
            if r.mutability.is_some() {
                quote_spanned!(span=> <#d as #krate::array::ArrayReading>::Mut<'_>)
            } else {
                quote_spanned!(span=> <#d as #krate::array::ArrayReading>::Ref<'_>)
            }
        }
        _ if in_argument_map(ty, f) => {
            let fl = f.ident();
            quote_spanned!(span=> <#ty as #krate::Param<#fl>>::Store<#d>)
        }
        Type::Reference(r) => {
            let mut r = r.clone();
            *r.elem = map_type(&r.elem, f, d, krate);
            quote!(#r)
        }
        Type::Array(a) => {
            let mut a = a.clone();
            *a.elem = map_type(&a.elem, f, d, krate);
            quote!(#a)
        }
        Type::Slice(s) => {
            let mut s = s.clone();
            *s.elem = map_type(&s.elem, f, d, krate);
            quote!(#s)
        }
        Type::Tuple(t) => {
            let mut t = t.clone();
            for e in t.elems.iter_mut() {
                *e = map_type(e, f, d, krate);
            }
            quote!(#t)
        }
        Type::Paren(p) => {
            let mut p = p.clone();
            *p.elem = map_type(&p.elem, f, d, krate);
            quote!(#p)
        }
        Type::Path(p) => {
            let mut p = p.clone();
            for seg in p.path.segments.iter_mut() {
                if let syn::PathArguments::AngleBracketed(args) = &mut seg.arguments {
                    for arg in args.args.iter_mut() {
                        if let syn::GenericArgument::Type(t) = arg {
                            *t = map_type(t, f, d, krate);
                        }
                    }
                }
            }
            quote!(#p)
        }
        other => quote!(#other),
    };
    syn::parse2(tokens).unwrap_or_else(|_| ty.clone())
}

#[cfg(test)]
mod tests {
    use super::{Float, map_type};
    use quote::ToTokens;

    fn mapped(ty: &str) -> String {
        let Ok(ty) = syn::parse_str::<syn::Type>(ty) else {
            return format!("not a type: {ty}");
        };
        let d = syn::Ident::new("D", proc_macro2::Span::call_site());
        let krate: syn::Path = syn::parse_quote!(k);
        map_type(&ty, Float::F64, &d, &krate)
            .to_token_stream()
            .to_string()
            .replace(' ', "")
    }

    #[test]
    fn owned_types_of_the_argument_map_read_through_it() {
        assert_eq!(mapped("f64"), "D");
        for ty in [
            "Vec<f64>",
            "Vec<Vec<f64>>",
            "[[f64;3];2]",
            "(f64,Particle)",
            "Option<Vec<f64>>",
        ] {
            assert_eq!(
                mapped(ty),
                format!("<{ty}ask::Param<f64>>::Store<D>"),
                "{ty}"
            );
        }
    }

    #[test]
    fn types_outside_the_map_are_rewritten_part_by_part() {
        assert_eq!(mapped("&[f64]"), "<Dask::array::ArrayReading>::Ref<'_>");
        assert_eq!(mapped("&mut [f64]"), "<Dask::array::ArrayReading>::Mut<'_>");
        assert_eq!(mapped("&Vec<f64>"), "&<Vec<f64>ask::Param<f64>>::Store<D>");
        assert_eq!(mapped("HashMap<usize, f64>"), "HashMap<usize,D>");
        assert_eq!(mapped("(usize, f64)"), "(usize,D)");
        assert_eq!(mapped("Vec<usize>"), "Vec<usize>");
        assert_eq!(mapped("f32"), "f32");
    }
}
