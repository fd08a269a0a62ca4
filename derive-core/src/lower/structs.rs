//! Lifted user structs inside a rule body: field reads, field writes and struct
//! literals.
//!
//! The macro sees one function, not the struct's definition, so it cannot tell a
//! float field (a value of the reading) from a `#[constant]` one (a plain float, an
//! integer, …). Where that matters the generated code lets the compiler choose by
//! type: a field read used as an operand goes through `Operand` (a plain float is
//! zero-lifted, anything else passes through), and a value stored into a field or a
//! struct literal goes through `IntoReading` with the target type inferred from the
//! field.

use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Expr, Member};

use super::{Lowerer, Want, strip};
use crate::analyse::Class;
use crate::lift::dual_name;
use crate::syntax::{fill, hole, parse_or, respan, span_of, take};
use crate::types::is_struct_type;

impl Lowerer<'_> {
    /// Whether `e` reads a field of a lifted value (`p.m`, `self.pos[0]`, `p.m.sqrt()`),
    /// whose type the macro cannot know.
    pub(super) fn fieldish(&mut self, e: &Expr) -> bool {
        match strip(e) {
            Expr::Field(f) => matches!(f.member, Member::Named(_)) && self.mentions(&f.base),
            Expr::Index(i) => self.fieldish(&i.expr),
            Expr::MethodCall(m) => {
                crate::analyse::FLOAT_METHODS.contains(&m.method.to_string().as_str())
                    && self.fieldish(&m.receiver)
            }
            _ => false,
        }
    }

    /// A float array reached through a field of a lifted value (`p.w` in `p.w[i]`): the
    /// reading's array for a `Vec` field, `[D; K]` for a fixed array, a plain array for
    /// a `#[constant]` one. All of them implement the array traits, so indexing goes
    /// through them as for array names.
    pub(super) fn field_array(&mut self, e: &Expr) -> Option<Expr> {
        match strip(e) {
            Expr::Field(f) if matches!(f.member, Member::Named(_)) && self.mentions(&f.base) => {
                Some(strip(e).clone())
            }
            // A row of a nested array (`m[i]` of `m: &[Vec<f64>]`, `self.w[l]` of a
            // `Vec<Vec<f64>>` field): an array of the reading, indexed natively.
            Expr::Index(ix) if self.is_nested(&ix.expr) => Some(strip(e).clone()),
            _ if self.field_row(e) => Some(strip(e).clone()),
            _ => None,
        }
    }

    /// `self.w[l]`: one element, by index, of an array field of a lifted value (a row,
    /// when the field is a `Vec<Vec<f64>>`), indexed natively.
    pub(super) fn field_row(&mut self, e: &Expr) -> bool {
        match strip(e) {
            Expr::Index(ix) => {
                !matches!(strip(&ix.index), Expr::Range(_))
                    && matches!(strip(&ix.expr), Expr::Field(f)
                        if matches!(f.member, Member::Named(_)) && self.mentions(&f.base))
            }
            _ => false,
        }
    }

    /// A name bound to an array of float arrays (`m: &[Vec<f64>]`).
    pub(super) fn is_nested(&self, e: &Expr) -> bool {
        matches!(strip(e), Expr::Path(p)
            if p.path.get_ident().is_some_and(|i| self.scope.nested.contains(&i.to_string())))
    }

    /// `Operand::<D, _>::new(e).operand()`: `e` as a value of the reading if it is a
    /// plain float, as it is otherwise. The rule's scope imports the two `operand`
    /// traits ([`operand_traits`]).
    pub(super) fn operand(&self, e: Expr) -> Expr {
        let (pv, d, h) = (self.private(), &self.d, hole(0));
        let span = span_of(&e);
        fill(
            quote_spanned!(span=> #pv::Operand::<#d, _>::new(#h).operand()),
            [e],
        )
    }

    /// `IntoReading::<F, _>::into_reading(e)`: `e` converted to the type of the place
    /// it is stored into (a field of the reading or a plain `#[constant]` float).
    pub(super) fn place_value(&self, e: Expr) -> Expr {
        let (pv, f, h) = (self.private(), self.float.ident(), hole(0));
        let span = span_of(&e);
        fill(
            quote_spanned!(span=> #pv::IntoReading::<#f, _>::into_reading(#h)),
            [e],
        )
    }

    /// Lowers a field write's right-hand side (`p.x = v`): plain floats are converted to
    /// the field's type. Lifted values are stored as they are: they may be fields of
    /// any type themselves (`steps: p.steps`), which no conversion could take.
    pub(super) fn field_store(&mut self, rhs: &mut Expr) {
        let class = self.class(rhs);
        self.child(rhs, Want::Any);
        if class == Class::Inactive {
            *rhs = self.place_value(take(rhs));
        }
    }

    /// `Particle { x: a, v: b, m: 1.0 }`: built as the dual struct `ParticleDual::<D>`
    /// when a field is a float; plain floats are converted to their field's type (see
    /// [`Self::field_store`]).
    pub(super) fn struct_lit(&mut self, e: &mut Expr) {
        let Expr::Struct(s) = e else { return };
        let floaty = s.fields.iter().any(|f| self.class(&f.expr) != Class::Other);
        for field in s.fields.iter_mut() {
            let class = self.class(&field.expr);
            self.child(&mut field.expr, Want::Any);
            if floaty && class == Class::Inactive {
                if field.colon_token.is_none() {
                    field.colon_token = Some(syn::Token![:](field.member.span()));
                }
                field.expr = self.place_value(take(&mut field.expr));
            }
        }
        if let Some(rest) = &mut s.rest {
            self.child(rest, Want::Any);
        }
        if !floaty || s.qself.is_some() {
            return;
        }
        let ty = syn::Type::Path(syn::TypePath {
            attrs: Vec::new(),
            qself: None,
            path: s.path.clone(),
        });
        if !is_struct_type(&ty) {
            return;
        }
        let d = self.d.clone();
        if let Some(last) = s.path.segments.last_mut() {
            last.ident = dual_name(&last.ident);
            let args = [syn::GenericArgument::Type(syn::Type::Path(syn::TypePath {
                attrs: Vec::new(),
                qself: None,
                path: d.into(),
            }))];
            last.arguments =
                syn::PathArguments::AngleBracketed(syn::AngleBracketedGenericArguments {
                    colon2_token: Some(Default::default()),
                    lt_token: Default::default(),
                    args: args.into_iter().collect(),
                    gt_token: Default::default(),
                });
        }
    }
}

/// The import that makes `Operand::operand` resolve: both traits, unnamed. Only
/// `Operand` implements them, so nothing else in the user's code changes meaning.
pub fn operand_traits(krate: &syn::Path) -> syn::Stmt {
    parse_or(
        quote::quote!(use #krate::__private::{
            FieldFixed as _, FieldNative as _, FieldView as _, KeepOperand as _,
            LiftOperand as _,
        };),
        |tokens| syn::Stmt::Item(syn::Item::Verbatim(tokens)),
    )
}

impl Lowerer<'_> {
    /// `z * w`, `z += w` or `-z` over lifted structs whose primal types the syntax
    /// names (see [`crate::analyse::Scope::struct_type`]): a call of `lifted::ops`
    /// bounded by the primal operator's rule, so that an operator `impl` without
    /// `#[autodiff]` is reported in the primal types. Returns whether `e` was one.
    pub(super) fn struct_operator(&mut self, e: &mut Expr) -> bool {
        let (k, fl) = (self.krate.clone(), self.float.ident());
        match e {
            Expr::Binary(b) => {
                let Some(op) = crate::analyse::binary_trait(&b.op) else {
                    return false;
                };
                let (Some(l), Some(r)) = (
                    self.scope.struct_type(&b.left),
                    self.scope.struct_type(&b.right),
                ) else {
                    return false;
                };
                let method = syn::Ident::new(&snake(&op.to_string()), b.op.span());
                let assign = op.to_string().ends_with("Assign");
                let out = (!assign).then(|| crate::analyse::binary_output(&op, &l, &r));
                self.child(&mut b.left, Want::Any);
                self.child(&mut b.right, Want::Any);
                let span = b.op.span();
                let [l, r] = [&l, &r].map(|t| respan(quote!(#t), span));
                let out = out.map(|o| respan(quote!(#o), span));
                let parts = [take(&mut b.left), take(&mut b.right)];
                let [a, c] = [hole(0), hole(1)];
                *e = fill(
                    match out {
                        Some(o) => {
                            quote_spanned!(span=> #k::ops::#method::<#l, #r, #o, #fl, _>(#a, #c))
                        }
                        None => {
                            quote_spanned!(span=> #k::ops::#method::<#l, #r, #fl, _>(&mut #a, #c))
                        }
                    },
                    parts,
                );
                true
            }
            Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => {
                let Some(t) = self.scope.struct_type(&u.expr) else {
                    return false;
                };
                let o = crate::analyse::neg_output(&t);
                self.child(&mut u.expr, Want::Any);
                let span = u.op.span();
                let [t, o] = [&t, &o].map(|t| respan(quote!(#t), span));
                let x = take(&mut u.expr);
                let a = hole(0);
                *e = fill(
                    quote_spanned!(span=> #k::ops::neg::<#t, #o, #fl, _>(#a)),
                    [x],
                );
                true
            }
            _ => false,
        }
    }
}

/// `add_assign` for `AddAssign`: the method of an operator trait.
pub fn snake(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}
