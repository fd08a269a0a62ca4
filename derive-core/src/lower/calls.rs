//! Calls and method calls: a call to a rule goes to its `frule` with its arguments
//! made fit for a rule's parameters, and a method on a lifted receiver is the
//! reading's, or one of the runtime's where the reading's would be wrong.

use proc_macro2::Span;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Expr, Ident};

use super::{Lowerer, Want, strip};
use crate::analyse::{ArrayKind, Class, FLOAT_METHODS, is_rule_call};
use crate::syntax::{fill, hole, holes, span_of, take};
use crate::types::map_type;

impl Lowerer<'_> {
    pub(super) fn call(&mut self, e: &mut Expr) {
        let Expr::Call(c) = e else { return };
        let Expr::Path(p) = &*c.func else {
            syn::visit_mut::visit_expr_call_mut(self, c);
            return;
        };
        let path = p.path.clone();
        let segs: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        if is_rule_call(self.scope, &path) {
            for arg in c.args.iter_mut() {
                self.rule_arg(arg);
            }
            let mut callee = path.clone();
            match segs.first().map(String::as_str) {
                Some("super") => {
                    let up = Ident::new("super", Span::call_site());
                    callee.segments.insert(0, syn::PathSegment::from(up));
                }
                Some("self") => {
                    if let Some(first) = callee.segments.first_mut() {
                        first.ident = Ident::new("super", first.ident.span());
                    }
                }
                // `self::sq::frule` rather than `sq::frule`: for a helper with no rule,
                // rustc then says "expected type, found function `sq`" and does not
                // offer a similarly named trait (`Eq`) in its place.
                Some(name)
                    if segs.len() == 1
                        && !self.scope.body_items.contains(name)
                        && !self.scope.body_items.contains("*") =>
                {
                    let here = Ident::new("self", path.span());
                    callee.segments.insert(0, syn::PathSegment::from(here));
                }
                _ => {}
            }
            let args: Vec<Expr> = std::mem::take(&mut c.args).into_iter().collect();
            let (d, hs, span) = (&self.d, holes(args.len()), path.span());
            *e = fill(quote_spanned!(span=> #callee::frule::<#d>(#(#hs),*)), args);
            return;
        }
        let float_assoc = segs.len() == 2
            && (segs[0] == "f64" || segs[0] == "f32")
            && FLOAT_METHODS.contains(&segs[1].as_str());
        if float_assoc && self.class(e) == Class::Active {
            let Expr::Call(c) = e else { return };
            for arg in c.args.iter_mut() {
                self.child(arg, Want::Reading);
            }
            let args: Vec<Expr> = std::mem::take(&mut c.args).into_iter().collect();
            let (k, method, hs) = (&self.krate, &path.segments[1].ident, holes(args.len()));
            let span = path.span();
            *e = fill(quote_spanned!(span=> #k::Real::#method(#(#hs),*)), args);
            return;
        }
        let Expr::Call(c) = e else { return };
        let local_closure = segs.len() == 1 && self.scope.locals.contains(&segs[0]);
        let want = if local_closure {
            Want::Reading
        } else {
            Want::Any
        };
        for arg in c.args.iter_mut() {
            self.child(arg, want);
        }
    }

    /// An argument of a rule call: plain floats are lifted, a mutable view is reborrowed
    /// (so it can be used again after the call), an owned array passed by reference is
    /// viewed.
    fn rule_arg(&mut self, arg: &mut Expr) {
        if let Some((base, ArrayKind::Mut)) = self.array_kind(arg) {
            let pv = self.private();
            let span = span_of(arg);
            *arg = fill(
                quote_spanned!(span=> #pv::ArrayViewMut::view_mut(&mut #base)),
                [],
            );
            return;
        }
        if self.literal_slice_arg(arg) {
            return;
        }
        // A `&mut [f64; K]` parameter passed on: reborrowed, so it can be used after the
        // call (the callee's parameter is generic, where rustc would not reborrow).
        if let Expr::Path(p) = strip(arg)
            && p.path
                .get_ident()
                .is_some_and(|i| self.scope.mut_refs.contains(&i.to_string()))
        {
            let span = span_of(arg);
            let x = take(arg);
            *arg = fill(quote_spanned!(span=> &mut *#x), []);
            return;
        }
        if self.const_slice_arg(arg) {
            return;
        }
        // `g(A)`: a `const` item of unseen type, zero-lifted if it is a float.
        if self.class(arg) == Class::Other && self.scope.is_const_like(arg) {
            *arg = self.operand(take(arg));
            return;
        }
        self.child(arg, Want::Reading);
    }

    /// `g(&xs[a..b])` of a `#[constant] xs: &[f64]`: wrapped in `ConstSlice`, which a
    /// rule taking a slice zero-lifts and one taking a constant slice reads as it is.
    /// Whether `arg` was one.
    fn const_slice_arg(&self, arg: &mut Expr) -> bool {
        if !self.const_slice(arg) {
            return false;
        }
        let (pv, span) = (self.private(), span_of(arg));
        let x = take(arg);
        *arg = fill(quote_spanned!(span=> #pv::ConstSlice(#x)), []);
        true
    }

    /// `xs`, `&xs` or `&xs[a..b]` of a `#[constant]` float array `xs`.
    fn const_slice(&self, e: &Expr) -> bool {
        let inner = match strip(e) {
            Expr::Reference(r) if r.mutability.is_none() => strip(&r.expr),
            other => other,
        };
        let base = match inner {
            Expr::Index(ix) if matches!(strip(&ix.index), Expr::Range(_)) => strip(&ix.expr),
            other => other,
        };
        matches!(base, Expr::Path(p)
            if p.path.get_ident().is_some_and(|i| self.scope.const_arrays.contains(&i.to_string())))
    }

    pub(super) fn method_call(&mut self, e: &mut Expr) {
        if crate::analyse::is_ndarray_dot(self.scope, e) {
            self.ndarray_dot(e);
            return;
        }
        let recv_active = match e {
            Expr::MethodCall(m) => self.mentions(&m.receiver),
            _ => return,
        };
        if self.array_method(e) {
            return;
        }
        let Expr::MethodCall(m) = e else { return };
        let method = m.method.to_string();
        // Our iterators yield values, not references: `copied` / `cloned` are no-ops.
        if recv_active && matches!(method.as_str(), "copied" | "cloned") && m.args.is_empty() {
            let mut recv = take(&mut m.receiver);
            self.expr(&mut recv, Want::Any);
            *e = recv;
            return;
        }
        // `10.31_f64.powf(2.0 * x)`: a plain receiver of a float method whose arguments are
        // lifted is lifted too.
        let lift_receiver = !recv_active
            && FLOAT_METHODS.contains(&method.as_str())
            && m.args.iter().any(|a| self.mentions(a))
            && self.class(&m.receiver) == Class::Inactive;
        self.child(&mut m.receiver, Want::Any);
        if lift_receiver {
            *m.receiver = self.lift(take(&mut m.receiver));
        }
        let recv_active = recv_active || lift_receiver;
        if recv_active && let Some(tf) = &mut m.turbofish {
            for arg in tf.args.iter_mut() {
                if let syn::GenericArgument::Type(t) = arg {
                    *t = map_type(t, self.float, &self.d, &self.krate);
                }
            }
        }
        let want = if recv_active {
            Want::Reading
        } else {
            Want::Any
        };
        let takes_iter = matches!(method.as_str(), "zip" | "chain");
        for arg in m.args.iter_mut() {
            if recv_active && let Some(f) = self.float_fn_value(arg) {
                // `map(f64::sin)`, `fold(f64::NEG_INFINITY, f64::max)`: the reading's.
                *arg = f;
                continue;
            }
            // `mlp.forward(&xs[a..b])`: as an argument of a function rule.
            if recv_active && !takes_iter && self.const_slice_arg(arg) {
                continue;
            }
            match arg {
                Expr::Closure(c) => self.closure(c, recv_active),
                _ => {
                    if !(takes_iter && self.array_as_iter(arg)) {
                        self.child(arg, want);
                    }
                }
            }
        }
        self.fixed_array_iter(e);
    }

    /// A method chain over a lifted array's elements that the primal reads through a
    /// reference (`x.iter().max_by(…).unwrap()`, `x.first().unwrap()`): at the reading
    /// it holds a value.
    pub(super) fn yields_value(&mut self, e: &Expr) -> bool {
        let mut cur = strip(e);
        let mut by_value = false;
        while let Expr::MethodCall(m) = cur {
            match m.method.to_string().as_str() {
                "iter_mut" | "get_mut" | "first_mut" | "last_mut" | "as_mut" => return false,
                "iter" | "first" | "last" | "get" | "windows" | "chunks" => by_value = true,
                _ => {}
            }
            cur = strip(&m.receiver);
        }
        by_value && !matches!(cur, Expr::MethodCall(_)) && self.mentions(e)
    }

    /// `f64::sin` or `f32::max` as a value: the reading's method, `<D as Real>::sin`.
    fn float_fn_value(&self, e: &Expr) -> Option<Expr> {
        let Expr::Path(p) = strip(e) else { return None };
        let segs: Vec<&Ident> = p.path.segments.iter().map(|s| &s.ident).collect();
        let [ty, method] = segs.as_slice() else {
            return None;
        };
        let method_name = method.to_string();
        if p.qself.is_some()
            || *ty != self.float.name()
            || !FLOAT_METHODS.contains(&method_name.as_str())
        {
            return None;
        }
        let (k, d, span) = (&self.krate, &self.d, span_of(e));
        Some(fill(quote_spanned!(span=> <#d as #k::Real>::#method), []))
    }

    /// `a.dot(b)` on an ndarray: the `linalg` rules through `NdDot` (ndarray's own
    /// `dot` would multiply the reading's values element by element).
    fn ndarray_dot(&mut self, e: &mut Expr) {
        let Expr::MethodCall(m) = e else { return };
        let pv = self.private();
        // A constant ndarray (`#[constant]`) keeps plain elements: `NdConst` marks it.
        let scope = self.scope;
        let operand = |x: Expr| -> Expr {
            let inner = match x {
                Expr::Reference(r) => *r.expr,
                other => other,
            };
            let constant = matches!(&inner, Expr::Path(p) if p.path.get_ident().is_some_and(|i| {
                let name = i.to_string();
                scope.ndarrays.contains(&name) && !scope.active.contains(&name)
            }));
            let h = hole(0);
            if constant {
                fill(quote!(&#pv::NdConst(&#h)), [inner])
            } else {
                fill(quote!(&#h), [inner])
            }
        };
        let Some(arg) = m.args.first_mut() else {
            return;
        };
        self.child(arg, Want::Any);
        let arg = operand(take(arg));
        let recv = operand(take(&mut m.receiver));
        let (d, span, [hr, ha]) = (&self.d, m.method.span(), [hole(0), hole(1)]);
        *e = fill(
            quote_spanned!(span=> #pv::NdDot::<_, #d>::nd_dot(#hr, #ha)),
            [recv, arg],
        );
    }
}
