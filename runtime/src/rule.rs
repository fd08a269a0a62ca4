//! The `FRule` contract every rule satisfies, hand-written or derived, and `Param`,
//! the vocabulary drivers and `check_rule` use to lift arguments and read results.

use core::fmt::Debug;

use crate::array::{ArrayOwned, ArrayRead, ArrayWrite};
use crate::{Reading, Scalar};

/// An owned primal argument or result that can be lifted to a reading.
///
/// A rule's arguments are held as owned values (`Vec<f64>` for a `&[f64]` or
/// `&mut [f64]` parameter); the rule borrows its views from the lifted store, and
/// in-place updates land there. Scalar degrees of freedom are numbered in a fixed
/// order (`lift`, `visit`, `flatten` and `unflatten` all agree on it), which is how
/// drivers seed directions and read tangents.
///
/// A user struct gets its implementation from `#[derive(lifted::Lift)]`, which also
/// generates the struct's forward value (`Store<D>`, the dual struct).
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no lifted form: it cannot be an argument, result or local of a derived rule",
    label = "not liftable",
    note = "derive `lifted::Lift` on `{Self}` (together with `Clone` and `Debug`): a struct with float fields gets a dual struct, a type without floats reads as itself",
    note = "or mark the parameter `#[constant]` when it does not depend on the inputs"
)]
pub trait Param<F: Scalar>: Clone + Debug {
    /// The forward value at reading `D` (`D` for `f64`, `D::Vec` for `Vec<f64>`, the
    /// value itself for integers).
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
    /// Visits the degrees of freedom of a lifted value, in the order of `lift`.
    fn visit<D: Reading<F>>(store: &Self::Store<D>, f: &mut impl FnMut(D));
    /// The primal value held by a lifted value.
    fn primal_of<D: Reading<F>>(store: &Self::Store<D>) -> Self;
    /// Appends the scalar degrees of freedom of the primal value.
    fn flatten(&self, out: &mut Vec<F>);
    /// Overwrites the scalar degrees of freedom, in order, from `from`.
    fn unflatten(&mut self, from: &mut impl Iterator<Item = F>);
}

/// A parameter that is never lifted (`#[constant]`): it reaches the rule as it is,
/// has no degrees of freedom and costs nothing. Parameters whose type holds no float
/// (an enum, an `Option<usize>`) are passed the same way.
#[derive(Clone, Copy, Default, PartialEq)]
pub struct Constant<T>(pub T);

/// Shows `Constant(…)`: the wrapped value need not be `Debug`.
impl<T> Debug for Constant<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Constant(…)")
    }
}

/// The contract of a rule: the primal function and its forward rule at any reading.
///
/// A **rule marker** is a small `Copy` type (usually a unit struct) that names one
/// function and implements `FRule` for it: the `Rule` marker the macro emits next to
/// every `#[autodiff]` function (`rosenbrock::Rule`), or a marker a user writes for a
/// hand-written primitive. Drivers and [`check_rule`](crate::testing::check_rule) take
/// any `FRule`, so the two kinds are interchangeable.
///
/// # The contract
///
/// For every reading `D` and every `args`, `frule::<D>`, run on `args` lifted to `D`
/// (each scalar degree of freedom seeded with N tangent directions):
///
/// 1. leaves every primal — the result and the arguments after mutation — in exactly
///    the state [`primal`](FRule::primal) leaves them, bit for bit when it performs the
///    same operations; at the primal reading `D = Float` it *is* the primal function;
/// 2. returns, and leaves in the mutated arguments, the tangents of the function's
///    derivative applied to the argument tangents, direction by direction;
/// 3. keeps lanes independent: a width-N run equals N width-1 runs (bit for bit, or
///    within a stated tolerance for rules that reduce);
/// 4. computes lane-invariant work (the primal, factorizations, shared products)
///    once per call, not once per lane, and never recomputes the primal of a scalar
///    primitive it has already evaluated;
/// 5. allocates nothing when the function is scalar.
///
/// [`check_rule`](crate::testing::check_rule) checks 1, 2, 3 and 5 at a given point.
/// A rule that supports only some readings (an FFI function that knows its first
/// derivative only) asserts so at compile time, e.g. `const { assert!(D::ORDER <= 1) }`.
///
/// # A hand-written rule
///
/// The pattern: the primal function stays an ordinary function; a marker implements
/// `FRule`, its `frule` written once against the reading `D` (methods of
/// [`Real`](crate::Real), operators, constants of the primal field on the right, and
/// [`Reading::rsub`] and friends for constants on the left).
///
/// ```
/// use lifted::testing::{check_rule, CheckOptions};
/// use lifted::{FRule, Reading};
///
/// /// 2·√(x² + y²), without undue overflow.
/// pub fn scaled_hypot(x: f64, y: f64) -> f64 {
///     x.hypot(y) * 2.0
/// }
///
/// /// The rule marker of [`scaled_hypot`].
/// #[derive(Clone, Copy, Debug, Default)]
/// pub struct ScaledHypot;
///
/// impl FRule for ScaledHypot {
///     type Float = f64;
///     type Args = (f64, f64);
///     type Output = f64;
///     const CHUNK: usize = 2;
///     const NAME: &'static str = "scaled_hypot";
///
///     fn primal(self, args: &mut (f64, f64)) -> f64 {
///         scaled_hypot(args.0, args.1)
///     }
///
///     fn frule<D: Reading<f64>>(self, args: &mut (D, D)) -> D {
///         let (x, y) = *args;
///         // The same operations as the primal: `hypot` of the reading computes the
///         // primal once and the N partials from it.
///         x.hypot(y) * 2.0
///     }
/// }
///
/// // The primal reading is the primal function…
/// assert_eq!(ScaledHypot.frule::<f64>(&mut (3.0, 4.0)), 10.0);
/// // …and the rule passes every check at a point.
/// let report = check_rule(ScaledHypot, (3.0, 4.0), &CheckOptions::new()).unwrap();
/// assert!(report.passed());
/// ```
///
/// `runtime/examples/hand_rule.rs` adds an `f32` primitive whose derivative is given
/// by formula through [`Reading::compose`], and an in-place rule over slices.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a rule: it does not implement `lifted::FRule`",
    label = "expected a rule marker here",
    note = "annotate the function with `#[lifted::autodiff]` and pass its `Rule` (`f::Rule`), or implement `lifted::FRule` for a marker of a hand-written rule"
)]
pub trait FRule: Copy {
    /// The field the primal function is written in.
    type Float: Scalar;
    /// The arguments as a tuple of owned values (`(Vec<f64>, f64)` for
    /// `fn f(x: &[f64], y: f64)`).
    type Args: Param<Self::Float>;
    /// The primal result.
    type Output: Param<Self::Float>;
    /// The default chunk width for drivers (the attribute's `chunk = N`).
    const CHUNK: usize;
    /// The function's name, for messages.
    const NAME: &'static str;
    /// Runs the primal function; `&mut` parameters update `args` in place.
    fn primal(self, args: &mut Self::Args) -> Self::Output;
    /// Runs the rule at reading `D`; `&mut` parameters update `args` in place.
    fn frule<D: Reading<Self::Float>>(
        self,
        args: &mut <Self::Args as Param<Self::Float>>::Store<D>,
    ) -> <Self::Output as Param<Self::Float>>::Store<D>;
}

macro_rules! scalar_param {
    ($f:ident) => {
        impl Param<$f> for $f {
            type Store<D: Reading<$f>> = D;
            #[inline(always)]
            fn dim(&self) -> usize {
                1
            }
            #[inline(always)]
            fn lift<D: Reading<$f>>(&self, seed: &mut impl FnMut($f) -> D) -> D {
                seed(*self)
            }
            #[inline(always)]
            fn visit<D: Reading<$f>>(store: &D, f: &mut impl FnMut(D)) {
                f(*store)
            }
            #[inline(always)]
            fn primal_of<D: Reading<$f>>(store: &D) -> Self {
                store.primal_scalar()
            }
            fn flatten(&self, out: &mut Vec<$f>) {
                out.push(*self);
            }
            fn unflatten(&mut self, from: &mut impl Iterator<Item = $f>) {
                if let Some(v) = from.next() {
                    *self = v;
                }
            }
        }

        impl Param<$f> for Vec<$f> {
            type Store<D: Reading<$f>> = D::Vec;
            fn dim(&self) -> usize {
                self.len()
            }
            // `extend_map` rather than `push` per element: the array sizes itself once
            // and writes the elements in place (drivers lift every pass this way).
            #[inline]
            fn lift<D: Reading<$f>>(&self, seed: &mut impl FnMut($f) -> D) -> D::Vec {
                let mut out = D::Vec::with_capacity(self.len());
                out.extend_map(self, seed);
                out
            }
            #[inline]
            fn relift<D: Reading<$f>>(&self, store: &mut D::Vec, seed: &mut impl FnMut($f) -> D) {
                store.clear();
                store.extend_map(self, seed);
            }
            fn visit<D: Reading<$f>>(store: &D::Vec, f: &mut impl FnMut(D)) {
                for i in 0..store.len() {
                    f(store.get(i));
                }
            }
            fn primal_of<D: Reading<$f>>(store: &D::Vec) -> Self {
                (0..store.len())
                    .map(|i| store.get(i).primal_scalar())
                    .collect()
            }
            fn flatten(&self, out: &mut Vec<$f>) {
                out.extend_from_slice(self);
            }
            fn unflatten(&mut self, from: &mut impl Iterator<Item = $f>) {
                for (x, v) in self.iter_mut().zip(from) {
                    *x = v;
                }
            }
        }

        impl<const K: usize> Param<$f> for [$f; K] {
            type Store<D: Reading<$f>> = [D; K];
            fn dim(&self) -> usize {
                K
            }
            fn lift<D: Reading<$f>>(&self, seed: &mut impl FnMut($f) -> D) -> [D; K] {
                let mut out = [D::zero(); K];
                for (o, &x) in out.iter_mut().zip(self) {
                    *o = seed(x);
                }
                out
            }
            fn visit<D: Reading<$f>>(store: &[D; K], f: &mut impl FnMut(D)) {
                store.iter().for_each(|&d| f(d));
            }
            fn primal_of<D: Reading<$f>>(store: &[D; K]) -> Self {
                store.map(|d| d.primal_scalar())
            }
            fn flatten(&self, out: &mut Vec<$f>) {
                out.extend_from_slice(self);
            }
            fn unflatten(&mut self, from: &mut impl Iterator<Item = $f>) {
                for (x, v) in self.iter_mut().zip(from) {
                    *x = v;
                }
            }
        }
    };
}

scalar_param!(f64);
scalar_param!(f32);

/// Values without derivatives are their own forward value and have no degrees of freedom.
macro_rules! inert_param {
    ($($t:ty),* $(,)?) => {$(
        impl<F: Scalar> Param<F> for $t {
            type Store<D: Reading<F>> = $t;
            #[inline(always)]
            fn dim(&self) -> usize {
                0
            }
            #[inline(always)]
            fn lift<D: Reading<F>>(&self, _seed: &mut impl FnMut(F) -> D) -> $t {
                self.clone()
            }
            #[inline(always)]
            fn visit<D: Reading<F>>(_store: &$t, _f: &mut impl FnMut(D)) {}
            #[inline(always)]
            fn primal_of<D: Reading<F>>(store: &$t) -> Self {
                store.clone()
            }
            fn flatten(&self, _out: &mut Vec<F>) {}
            fn unflatten(&mut self, _from: &mut impl Iterator<Item = F>) {}
        }
    )*};
}

inert_param!(
    i8,
    i16,
    i32,
    i64,
    i128,
    isize,
    u8,
    u16,
    u32,
    u64,
    u128,
    usize,
    bool,
    char,
    (),
    String,
    &'static str,
    crate::linalg::LinalgError,
    Vec<usize>,
    Vec<i32>,
    Vec<i64>,
    Vec<u32>,
    Vec<u64>,
    Vec<bool>
);

impl<F: Scalar, T: Clone> Param<F> for Constant<T> {
    type Store<D: Reading<F>> = T;
    #[inline(always)]
    fn dim(&self) -> usize {
        0
    }
    #[inline(always)]
    fn lift<D: Reading<F>>(&self, _seed: &mut impl FnMut(F) -> D) -> T {
        self.0.clone()
    }
    #[inline(always)]
    fn visit<D: Reading<F>>(_store: &T, _f: &mut impl FnMut(D)) {}
    #[inline(always)]
    fn primal_of<D: Reading<F>>(store: &T) -> Self {
        Constant(store.clone())
    }
    fn flatten(&self, _out: &mut Vec<F>) {}
    fn unflatten(&mut self, _from: &mut impl Iterator<Item = F>) {}
}

impl<F: Scalar, T: Param<F>> Param<F> for Option<T> {
    type Store<D: Reading<F>> = Option<T::Store<D>>;
    fn dim(&self) -> usize {
        self.as_ref().map_or(0, T::dim)
    }
    fn lift<D: Reading<F>>(&self, seed: &mut impl FnMut(F) -> D) -> Self::Store<D> {
        self.as_ref().map(|t| t.lift(seed))
    }
    fn visit<D: Reading<F>>(store: &Self::Store<D>, f: &mut impl FnMut(D)) {
        if let Some(s) = store {
            T::visit(s, f);
        }
    }
    fn primal_of<D: Reading<F>>(store: &Self::Store<D>) -> Self {
        store.as_ref().map(T::primal_of)
    }
    fn flatten(&self, out: &mut Vec<F>) {
        if let Some(t) = self {
            t.flatten(out);
        }
    }
    fn unflatten(&mut self, from: &mut impl Iterator<Item = F>) {
        if let Some(t) = self {
            t.unflatten(from);
        }
    }
}

macro_rules! tuple_param {
    ($($T:ident $i:tt),*) => {
        impl<F: Scalar, $($T: Param<F>),*> Param<F> for ($($T,)*) {
            type Store<D: Reading<F>> = ($($T::Store<D>,)*);
            fn dim(&self) -> usize {
                0 $(+ self.$i.dim())*
            }
            #[allow(unused_variables)]
            fn lift<D: Reading<F>>(&self, seed: &mut impl FnMut(F) -> D) -> Self::Store<D> {
                ($(self.$i.lift(seed),)*)
            }
            #[allow(unused_variables)]
            fn relift<D: Reading<F>>(&self, store: &mut Self::Store<D>, seed: &mut impl FnMut(F) -> D) {
                $(self.$i.relift(&mut store.$i, seed);)*
            }
            #[allow(unused_variables)]
            fn visit<D: Reading<F>>(store: &Self::Store<D>, f: &mut impl FnMut(D)) {
                $($T::visit(&store.$i, f);)*
            }
            #[allow(unused_variables, clippy::unused_unit)]
            fn primal_of<D: Reading<F>>(store: &Self::Store<D>) -> Self {
                ($($T::primal_of(&store.$i),)*)
            }
            #[allow(unused_variables)]
            fn flatten(&self, out: &mut Vec<F>) {
                $(self.$i.flatten(out);)*
            }
            #[allow(unused_variables)]
            fn unflatten(&mut self, from: &mut impl Iterator<Item = F>) {
                $(self.$i.unflatten(from);)*
            }
        }
    };
}

tuple_param!(A 0);
tuple_param!(A 0, B 1);
tuple_param!(A 0, B 1, C 2);
tuple_param!(A 0, B 1, C 2, E 3);
tuple_param!(A 0, B 1, C 2, E 3, G 4);
tuple_param!(A 0, B 1, C 2, E 3, G 4, H 5);
tuple_param!(A 0, B 1, C 2, E 3, G 4, H 5, I 6);
tuple_param!(A 0, B 1, C 2, E 3, G 4, H 5, I 6, J 7);
tuple_param!(A 0, B 1, C 2, E 3, G 4, H 5, I 6, J 7, K 8);
tuple_param!(A 0, B 1, C 2, E 3, G 4, H 5, I 6, J 7, K 8, L 9);
tuple_param!(A 0, B 1, C 2, E 3, G 4, H 5, I 6, J 7, K 8, L 9, M 10);
tuple_param!(A 0, B 1, C 2, E 3, G 4, H 5, I 6, J 7, K 8, L 9, M 10, O 11);

// `ArrayWrite` is part of the vocabulary generated code uses on `Store`s.
#[allow(unused_imports)]
use ArrayWrite as _;
