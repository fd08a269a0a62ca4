//! The dispatch over expression kinds, and the operators, casts and assignments whose
//! lowering depends on which side holds lifted values.

use proc_macro2::Span;
use quote::quote_spanned;
use syn::spanned::Spanned;
use syn::{Expr, Ident, Pat, Token};

use super::{Lowerer, Want, strip};
use crate::analyse::Class;
use crate::syntax::{fill, hole, place_root, span_of, take};
use crate::types::is_float;

impl Lowerer<'_> {
    pub(super) fn expr(&mut self, e: &mut Expr, want: Want) {
        if self.in_place.take() != Some(std::ptr::from_ref(e) as usize) {
            self.memo.forget();
        }
        let class = self.class(e);
        if want == Want::Reading && class == Class::Inactive {
            self.child(e, Want::Any);
            *e = self.lift(take(e));
            return;
        }
        // `let mut a = TABLE[0];` for an `a` that later holds lifted values: a constant
        // of unseen type, zero-lifted if it is a float.
        if want == Want::Reading && class == Class::Other && self.scope.is_const_like(e) {
            *e = self.operand(take(e));
            return;
        }
        if want == Want::Reading && class == Class::Active && self.fieldish(e) {
            self.child(e, Want::Any);
            *e = self.operand(take(e));
            return;
        }
        // Branching expressions that produce a lifted value lift all their tails.
        let tails = if class == Class::Active {
            Want::Reading
        } else {
            want
        };
        match e {
            Expr::Binary(_) => self.binary(e),
            Expr::Unary(_) if self.scope.struct_type(e).is_some() => {
                self.struct_operator(e);
            }
            Expr::Unary(u) => {
                if matches!(u.op, syn::UnOp::Deref(_))
                    && let Expr::Path(p) = &*u.expr {
                        let by_value = p.path.get_ident().is_some_and(|id| {
                            let n = id.to_string();
                            self.value_params.contains(&n)
                                || (!self.iter_mut_elems.contains(&n)
                                    && self.scope.active.contains(&n)
                                    && !self.scope.locals_ref(&n))
                        });
                        if by_value {
                            *e = take(&mut u.expr);
                            return;
                        }
                    }
                // `*x.iter().max_by(…).unwrap()`: the lifted array's iterators and
                // accessors yield values, not references.
                if matches!(u.op, syn::UnOp::Deref(_)) && self.yields_value(&u.expr) {
                    let mut inner = take(&mut u.expr);
                    self.child(&mut inner, want);
                    *e = inner;
                    return;
                }
                let inner = if matches!(u.op, syn::UnOp::Neg(_)) { want } else { Want::Any };
                self.child(&mut u.expr, inner);
            }
            Expr::Paren(p) => self.child(&mut p.expr, want),
            Expr::Group(g) => self.child(&mut g.expr, want),
            Expr::Cast(_) => self.cast(e),
            Expr::Index(_) => self.index_read(e),
            Expr::Reference(_) => self.reference(e),
            Expr::Call(_) => self.call(e),
            Expr::MethodCall(_) => self.method_call(e),
            Expr::Macro(_) => self.expr_macro(e),
            Expr::Assign(_) => self.assign(e),
            Expr::Block(b) if b.label.is_some() => {
                let label = b.label.clone();
                self.in_loop(label.as_ref(), tails, true, |s| s.block(&mut b.block, tails));
            }
            Expr::Block(b) => self.block(&mut b.block, tails),
            Expr::Loop(l) => {
                let label = l.label.clone();
                self.in_loop(label.as_ref(), tails, false, |s| {
                    s.block(&mut l.body, Want::Any);
                });
            }
            Expr::While(w) => {
                self.expr(&mut w.cond, Want::Any);
                let label = w.label.clone();
                self.in_loop(label.as_ref(), Want::Any, false, |s| {
                    s.block(&mut w.body, Want::Any);
                });
            }
            Expr::Break(b) => self.break_value(b),
            Expr::If(i) => {
                self.child(&mut i.cond, Want::Any);
                self.block(&mut i.then_branch, tails);
                if let Some((_, els)) = &mut i.else_branch {
                    self.child(els, tails);
                }
            }
            Expr::Match(m) => {
                self.child(&mut m.expr, Want::Any);
                for arm in &mut m.arms {
                    if let Pat::Guard(g) = &mut arm.pat {
                        self.child(&mut g.guard, Want::Any);
                    }
                    self.child(&mut arm.body, tails);
                }
            }
            Expr::Return(r) => {
                let want = if self.returns_float { Want::Reading } else { Want::Any };
                if let Some(v) = &mut r.expr {
                    self.child(v, want);
                }
            }
            Expr::Tuple(t) => t.elems.iter_mut().for_each(|x| self.child(x, want)),
            Expr::Array(a) => a.elems.iter_mut().for_each(|x| self.child(x, want)),
            Expr::Repeat(r) => self.child(&mut r.expr, want),
            Expr::ForLoop(l) => {
                let label = l.label.clone();
                self.in_loop(label.as_ref(), Want::Any, false, |s| s.for_loop(e));
            }
            Expr::Closure(c) => self.closure(c, false),
            Expr::Struct(_) => self.struct_lit(e),
            Expr::Unsafe(u) => self.errors.at(
                &u.unsafe_token,
                "`unsafe` blocks cannot be differentiated: move the unsafe code into a function and \
                 give it a hand-written rule (implement `lifted::FRule`), or mark the value `lifted::constant!`",
            ),
            Expr::Async(a) => self.errors.at(
                &a.async_token,
                "`async` blocks cannot be differentiated: compute the value in a synchronous function",
            ),
            Expr::Await(a) => self.errors.at(
                &a.await_token,
                "`.await` cannot be differentiated: compute the value in a synchronous function",
            ),
            Expr::RawAddr(r) => self.errors.at(
                &r.raw,
                "raw pointers cannot be differentiated: use slices (`&[f64]`, `&mut [f64]`) instead",
            ),
            Expr::Yield(y) => {
                self.errors.at(&y.yield_token, "`yield` cannot be differentiated: compute the values in a function and return them")
            }
            _ => syn::visit_mut::visit_expr_mut(self, e),
        }
    }

    fn binary(&mut self, e: &mut Expr) {
        if self.struct_operator(e) {
            return;
        }
        let Expr::Binary(b) = e else { return };
        use syn::BinOp::*;
        if matches!(b.op, Add(_) | Sub(_) | Mul(_) | Div(_) | Rem(_)) {
            self.by_value_operand(&mut b.left);
            self.by_value_operand(&mut b.right);
        }
        let (mut lc, rc) = (self.class(&b.left), self.class(&b.right));
        // Struct fields may be plain floats (`#[constant]`) or values of the reading.
        let (mut lf, rf) = (self.fieldish(&b.left), self.fieldish(&b.right));
        // An operand of unseen type on the left of a lifted one (`w * x` with `w` bound
        // by a pattern over a constant table) is a float, a reference to one, or a value
        // of the reading: `Operand` picks by type, as for fields.
        lf |= lc == Class::Other && rc == Class::Active;
        // A `const` item on the left (`SCALE * x`, `PI < x`) is a plain float when the
        // right side is lifted: nothing else type-checks in the primal.
        if lc == Class::Other && rc == Class::Active && self.scope.is_const_like(&b.left) {
            lc = Class::Inactive;
        }
        match b.op {
            Add(_) | Sub(_) | Mul(_) | Div(_) | Rem(_)
                if lc == Class::Inactive && rc != Class::Inactive =>
            {
                // `c OP x` with a plain constant on the left: a reading method, because
                // `impl Op<D> for f64` cannot be written for a generic reading.
                let method = match b.op {
                    Add(_) => "radd",
                    Sub(_) => "rsub",
                    Mul(_) => "rmul",
                    Div(_) => "rdiv",
                    _ => "rrem",
                };
                let method = Ident::new(method, b.op.span());
                self.child(&mut b.left, Want::Any);
                self.child(&mut b.right, Want::Any);
                if rf {
                    *b.right = self.operand(take(&mut b.right));
                }
                let (l, r, rd) = (take(&mut b.left), take(&mut b.right), self.reading());
                let (span, [hr, hl]) = (b.op.span(), [hole(0), hole(1)]);
                *e = fill(quote_spanned!(span=> #rd::#method(#hr, #hl)), [r, l]);
            }
            Lt(_) | Le(_) | Gt(_) | Ge(_) | Eq(_) | Ne(_) => {
                self.child(&mut b.left, Want::Any);
                self.child(&mut b.right, Want::Any);
                self.wrap_fields(b, lf, rf);
                if lc == Class::Inactive && rc != Class::Inactive {
                    // Mirror the comparison so the lifted value is on the left; exact,
                    // IEEE comparisons being symmetric.
                    let span = b.op.span();
                    b.op = match b.op {
                        Lt(_) => Gt(Token![>](span)),
                        Le(_) => Ge(Token![>=](span)),
                        Gt(_) => Lt(Token![<](span)),
                        Ge(_) => Le(Token![<=](span)),
                        other => other,
                    };
                    std::mem::swap(&mut b.left, &mut b.right);
                }
            }
            AddAssign(_) | SubAssign(_) | MulAssign(_) | DivAssign(_) | RemAssign(_) => {
                self.child(&mut b.right, Want::Any);
                if let Expr::Index(ix) = &mut *b.left
                    && let Some(base) = self.array_place(&ix.expr)
                {
                    // Where the statement starts: its attributes, or the place.
                    let span = match b
                        .attrs
                        .iter()
                        .find(|a| matches!(a.style, syn::AttrStyle::Outer))
                    {
                        Some(a) => a.pound_token.span(),
                        None => span_of(&ix.expr),
                    };
                    self.child(&mut ix.index, Want::Any);
                    let (pv, op) = (self.private(), b.op);
                    let parts = [take(&mut ix.index), base.clone(), take(&mut b.right), base];
                    let [idx, read, rhs, write] = [hole(0), hole(1), hole(2), hole(3)];
                    let tmp_i = Ident::new("__lifted_index", Span::mixed_site());
                    let tmp_v = Ident::new("__lifted_element", Span::mixed_site());

                    *e = fill(
                        quote_spanned!(span=> {
                            let #tmp_i = #idx;
                            let mut #tmp_v = #pv::ArrayRead::get(&#read, #tmp_i);
                            #tmp_v #op #rhs;
                            #pv::ArrayWrite::set(&mut #write, #tmp_i, #tmp_v);
                        }),
                        parts,
                    );
                    return;
                }
                self.child(&mut b.left, Want::Any);
            }
            Add(_) | Sub(_) | Mul(_) | Div(_) | Rem(_) => {
                self.child(&mut b.left, Want::Any);
                self.child(&mut b.right, Want::Any);
                self.wrap_fields(b, lf, rf);
            }
            _ => {
                self.child(&mut b.left, Want::Any);
                self.child(&mut b.right, Want::Any);
            }
        }
    }

    /// `&y` of a lifted scalar as an operand of arithmetic: the value itself. `&f64`'s
    /// operators give what `f64`'s give, and the reading's values are `Copy`, while a
    /// generic reading cannot promise operators on references.
    pub(super) fn by_value_operand(&mut self, operand: &mut Expr) {
        if let Expr::Reference(r) = &*operand
            && r.mutability.is_none()
            && self.class(&r.expr) == Class::Active
            && self.array_kind(&r.expr).is_none()
            && !self.is_nested(&r.expr)
            && !matches!(strip(&r.expr), Expr::Index(ix) if matches!(strip(&ix.index), Expr::Range(_)))
        {
            let Expr::Reference(r) = take(operand) else {
                return;
            };
            *operand = *r.expr;
        }
    }

    /// Passes the field operands of a binary operator through `Operand`.
    fn wrap_fields(&self, b: &mut syn::ExprBinary, lf: bool, rf: bool) {
        if lf {
            *b.left = self.operand(take(&mut b.left));
        }
        if rf {
            *b.right = self.operand(take(&mut b.right));
        }
    }

    fn cast(&mut self, e: &mut Expr) {
        let Expr::Cast(c) = e else { return };
        let inner = self.class(&c.expr);
        self.child(&mut c.expr, Want::Any);
        if inner != Class::Active {
            return;
        }
        let (pv, f, d, h) = (self.private(), self.float.ident(), &self.d, hole(0));
        let span = c.as_token.span();
        let to_float = is_float(&c.ty, self.float);
        let (x, ty) = (take(&mut c.expr), &c.ty);
        let template = if to_float {
            quote_spanned!(span=> #pv::IntoReading::<#f, #d>::into_reading(#h))
        } else {
            quote_spanned!(span=> (#pv::ToPrimal::to_primal(#h) as #ty))
        };
        *e = fill(template, [x]);
    }

    fn assign(&mut self, e: &mut Expr) {
        let span = span_of(e);
        let Expr::Assign(a) = e else { return };
        if let Expr::Index(ix) = &mut *a.left
            && let Some(base) = self.array_place(&ix.expr)
        {
            self.child(&mut ix.index, Want::Any);
            if self.array_kind(&ix.expr).is_some() {
                self.child(&mut a.right, Want::Reading);
            } else {
                self.field_store(&mut a.right);
            }
            let pv = self.private();
            let parts = [take(&mut a.right), take(&mut ix.index), base];
            let [rhs, idx, place] = [hole(0), hole(1), hole(2)];
            let tmp_i = Ident::new("__lifted_index", Span::mixed_site());
            let tmp_v = Ident::new("__lifted_element", Span::mixed_site());
            // The value first, then the place, as Rust evaluates `y[i] = v`.
            *e = fill(
                quote_spanned!(span=> {
                    let #tmp_v = #rhs;
                    let #tmp_i = #idx;
                    #pv::ArrayWrite::set(&mut #place, #tmp_i, #tmp_v);
                }),
                parts,
            );
            return;
        }
        if self.fieldish(&a.left) {
            self.child(&mut a.left, Want::Any);
            self.field_store(&mut a.right);
            return;
        }
        let target_active = match strip(&a.left) {
            Expr::Path(p) => p
                .path
                .get_ident()
                .is_some_and(|i| self.scope.active.contains(&i.to_string())),
            Expr::Unary(_) => true,
            other => place_root(other).is_some_and(|i| self.scope.active.contains(&i.to_string())),
        };
        self.child(&mut a.left, Want::Any);
        let want = if target_active {
            Want::Reading
        } else {
            Want::Any
        };
        self.child(&mut a.right, want);
    }
}
