//! Float arrays inside a rule body: indexing reads and writes, sub-slices and
//! references, array methods called through their traits' paths, and the reading's own
//! constructors for `Vec::new()` / `Vec::with_capacity`.

use quote::{quote, quote_spanned};
use syn::{Expr, Ident};

use super::{Lowerer, Want, strip};
use crate::analyse::{ArrayKind, is_rule_call};
use crate::syntax::{fill, hole, holes, ident_expr, span_of, take};

impl Lowerer<'_> {
    /// `Vec::new()` / `Vec::with_capacity(n)` for a float array become the reading's array.
    pub(super) fn array_init(&mut self, e: &mut Expr) {
        let span = span_of(e);
        if matches!(e, Expr::Macro(m) if m.mac.path.is_ident("vec") && m.mac.tokens.is_empty()) {
            let (k, d, pv) = (&self.krate, &self.d, self.private());
            *e = fill(
                quote_spanned!(span=> <<#d as #k::array::ArrayReading>::Vec as #pv::Default>::default()),
                [],
            );
            return;
        }
        let Expr::Call(c) = e else { return };
        let Expr::Path(p) = &*c.func else { return };
        let segs: Vec<String> = p
            .path
            .segments
            .iter()
            .map(|s| s.ident.to_string())
            .collect();
        let (k, d, pv) = (&self.krate, &self.d, self.private());
        let vec_ty = quote!(<#d as #k::array::ArrayReading>::Vec);

        match segs
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
            .as_slice()
        {
            ["Vec", "new"] => {
                *e = fill(
                    quote_spanned!(span=> <#vec_ty as #pv::Default>::default()),
                    [],
                );
            }
            ["Vec", "with_capacity"] => {
                let args: Vec<Expr> = std::mem::take(&mut c.args).into_iter().collect();
                let hs = holes(args.len());
                *e = fill(
                    quote_spanned!(span=> <#vec_ty as #pv::ArrayOwned<#d>>::with_capacity(#(#hs),*)),
                    args,
                );
            }
            _ => {}
        }
    }

    pub(super) fn index_read(&mut self, e: &mut Expr) {
        let span = span_of(e);
        let Expr::Index(ix) = e else { return };
        if let Expr::Index(inner) = strip(&ix.expr)
            && self.array_kind(&inner.expr).is_some()
        {
            self.errors.at(
                &*ix.index,
                "a flat float array has no rows to index twice (`y[i][j]`): index it with \
                 `i * n + j`, or take the matrix as rows (`&[Vec<f64>]`, `Vec<[f64; K]>`), which \
                 `m[i][j]` indexes",
            );
            return;
        }
        let field_range =
            self.array_kind(&ix.expr).is_none() && matches!(strip(&ix.index), Expr::Range(_));
        let Some(base) = self.array_place(&ix.expr).filter(|_| !field_range) else {
            // The result of a rule call (`g(x)[1]`, `let v = g(x); v[0]`) may be the
            // reading's array, which has no `Index`: read through `ArrayRead`.
            let call_result = match strip(&ix.expr) {
                Expr::Call(c) => {
                    matches!(&*c.func, Expr::Path(p) if is_rule_call(self.scope, &p.path))
                }
                Expr::Path(p) => p
                    .path
                    .get_ident()
                    .is_some_and(|i| self.call_results.contains(&i.to_string())),
                _ => false,
            };
            if call_result && !matches!(strip(&ix.index), Expr::Range(_)) {
                self.expr(&mut ix.expr, Want::Any);
                self.expr(&mut ix.index, Want::Any);
                let pv = self.private();
                let parts = [take(&mut ix.expr), take(&mut ix.index)];
                let [base, idx] = [hole(0), hole(1)];
                *e = fill(
                    quote_spanned!(span=> #pv::ArrayRead::get(&#base, #idx)),
                    parts,
                );
                return;
            }
            syn::visit_mut::visit_expr_index_mut(self, ix);
            return;
        };
        self.expr(&mut ix.index, Want::Any);
        let pv = self.private();
        let range = matches!(strip(&ix.index), Expr::Range(_));
        let parts = [base, take(&mut ix.index)];
        let [base, idx] = [hole(0), hole(1)];
        let template = if range {
            quote_spanned!(span=> #pv::ArrayView::slice(&#base, #idx))
        } else {
            quote_spanned!(span=> #pv::ArrayRead::get(&#base, #idx))
        };
        *e = fill(template, parts);
    }

    pub(super) fn reference(&mut self, e: &mut Expr) {
        let span = span_of(e);
        let Expr::Reference(r) = e else { return };
        let mutable = r.mutability.is_some();
        let pv = self.private();

        // `&m[i]` of a nested array, passed on as a view.
        if let Expr::Index(ix) = strip(&r.expr)
            && self.is_nested(&ix.expr)
            && !matches!(strip(&ix.index), Expr::Range(_))
        {
            let row = (*r.expr).clone();
            *e = if mutable {
                fill(
                    quote_spanned!(span=> #pv::ArrayViewMut::view_mut(&mut #row)),
                    [],
                )
            } else {
                fill(quote_spanned!(span=> #pv::ArrayView::view(&#row)), [])
            };
            return;
        }
        // `&x[a..b]` is a view; `&x[i]` a reference to the element, read by value.
        let sliced = match strip(&r.expr) {
            Expr::Index(ix) if matches!(strip(&ix.index), Expr::Range(_)) || mutable => {
                self.array_kind(&ix.expr).map(|(base, _)| base)
            }
            _ => None,
        };
        if let Some(base) = sliced {
            let mut idx = match index_of(&mut r.expr) {
                Some(idx) => take(idx),
                None => return,
            };
            self.expr(&mut idx, Want::Any);
            let h = hole(0);
            let template = if mutable {
                quote_spanned!(span=> #pv::ArrayViewMut::slice_mut(&mut #base, #h))
            } else {
                quote_spanned!(span=> #pv::ArrayView::slice(&#base, #h))
            };
            *e = fill(template, [idx]);
            return;
        }
        if let Some((base, kind)) = self.array_kind(&r.expr) {
            *e = match (kind, mutable) {
                (_, true) => fill(
                    quote_spanned!(span=> #pv::ArrayViewMut::view_mut(&mut #base)),
                    [],
                ),
                (ArrayKind::Ref, false) => ident_expr(&base),
                (_, false) => fill(quote_spanned!(span=> #pv::ArrayView::view(&#base)), []),
            };
            return;
        }
        self.expr(&mut r.expr, Want::Any);
    }

    /// A method of a float array (`x.len()`, `x.iter()`, `y.swap(i, j)`, `v.push(e)`):
    /// called through its trait's path, so that the trait need not be in scope — where it
    /// were, it would also change the methods of plain `Vec<f64>` values.
    pub(super) fn array_method(&mut self, e: &mut Expr) -> bool {
        let Expr::MethodCall(m) = e else { return false };
        let method = m.method.to_string();
        if method == "concat"
            && m.args.is_empty()
            && crate::analyse::concat_of_arrays(self.scope, &m.receiver)
        {
            let span = m.method.span();
            let (pv, d) = (self.private(), self.d.clone());
            let recv = match &mut *m.receiver {
                Expr::Array(a) => {
                    for el in a.elems.iter_mut() {
                        self.expr(el, Want::Any);
                    }
                    take(&mut m.receiver)
                }
                recv => take(recv),
            };
            let h = hole(0);
            *e = fill(quote_spanned!(span=> #pv::concat::<#d, _>(&#h)), [recv]);
            return true;
        }
        let Some((tr, by_mut)) = array_trait(&method) else {
            if self.array_kind(&m.receiver).is_some()
                && !STD_TRAIT_METHODS.contains(&method.as_str())
            {
                self.errors.at(&m.method, missing_array_method(&method));
                return true;
            }
            return false;
        };
        let (base, base_name) = match self.array_kind(&m.receiver) {
            Some((base, _)) => (ident_expr(&base), base),
            None => match self.sub_slice(&m.receiver, by_mut) {
                Some(view) => view,
                None if matches!(strip(&m.receiver), Expr::Field(_))
                    && self.fieldish(&m.receiver) =>
                {
                    return self.field_array_method(e, &method);
                }
                None if matches!(strip(&m.receiver), Expr::Index(ix) if self.is_nested(&ix.expr))
                    || self.field_row(&m.receiver) =>
                {
                    return self.field_array_method(e, &method);
                }
                // `g(x).iter()`, `layer.forward(x).len()`: the result of a rule, an array
                // of the reading when the primal returns a `Vec`.
                None if self.rule_result(&m.receiver) => {
                    return self.field_array_method(e, &method);
                }
                None => return false,
            },
        };
        let want = if matches!(method.as_str(), "push" | "fill" | "resize" | "insert") {
            Want::Reading
        } else {
            Want::Any
        };
        for arg in m.args.iter_mut() {
            match arg {
                Expr::Closure(c) => self.closure(c, true),
                _ => self.expr(arg, want),
            }
        }
        // `v.push(v[0] * x)`: the arguments read the array, so they are evaluated before
        // it is borrowed mutably (what two-phase borrows do for the method call).
        let hoist = by_mut
            && m.args.iter().any(|a| {
                !matches!(a, Expr::Closure(_)) && mentions_ident(a, &base_name.to_string())
            });
        let (mut temps, mut hoisted) = (Vec::new(), Vec::new());
        if hoist {
            for (i, arg) in m.args.iter_mut().enumerate() {
                if matches!(arg, Expr::Closure(_)) {
                    continue;
                }
                let tmp = Self::arg_temp(i);
                hoisted.push(take(arg));
                temps.push(tmp.clone());
                *arg = ident_expr(&tmp);
            }
        }
        let (pv, mut name) = (self.private(), m.method.clone());
        // std's names whose trait method is spelled otherwise: `get` returns the
        // element by value (`ArrayRead::get` is indexing), `into_iter` and `to_owned`
        // are `iter` and `to_vec` of an array that is not consumed.
        let renamed = match method.as_str() {
            "get" => Some("checked_get"),
            "into_iter" => Some("iter"),
            "to_owned" => Some("to_vec"),
            _ => None,
        };
        if let Some(r) = renamed {
            name = Ident::new(r, name.span());
        }
        let tr = Ident::new(tr, name.span());
        // The receiver (a view holding the sub-slice's range) is the first part, then
        // the hoisted values, then the arguments.
        let mut parts = vec![base];
        let recv = hole(0);
        let recv = if by_mut {
            quote!(&mut #recv)
        } else {
            quote!(&#recv)
        };
        let hoisted_at = holes(1 + hoisted.len()).split_off(1);
        parts.extend(hoisted);
        let args: Vec<Expr> = std::mem::take(&mut m.args).into_iter().collect();
        let args_at = holes(parts.len() + args.len()).split_off(parts.len());
        parts.extend(args);
        let span = name.span();
        let comma = if args_at.is_empty() {
            quote!()
        } else {
            quote!(,)
        };
        let turbofish = &m.turbofish;
        let call = quote_spanned!(span=> #pv::#tr::#name #turbofish (#recv #comma #(#args_at),*));
        *e = if hoist {
            fill(
                quote_spanned!(span=> { #(let #temps = #hoisted_at;)* #call }),
                parts,
            )
        } else {
            fill(call, parts)
        };
        true
    }

    /// A slice method on a field of a lifted struct or a row of a nested array
    /// (`self.w.len()`, `p.w.iter()`, `m[i].first()`): a `Vec` field is the reading's
    /// array, a fixed-array field `[D; K]`, a `#[constant]` one what it was, which the
    /// macro cannot tell apart; `FieldArray` picks the method by type. Other methods
    /// stay as written.
    fn field_array_method(&mut self, e: &mut Expr, method: &str) -> bool {
        if !matches!(
            method,
            "len" | "is_empty" | "first" | "last" | "get" | "iter"
        ) {
            return false;
        }
        let Expr::MethodCall(m) = e else { return false };
        let span = m.method.span();
        let pv = self.private();
        let row = self.field_row(&m.receiver);
        match &mut *m.receiver {
            // `self.w[l].len()` of a `Vec<Vec<f64>>` field: the row, indexed natively.
            Expr::Index(ix) if row => self.expr(&mut ix.index, Want::Any),
            recv => self.child(recv, Want::Any),
        }
        for arg in m.args.iter_mut() {
            self.expr(arg, Want::Any);
        }
        let recv = take(&mut m.receiver);
        let args: Vec<Expr> = std::mem::take(&mut m.args).into_iter().collect();
        let name = m.method.clone();
        let mut parts = vec![recv];
        let args_at = holes(1 + args.len()).split_off(1);
        parts.extend(args);
        let recv = hole(0);
        *e = fill(
            quote_spanned!(span=> (&#pv::FieldArray(&#recv)).#name(#(#args_at),*)),
            parts,
        );
        true
    }

    /// A call of a rule (`g(x)`) or of a method on a lifted struct value
    /// (`layer.forward(x)`, `self.apply(x)`), whose result may be an array of the reading.
    pub(super) fn rule_result(&self, e: &Expr) -> bool {
        match strip(e) {
            Expr::Call(c) => {
                matches!(&*c.func, Expr::Path(p) if is_rule_call(self.scope, &p.path))
            }
            Expr::MethodCall(m) => match strip(&m.receiver) {
                Expr::Path(p) => p.path.get_ident().is_some_and(|i| {
                    let n = i.to_string();
                    self.scope.active.contains(&n) && !self.scope.arrays.contains_key(&n)
                }),
                _ => false,
            },
            _ => false,
        }
    }

    /// `x[a..b]` or `&x[a..b]` of a float array, as the receiver of an array method: the
    /// view, shared or mutable.
    pub(super) fn sub_slice(&mut self, recv: &Expr, by_mut: bool) -> Option<(Expr, Ident)> {
        let inner = match strip(recv) {
            Expr::Reference(r) => strip(&r.expr),
            other => other,
        };
        let Expr::Index(ix) = inner else { return None };
        if !matches!(strip(&ix.index), Expr::Range(_)) {
            return None;
        }
        let (base, _) = self.array_kind(&ix.expr)?;
        let mut idx = (*ix.index).clone();
        self.expr(&mut idx, Want::Any);
        let (pv, h) = (self.private(), hole(0));
        let view = if by_mut {
            quote!(#pv::ArrayViewMut::slice_mut(&mut #base, #h))
        } else {
            quote!(#pv::ArrayView::slice(&#base, #h))
        };
        Some((fill(view, [idx]), base))
    }
}

/// The index of `e[index]`, through parentheses.
fn index_of(e: &mut Expr) -> Option<&mut Expr> {
    match e {
        Expr::Paren(p) => index_of(&mut p.expr),
        Expr::Group(g) => index_of(&mut g.expr),
        Expr::Index(ix) => Some(&mut ix.index),
        _ => None,
    }
}

/// The slice and `Vec` methods of a rule's float arrays, by the array trait that
/// provides them and whether that trait's methods take `&mut self`.
const ARRAY_METHODS: &[(&str, bool, &[&str])] = &[
    (
        "ArrayRead",
        false,
        &["len", "is_empty", "first", "last", "get"],
    ),
    ("ArrayWrite", true, &["swap"]),
    (
        "ArrayView",
        false,
        &[
            "iter",
            "into_iter",
            "split_at",
            "to_vec",
            "to_owned",
            "windows",
            "chunks",
            "chunks_exact",
            "as_chunks",
        ],
    ),
    (
        "ArrayViewMut",
        true,
        &[
            "iter_mut",
            "split_at_mut",
            "for_each_mut",
            "copy_from_slice",
            "fill",
            "reverse",
            "chunks_mut",
            "as_chunks_mut",
            "sort_by",
            "sort_unstable_by",
        ],
    ),
    (
        "ArrayOwned",
        true,
        &[
            "push",
            "pop",
            "extend_from_slice",
            "resize",
            "truncate",
            "clear",
            "insert",
            "remove",
            "reserve",
        ],
    ),
];

/// The methods every lifted array has through std's traits (`Clone`, and `Extend` on
/// owned ones): called as written.
const STD_TRAIT_METHODS: &[&str] = &["clone", "clone_from", "extend"];

/// The array trait that provides `method`, and whether it takes `&mut self`.
fn array_trait(method: &str) -> Option<(&'static str, bool)> {
    ARRAY_METHODS
        .iter()
        .find(|(_, _, methods)| methods.contains(&method))
        .map(|&(tr, by_mut, _)| (tr, by_mut))
}

/// What to write instead of a slice or `Vec` method lifted arrays do not have: the
/// macro sees the receiver is a float array, where rustc would name the reading's
/// array types.
fn missing_array_method(method: &str) -> String {
    let instead = match method {
        "as_rchunks" | "as_rchunks_mut" | "array_chunks" | "array_windows" => {
            "take the chunks from the front with `as_chunks::<N>()`, or as views with `chunks_exact(N)` / `windows(N)` (`for c in x.chunks_exact(2) { c[0] * c[1] }`)".into()
        }
        "first_mut" | "last_mut" | "get_mut" | "split_first_mut" | "split_last_mut" => {
            "write the element by index (`x[i] = …`, `x[i] += …`)".into()
        }
        "contains" | "starts_with" | "ends_with" | "binary_search" | "binary_search_by" => {
            "compare the elements through `iter()` (`x.iter().any(|&v| v == a)`)".into()
        }
        "join" | "flatten" | "concat" => {
            "build the result with `extend_from_slice` on a `Vec` (`let mut v = a.to_vec(); v.extend_from_slice(b);`)".into()
        }
        "retain" | "dedup" | "drain" | "split_off" | "append" | "splice" => {
            "build a new `Vec` with `push` or `collect` (`x.iter().filter(|&&v| v > 0.0).collect::<Vec<f64>>()`)".into()
        }
        "rotate_left" | "rotate_right" | "sort" | "sort_unstable" | "select_nth_unstable" => {
            "reorder with `swap`, `reverse` or `sort_by(|a, b| a.total_cmp(b))`".into()
        }
        _ => {
            let names = |owned: bool| {
                ARRAY_METHODS
                    .iter()
                    .filter(|(tr, _, _)| (*tr == "ArrayOwned") == owned)
                    .flat_map(|(_, _, methods)| methods.iter())
                    .map(|m| format!("`{m}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            format!(
                "lifted arrays have {} and `Clone`; `Vec`s also {} and `Extend`; for anything \
                 else iterate with `iter()`",
                names(false),
                names(true)
            )
        }
    };
    format!("`{method}` is not available on the float arrays of a derived rule: {instead}")
}

/// Whether the tokens of `e` (an expression, a statement) name the identifier `name`.
pub(super) fn mentions_ident(e: &impl quote::ToTokens, name: &str) -> bool {
    fn walk(t: proc_macro2::TokenStream, name: &str) -> bool {
        t.into_iter().any(|t| match t {
            proc_macro2::TokenTree::Ident(i) => i == name,
            proc_macro2::TokenTree::Group(g) => walk(g.stream(), name),
            _ => false,
        })
    }
    walk(e.to_token_stream(), name)
}

#[cfg(test)]
mod tests {
    use super::{ARRAY_METHODS, array_trait, missing_array_method};

    #[test]
    fn every_array_method_has_its_trait_and_is_listed_for_unknown_methods() {
        let message = missing_array_method("norm");
        assert!(message.starts_with("`norm` is not available"), "{message}");
        for (tr, by_mut, methods) in ARRAY_METHODS {
            for m in *methods {
                assert_eq!(array_trait(m), Some((*tr, *by_mut)), "{m}");
                assert!(
                    message.contains(&format!("`{m}`")),
                    "{m} missing: {message}"
                );
            }
        }
        assert_eq!(array_trait("norm"), None);
        assert!(missing_array_method("as_rchunks").contains("chunks_exact(N)"));
    }
}
