//! Smaller forms of the body that need a look at their surroundings: `break` values of a
//! `loop`, iterator chains whose items are `iter_mut` handles, literal arrays passed as
//! slices, iterators over fixed arrays.

use proc_macro2::Span;
use quote::{quote, quote_spanned};
use syn::{Expr, Ident, Pat};

use super::{Lowerer, Want, strip};
use crate::analyse::pat_idents;
use crate::syntax::{fill, hole, holes, span_of, take};

/// Looks through parentheses and invisible groups, for a rewrite in place.
fn strip_mut(e: &mut Expr) -> &mut Expr {
    match e {
        Expr::Paren(p) => strip_mut(&mut p.expr),
        Expr::Group(g) => strip_mut(&mut g.expr),
        other => other,
    }
}

impl Lowerer<'_> {
    /// The names of `pat` bound to `iter_mut` handles of a float array when `pat`
    /// destructures the items of `e` (`y.iter_mut()`, `.enumerate()`, `.zip(…)`, `.rev()`,
    /// `.skip(n)`, `.take(n)`, `.step_by(n)`); `None` when `e` has no such handles.
    pub(super) fn iter_mut_names(&self, e: &Expr, pat: &Pat) -> Option<Vec<String>> {
        let Expr::MethodCall(m) = strip(e) else {
            return None;
        };
        let pair = |p: &Pat| match p {
            Pat::Tuple(t) if t.elems.len() == 2 => Some((t.elems[0].clone(), t.elems[1].clone())),
            _ => None,
        };
        match m.method.to_string().as_str() {
            "iter_mut" if m.args.is_empty() => self.array_kind(&m.receiver).map(|_| {
                let mut names = Vec::new();
                pat_idents(pat, &mut names);
                names
            }),
            "enumerate" => {
                let (_, item) = pair(pat)?;
                self.iter_mut_names(&m.receiver, &item)
            }
            "zip" => {
                let (a, b) = pair(pat)?;
                let left = self.iter_mut_names(&m.receiver, &a);
                let right = m.args.first().and_then(|arg| self.iter_mut_names(arg, &b));
                match (left, right) {
                    (None, None) => None,
                    (l, r) => Some(l.into_iter().chain(r).flatten().collect()),
                }
            }
            "rev" | "skip" | "take" | "step_by" => self.iter_mut_names(&m.receiver, pat),
            _ => None,
        }
    }

    /// `break v`: the value is lifted when the loop it leaves produces a lifted value.
    pub(super) fn break_value(&mut self, b: &mut syn::ExprBreak) {
        let Some(v) = &mut b.expr else { return };
        let target = match &b.label {
            Some(l) => self
                .breaks
                .iter()
                .rev()
                .find(|(label, _, _)| label.as_ref() == Some(&l.ident)),
            None => self.breaks.iter().rev().find(|(_, _, block)| !block),
        };
        let want = target.map_or(Want::Any, |(_, w, _)| *w);
        self.expr(v, want);
    }

    /// Lowers `f` inside a loop (or labelled block) whose `break` values are wanted as
    /// `want`.
    pub(super) fn in_loop(
        &mut self,
        label: Option<&syn::Label>,
        want: Want,
        block: bool,
        f: impl FnOnce(&mut Self),
    ) {
        self.breaks
            .push((label.map(|l| l.name.ident.clone()), want, block));
        f(self);
        self.breaks.pop();
    }

    /// A literal array passed by reference to a rule (`g(&[a, 1.0])`, `g(&vec![a, b])`):
    /// built as an array of the reading and viewed, so it reads as the callee's slice
    /// parameter. `false` (and `arg` untouched) when `arg` is not such a literal.
    pub(super) fn literal_slice_arg(&mut self, arg: &mut Expr) -> bool {
        let span = span_of(arg);
        let Expr::Reference(r) = strip_mut(arg) else {
            return false;
        };
        if r.mutability.is_some() {
            return false;
        }
        let (k, d, pv) = (self.krate.clone(), self.d.clone(), self.private());
        let vec_ty = quote!(<#d as #k::array::ArrayReading>::Vec);
        let owned: Expr = match strip_mut(&mut r.expr) {
            Expr::Array(a) => {
                let mut items: Vec<Expr> = std::mem::take(&mut a.elems).into_iter().collect();
                for it in &mut items {
                    self.expr(it, Want::Reading);
                }
                let hs = holes(items.len());
                fill(
                    quote_spanned!(span=> <#vec_ty as ::core::iter::FromIterator<#d>>::from_iter([#(#hs),*])),
                    items,
                )
            }
            Expr::Repeat(a) => {
                let (mut elem, mut n) = (take(&mut a.expr), take(&mut a.len));
                self.expr(&mut elem, Want::Reading);
                self.expr(&mut n, Want::Any);
                let [he, hn] = [hole(0), hole(1)];
                fill(
                    quote_spanned!(span=> <#vec_ty as #pv::ArrayOwned<#d>>::from_elem(#he, #hn)),
                    [elem, n],
                )
            }
            Expr::Macro(m)
                if m.mac.path.is_ident("vec") && self.scope.macro_is_float_vec(&m.mac) =>
            {
                let mut v = take(&mut r.expr);
                self.expr(&mut v, Want::Reading);
                v
            }
            _ => return false,
        };
        let h = hole(0);
        *arg = fill(quote_spanned!(span=> #pv::ArrayView::view(&#h)), [owned]);
        true
    }

    /// `x.iter()` on a lifted fixed array (`[D; K]`, not a float array): its items are
    /// `&D`, so they are copied to read as values like every other lifted iterator.
    pub(super) fn fixed_array_iter(&self, e: &mut Expr) {
        let Expr::MethodCall(m) = e else { return };
        if m.method != "iter" || !m.args.is_empty() {
            return;
        }
        let Expr::Path(p) = strip(&m.receiver) else {
            return;
        };
        let Some(id) = p.path.get_ident() else { return };
        let name = id.to_string();
        if !self.scope.active.contains(&name) || self.scope.arrays.contains_key(&name) {
            return;
        }
        let span = m.method.span();
        let (copied, h) = (Ident::new("copied", span), hole(0));
        *e = fill(quote_spanned!(span=> #h.#copied()), [take(e)]);
    }

    /// `y` or `&y` naming a float array, as the argument of `zip` / `chain`: the array's
    /// iterator (a view of the reading is not `IntoIterator`).
    pub(super) fn array_as_iter(&mut self, arg: &mut Expr) -> bool {
        let shared = !matches!(strip(arg), Expr::Reference(r) if r.mutability.is_some());
        if let Some((view, _)) = self.sub_slice(arg, false).filter(|_| shared) {
            // `zip(&x[1..])`: the sub-slice's view, iterated.
            let (pv, span) = (self.private(), span_of(arg));
            *arg = fill(quote_spanned!(span=> #pv::ArrayView::iter(&#view)), []);
            return true;
        }
        let base = match strip(arg) {
            Expr::Reference(r) if r.mutability.is_none() => self.array_kind(&r.expr),
            other => self.array_kind(other),
        };
        let Some((base, _)) = base else {
            return false;
        };
        let (pv, span) = (self.private(), span_of(arg));
        *arg = fill(quote_spanned!(span=> #pv::ArrayView::iter(&#base)), []);
        true
    }

    /// Hygienic name of the `i`-th hoisted argument.
    pub(super) fn arg_temp(i: usize) -> Ident {
        Ident::new(&format!("__lifted_arg{i}"), Span::mixed_site())
    }
}
