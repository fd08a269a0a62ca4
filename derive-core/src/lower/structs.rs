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

use syn::spanned::Spanned;
use syn::{Expr, Member};

use super::{Lowerer, Want, strip};
use crate::analyse::Class;
use crate::lift::dual_name;
use crate::types::is_struct_type;

impl Lowerer<'_> {
    /// Whether `e` reads a field of a lifted value (`p.m`, `self.pos[0]`, `p.m.sqrt()`),
    /// whose type the macro cannot know.
    pub(super) fn fieldish(&self, e: &Expr) -> bool {
        match strip(e) {
            Expr::Field(f) => {
                matches!(f.member, Member::Named(_)) && self.scope.mentions_active(&f.base)
            }
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
    pub(super) fn field_array(&self, e: &Expr) -> Option<Expr> {
        match strip(e) {
            Expr::Field(f)
                if matches!(f.member, Member::Named(_)) && self.scope.mentions_active(&f.base) =>
            {
                Some(strip(e).clone())
            }
            _ => None,
        }
    }

    /// `Operand::<D, _>::new(e).operand()`: `e` as a value of the reading if it is a
    /// plain float, as it is otherwise. The rule's scope imports the two `operand`
    /// traits ([`operand_traits`]).
    pub(super) fn operand(&self, e: &Expr) -> Expr {
        let (pv, d) = (self.private(), &self.d);
        let span = e.span();
        syn::parse_quote_spanned!(span=> #pv::Operand::<#d, _>::new(#e).operand())
    }

    /// `IntoReading::<F, _>::into_reading(e)`: `e` converted to the type of the place
    /// it is stored into (a field of the reading or a plain `#[constant]` float).
    pub(super) fn place_value(&self, e: &Expr) -> Expr {
        let (pv, f) = (self.private(), self.float.ident());
        let span = e.span();
        syn::parse_quote_spanned!(span=> #pv::IntoReading::<#f, _>::into_reading(#e))
    }

    /// Lowers a field write's right-hand side (`p.x = v`): plain floats are converted to
    /// the field's type. Lifted values are stored as they are: they may be fields of
    /// any type themselves (`steps: p.steps`), which no conversion could take.
    pub(super) fn field_store(&mut self, rhs: &mut Expr) {
        let class = self.scope.classify(rhs);
        self.expr(rhs, Want::Any);
        if class == Class::Inactive {
            *rhs = self.place_value(rhs);
        }
    }

    /// `Particle { x: a, v: b, m: 1.0 }`: built as the dual struct `ParticleDual::<D>`
    /// when a field is a float; plain floats are converted to their field's type (see
    /// [`Self::field_store`]).
    pub(super) fn struct_lit(&mut self, e: &mut Expr) {
        let Expr::Struct(s) = e else { return };
        let floaty = s
            .fields
            .iter()
            .any(|f| self.scope.classify(&f.expr) != Class::Other);
        for field in s.fields.iter_mut() {
            let class = self.scope.classify(&field.expr);
            self.expr(&mut field.expr, Want::Any);
            if floaty && class == Class::Inactive {
                if field.colon_token.is_none() {
                    field.colon_token = Some(syn::Token![:](field.member.span()));
                }
                field.expr = self.place_value(&field.expr);
            }
        }
        if let Some(rest) = &mut s.rest {
            self.expr(rest, Want::Any);
        }
        if !floaty || s.qself.is_some() {
            return;
        }
        let path = &s.path;
        let ty: syn::Type = syn::parse_quote!(#path);
        if !is_struct_type(&ty) {
            return;
        }
        let d = self.d.clone();
        if let Some(last) = s.path.segments.last_mut() {
            last.ident = dual_name(&last.ident);
            last.arguments = syn::PathArguments::AngleBracketed(syn::parse_quote!(::<#d>));
        }
    }
}

/// The import that makes `Operand::operand` resolve: both traits, unnamed. Only
/// `Operand` implements them, so nothing else in the user's code changes meaning.
pub fn operand_traits(krate: &syn::Path) -> syn::Stmt {
    syn::parse_quote!(use #krate::__private::{KeepOperand as _, LiftOperand as _};)
}
