//! The `FRule` contract every rule satisfies, hand-written or derived. Its arguments
//! and result travel through [`Param`], the map from primal types to
//! their forward values.

use core::fmt::Debug;

use crate::instantiate::{AtWidth, WidthTable};
use crate::{Param, Reading, Scalar};

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
    /// The width of gradient, Jacobian and directional-derivative passes when a
    /// [`Driver`](crate::drivers::Driver) is not given another (the attribute's
    /// `chunk = N`).
    const CHUNK: usize;
    /// The function's name, for messages.
    const NAME: &'static str;
    /// Whether [`frule`](Self::frule) may change the lifted arguments (the function has
    /// a `&mut` parameter). A driver running several passes at one point then lifts
    /// every argument again before each pass; when it is `false`, it moves only the
    /// seeds of the columns that change between passes. `#[autodiff]` states it; a
    /// hand-written rule that leaves its arguments alone may set it to `false`.
    const MUTATES_ARGS: bool = true;
    /// Runs the primal function; `&mut` parameters update `args` in place.
    fn primal(self, args: &mut Self::Args) -> Self::Output;
    /// Runs the rule at reading `D`; `&mut` parameters update `args` in place.
    fn frule<D: Reading<Self::Float>>(
        self,
        args: &mut <Self::Args as Param<Self::Float>>::Store<D>,
    ) -> <Self::Output as Param<Self::Float>>::Store<D>;

    /// Runs `visitor` at width [`CHUNK`](Self::CHUNK), instantiated for that width
    /// alone. `#[autodiff]` writes it with the attribute's literal. A hand-written rule
    /// may keep this default, which looks `CHUNK` up among the widths instantiated for
    /// widths chosen at run time ([`DRIVER_WIDTHS`](crate::drivers::DRIVER_WIDTHS))
    /// and gives the visitor back when it is not one of them (drivers then report an
    /// error naming them); to run at another width, write
    /// `Ok(<f64 as WidthTable>::at_const::<5, V>(visitor))`.
    #[doc(hidden)]
    #[inline]
    fn at_chunk<V: AtWidth<Self::Float>>(visitor: V) -> Result<V::Output, V>
    where
        Self::Float: WidthTable,
    {
        <Self::Float as WidthTable>::at_width(Self::CHUNK, visitor)
    }
}
