//! The map from primal types to their forward values at a reading, and how drivers
//! lift arguments through it: [`Param`] (with [`ParamElem`] for the elements of
//! containers) and [`Lifted<P, D>`](Lifted), the forward value of `P` at reading `D`.
//!
//! This is the one map the macro and the drivers use: a rule's `frule` takes and
//! returns `Lifted` values, a `#[derive(Lift)]` struct's dual struct holds `Lifted`
//! fields, and the macro writes the same types for the locals of a rule body.
//!
//! The map itself is listed on [`Lifted`].
//!
//! References are not arguments (a rule's arguments are owned); inside a rule body
//! `&[f64]` and `&mut [f64]` read as the reading's views
//! [`ArrayReading::Ref`](crate::array::ArrayReading::Ref) and
//! [`ArrayReading::Mut`](crate::array::ArrayReading::Mut) (`NDualRef`, `NDualMut`).
//!
//! What a container becomes is chosen by its element, as the element type knows its
//! own layout: floats choose the reading's owned array (element-major for `NDual`, a
//! genuine `&[f64]` primal), everything else a `Vec` of its forward values. A generic
//! `impl Param for Vec<T>` over every element and concrete impls for `Vec<f64>` would
//! overlap; routing through [`ParamElem`] keeps one impl for `Vec<T>`.

pub(crate) mod containers;
mod inert;
mod scalar;

use core::fmt::Debug;
use core::ops::Range;

use crate::{Reading, Real, Scalar};

/// An owned primal argument or result that can be lifted to a reading.
///
/// A rule's arguments are held as owned values (`Vec<f64>` for a `&[f64]` or
/// `&mut [f64]` parameter); the rule borrows its views from the lifted store, and
/// in-place updates land there. Scalar degrees of freedom are numbered in a fixed
/// order (`lift`, `visit`, `flatten` and `unflatten` all agree on it), which is how
/// drivers seed directions and read tangents.
///
/// A user struct gets its implementation from `#[derive(lifted::Lift)]`, which also
/// generates the struct's forward value (`Store<D>`, the dual struct). The forward
/// value of a type at a reading is [`Lifted<P, D>`](Lifted), whose docs list the map.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no lifted form: it cannot be an argument, result or local of a derived rule",
    label = "not liftable",
    note = "derive `lifted::Lift` on `{Self}` (together with `Clone` and `Debug`): a struct with float fields gets a dual struct, a type without floats reads as itself",
    note = "or mark the parameter `#[constant]` when it does not depend on the inputs"
)]
pub trait Param<F: Scalar>: Clone + Debug {
    /// The forward value at reading `D` (`D` for `f64`, `D::Vec` for `Vec<f64>`, the
    /// value itself for integers; see the map on [`Lifted`]).
    type Store<D: Reading<F>>;
    /// Number of scalar degrees of freedom (0 for integers and constants).
    fn dim(&self) -> usize;
    /// Lifts to reading `D`: each scalar degree of freedom, in order, becomes `seed(x)`.
    fn lift<D: Reading<F>>(&self, seed: &mut impl FnMut(F) -> D) -> Self::Store<D>;
    /// [`lift`](Self::lift) into `store`, an earlier lift of this value (which a rule
    /// may have changed since): the same result as `*store = self.lift(seed)`, reusing
    /// `store`'s buffers where it has any, so drivers running pass after pass do not
    /// allocate per pass.
    fn relift<D: Reading<F>>(&self, store: &mut Self::Store<D>, seed: &mut impl FnMut(F) -> D) {
        *store = self.lift(seed);
    }
    /// [`relift`](Self::relift) into a `store` that holds a lift of a value of this
    /// shape by a seed whose partials were the same, unchanged since (a rule that does
    /// not mutate its arguments): only the primal values need to move, which arrays do
    /// without rewriting their partials. A sparse plan whose seeds stay put from call
    /// to call lifts this way. The default lifts again.
    #[doc(hidden)]
    #[inline]
    fn relift_values<D: Reading<F>>(
        &self,
        store: &mut Self::Store<D>,
        seed: &mut impl FnMut(F) -> D,
    ) {
        self.relift(store, seed);
    }
    /// [`relift`](Self::relift) of the degrees of freedom `range` (indices in lift
    /// order) alone: each becomes `seed(k, x)`, `k` its index, and the others keep
    /// what `store` holds. `seed` must give every degree of freedom the value it
    /// holds outside `range`: the default lifts them all again, which a type with no
    /// cheaper way keeps. Column passes move their seeds this way, touching `2N` of
    /// `n` degrees of freedom per pass rather than all of them.
    #[doc(hidden)]
    fn relift_range<D: Reading<F>>(
        &self,
        store: &mut Self::Store<D>,
        range: Range<usize>,
        seed: &mut impl FnMut(usize, F) -> D,
    ) {
        let _ = range;
        self.relift(store, &mut counted(seed));
    }
    /// Visits the degrees of freedom of a lifted value, in the order of `lift`.
    fn visit<D: Reading<F>>(store: &Self::Store<D>, f: &mut impl FnMut(D));
    /// The primal value held by a lifted value.
    fn primal_of<D: Reading<F>>(store: &Self::Store<D>) -> Self;
    /// Appends the scalar degrees of freedom of the primal value.
    fn flatten(&self, out: &mut Vec<F>);
    /// Overwrites the scalar degrees of freedom, in order, from `from`.
    fn unflatten(&mut self, from: &mut impl Iterator<Item = F>);
}

/// The forward value of `P` at reading `D`: `<P as Param<F>>::Store<D>` for the field
/// `F` of `D`. The map:
///
/// | primal `P` | `Lifted<P, D>` | at `D = NDual<f64, N>` |
/// |---|---|---|
/// | `f64`, `f32` | `D` | `NDual<f64, N>` |
/// | `Vec<f64>` | `D::Vec` ([`ArrayReading::Vec`](crate::array::ArrayReading::Vec)) | [`NDualArray<f64, N>`](crate::NDualArray) |
/// | `[T; K]` | `[Lifted<T, D>; K]` (no allocation) | `[[NDual<f64, N>; 2]; 3]` for `[[f64; 2]; 3]` |
/// | `Vec<T>`, other `T` | chosen by the element: `T::VecStore<D>` ([`ParamElem`]) | below |
/// | `Vec<Vec<f64>>` | `Vec<D::Vec>` | `Vec<NDualArray<f64, N>>` |
/// | `Vec<[f64; K]>` | `Vec<[D; K]>` | `Vec<[NDual<f64, N>; K]>` |
/// | `Vec<S>`, `S` a `Lift` struct | `Vec<Lifted<S, D>>` | `Vec<SDual<NDual<f64, N>>>` |
/// | `(A, B, …)` (up to 12), `Option<T>`, `Result<T, E>` | element-wise | `(NDual<f64, N>, usize)` for `(f64, usize)` |
/// | a `Lift` struct `S` | its dual struct `SDual<D>` | `SDual<NDual<f64, N>>` |
/// | integers, `bool`, `char`, `()`, `String`, `&'static str`, `Vec` of those | the type itself | the same |
/// | [`Constant<T>`](crate::Constant) | `T` | `T` |
///
///
/// References are not arguments (a rule's arguments are owned); inside a rule body
/// `&[f64]` and `&mut [f64]` read as the reading's views `D::Ref` and `D::Mut`.
///
/// ```
/// use lifted::{Lifted, NDual, NDualArray};
/// fn same<A: 'static, B: 'static>() -> bool {
///     core::any::TypeId::of::<A>() == core::any::TypeId::of::<B>()
/// }
/// type D = NDual<f64, 4>;
/// assert!(same::<Lifted<f64, D>, D>());
/// assert!(same::<Lifted<Vec<Vec<f64>>, D>, Vec<NDualArray<f64, 4>>>());
/// assert!(same::<Lifted<[[f64; 2]; 3], f64>, [[f64; 2]; 3]>());
/// ```
pub type Lifted<P, D> = <P as Param<<D as Real>::Field>>::Store<D>;

/// A type that can be the element of a lifted `Vec`: it chooses the forward value of
/// `Vec<Self>` ([`VecStore`](Self::VecStore)).
///
/// Floats choose the reading's owned array (`D::Vec`); every other element type a
/// `Vec` of its forward values (`Vec<Lifted<Self, D>>`). `#[derive(Lift)]` implements
/// it for user structs, so `Vec<Particle>` is an argument like `Vec<f64>`.
pub trait ParamElem<F: Scalar>: Param<F> + Sized {
    /// The forward value of `Vec<Self>` at reading `D`.
    type VecStore<D: Reading<F>>;
    /// Lifts the elements in order, as [`Param::lift`] does each.
    fn lift_vec<D: Reading<F>>(v: &[Self], seed: &mut impl FnMut(F) -> D) -> Self::VecStore<D>;
    /// [`lift_vec`](Self::lift_vec) into an earlier lift, reusing its buffers.
    fn relift_vec<D: Reading<F>>(
        v: &[Self],
        store: &mut Self::VecStore<D>,
        seed: &mut impl FnMut(F) -> D,
    ) {
        *store = Self::lift_vec(v, seed);
    }
    /// [`Param::relift_values`] of a lifted `Vec`; the default lifts it again.
    #[doc(hidden)]
    #[inline]
    fn relift_vec_values<D: Reading<F>>(
        v: &[Self],
        store: &mut Self::VecStore<D>,
        seed: &mut impl FnMut(F) -> D,
    ) {
        Self::relift_vec(v, store, seed);
    }
    /// [`Param::relift_range`] of a lifted `Vec`; the default lifts every element
    /// again.
    fn relift_vec_range<D: Reading<F>>(
        v: &[Self],
        store: &mut Self::VecStore<D>,
        range: Range<usize>,
        seed: &mut impl FnMut(usize, F) -> D,
    ) {
        let _ = range;
        Self::relift_vec(v, store, &mut counted(seed));
    }
    /// Visits the degrees of freedom of a lifted `Vec`, in the order of `lift_vec`.
    fn visit_vec<D: Reading<F>>(store: &Self::VecStore<D>, f: &mut impl FnMut(D));
    /// The primal elements held by a lifted `Vec`.
    fn primal_of_vec<D: Reading<F>>(store: &Self::VecStore<D>) -> Vec<Self>;
    /// The degrees of freedom of a `Vec` of these, in [`Param::dim`]'s sense. Floats
    /// answer the length at once: drivers ask on every call.
    fn dim_vec(v: &[Self]) -> usize {
        v.iter().map(Self::dim).sum()
    }
    /// [`Param::flatten`] of a `Vec` of these (floats copy the slice whole).
    fn flatten_vec(v: &[Self], out: &mut Vec<F>) {
        for x in v {
            x.flatten(out);
        }
    }
    /// [`Param::unflatten`] of a `Vec` of these.
    fn unflatten_vec(v: &mut [Self], from: &mut impl Iterator<Item = F>) {
        for x in v {
            x.unflatten(from);
        }
    }
}

/// `value` lifted to reading `D` with every tangent zero: a constant of the
/// computation, in its forward form.
///
/// ```
/// use lifted::{NDual, zero_lifted};
/// let v = zero_lifted::<f64, NDual<f64, 3>, _>(&vec![[1.0, 2.0]]);
/// assert_eq!(v[0][1].value(), 2.0);
/// assert_eq!(v[0][1].partials(), &[0.0; 3]);
/// ```
pub fn zero_lifted<F: Scalar, D: Reading<F>, P: Param<F>>(value: &P) -> P::Store<D> {
    value.lift(&mut D::constant)
}

/// `seed` of [`Param::relift_range`] as a seed of [`Param::relift`]: each degree of
/// freedom's index counted in lift order, for the implementations that lift every
/// degree of freedom again.
pub(crate) fn counted<F, D>(seed: &mut impl FnMut(usize, F) -> D) -> impl FnMut(F) -> D + '_ {
    let mut k = 0;
    move |x| {
        k += 1;
        seed(k - 1, x)
    }
}
