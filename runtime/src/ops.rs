//! Operators on lifted structs: how `z * w` reaches the rule of a user's `impl Mul`.
//!
//! Inside a rule body, an operator whose operands are both `#[derive(lifted::Lift)]`
//! structs (`z * w` with `z, w: Cplx`) is a call to one of the functions here,
//! [`mul::<Cplx, Cplx, …>`](mul), named by the operands' primal types. Each function
//! is bounded by a trait of the primal type ([`MulRule<Cplx, f64>`](MulRule) for
//! `Cplx`), which `#[autodiff(forward)]` on `impl Mul for Cplx` implements from the
//! block's body. When that block is not annotated, the bound fails in lifted's words,
//! naming the two primal types and the block to annotate, rather than in the types of
//! the generated dual structs.
//!
//! ```
//! use lifted::{Lift, autodiff, gradient};
//!
//! #[derive(Clone, Copy, Debug, Lift)]
//! pub struct Cplx {
//!     pub re: f64,
//!     pub im: f64,
//! }
//!
//! #[autodiff(forward)]
//! impl std::ops::Mul for Cplx {
//!     type Output = Cplx;
//!     fn mul(self, o: Cplx) -> Cplx {
//!         Cplx { re: self.re * o.re - self.im * o.im, im: self.re * o.im + self.im * o.re }
//!     }
//! }
//!
//! /// The real part of z².
//! #[autodiff(forward)]
//! pub fn re_square(z: Cplx) -> f64 {
//!     (z * z).re
//! }
//!
//! fn main() {
//!     let (_, g) = gradient(re_square::Rule, (Cplx { re: 3.0, im: 2.0 },)).unwrap();
//!     assert_eq!(g, vec![6.0, -4.0]); // ∂(re² − im²)
//! }
//! ```
//!
//! These are plumbing between the macro and user types: code outside rule bodies keeps
//! writing the operators.

use crate::{Param, Reading, Scalar};

/// A binary operator's rule trait.
macro_rules! binary_rules {
    ($($(#[$doc:meta])* $Trait:ident $method:ident $sym:literal
        message = $message:literal, label = $label:literal, note = $note:literal;)*) => {$(
        $(#[$doc])*
        #[diagnostic::on_unimplemented(message = $message, label = $label, note = $note)]
        pub trait $Trait<Rhs: Param<F>, F: Scalar>: Param<F> {
            /// The primal operator's `Output`.
            type Output: Param<F>;
            /// The operator on the lifted values at reading `D`.
            fn $method<D: Reading<F>>(a: Self::Store<D>, b: Rhs::Store<D>) -> <Self::Output as Param<F>>::Store<D>;
        }

    )*};
}

binary_rules! {
    /// The rule of `impl Add<Rhs> for Self`, for `+` on lifted structs.
    AddRule add "+"
        message = "`{Self} + {Rhs}` has no derivative rule",
        label = "no rule for this `+`",
        note = "put `#[autodiff(forward)]` on the `impl Add<{Rhs}> for {Self}` block: lifted then derives the operator's rule from its body";
    /// The rule of `impl Sub<Rhs> for Self`, for `-` on lifted structs.
    SubRule sub "-"
        message = "`{Self} - {Rhs}` has no derivative rule",
        label = "no rule for this `-`",
        note = "put `#[autodiff(forward)]` on the `impl Sub<{Rhs}> for {Self}` block: lifted then derives the operator's rule from its body";
    /// The rule of `impl Mul<Rhs> for Self`, for `*` on lifted structs.
    MulRule mul "*"
        message = "`{Self} * {Rhs}` has no derivative rule",
        label = "no rule for this `*`",
        note = "put `#[autodiff(forward)]` on the `impl Mul<{Rhs}> for {Self}` block: lifted then derives the operator's rule from its body";
    /// The rule of `impl Div<Rhs> for Self`, for `/` on lifted structs.
    DivRule div "/"
        message = "`{Self} / {Rhs}` has no derivative rule",
        label = "no rule for this `/`",
        note = "put `#[autodiff(forward)]` on the `impl Div<{Rhs}> for {Self}` block: lifted then derives the operator's rule from its body";
    /// The rule of `impl Rem<Rhs> for Self`, for `%` on lifted structs.
    RemRule rem "%"
        message = "`{Self} % {Rhs}` has no derivative rule",
        label = "no rule for this `%`",
        note = "put `#[autodiff(forward)]` on the `impl Rem<{Rhs}> for {Self}` block: lifted then derives the operator's rule from its body";
}

/// A compound assignment's rule trait.
macro_rules! assign_rules {
    ($($(#[$doc:meta])* $Trait:ident $method:ident $sym:literal
        message = $message:literal, label = $label:literal, note = $note:literal;)*) => {$(
        $(#[$doc])*
        #[diagnostic::on_unimplemented(message = $message, label = $label, note = $note)]
        pub trait $Trait<Rhs: Param<F>, F: Scalar>: Param<F> {
            /// The operator on the lifted values at reading `D`.
            fn $method<D: Reading<F>>(a: &mut Self::Store<D>, b: Rhs::Store<D>);
        }

    )*};
}

assign_rules! {
    /// The rule of `impl AddAssign<Rhs> for Self`, for `+=` on lifted structs.
    AddAssignRule add_assign "+="
        message = "`{Self} += {Rhs}` has no derivative rule",
        label = "no rule for this `+=`",
        note = "put `#[autodiff(forward)]` on the `impl AddAssign<{Rhs}> for {Self}` block: lifted then derives the operator's rule from its body";
    /// The rule of `impl SubAssign<Rhs> for Self`, for `-=` on lifted structs.
    SubAssignRule sub_assign "-="
        message = "`{Self} -= {Rhs}` has no derivative rule",
        label = "no rule for this `-=`",
        note = "put `#[autodiff(forward)]` on the `impl SubAssign<{Rhs}> for {Self}` block: lifted then derives the operator's rule from its body";
    /// The rule of `impl MulAssign<Rhs> for Self`, for `*=` on lifted structs.
    MulAssignRule mul_assign "*="
        message = "`{Self} *= {Rhs}` has no derivative rule",
        label = "no rule for this `*=`",
        note = "put `#[autodiff(forward)]` on the `impl MulAssign<{Rhs}> for {Self}` block: lifted then derives the operator's rule from its body";
    /// The rule of `impl DivAssign<Rhs> for Self`, for `/=` on lifted structs.
    DivAssignRule div_assign "/="
        message = "`{Self} /= {Rhs}` has no derivative rule",
        label = "no rule for this `/=`",
        note = "put `#[autodiff(forward)]` on the `impl DivAssign<{Rhs}> for {Self}` block: lifted then derives the operator's rule from its body";
    /// The rule of `impl RemAssign<Rhs> for Self`, for `%=` on lifted structs.
    RemAssignRule rem_assign "%="
        message = "`{Self} %= {Rhs}` has no derivative rule",
        label = "no rule for this `%=`",
        note = "put `#[autodiff(forward)]` on the `impl RemAssign<{Rhs}> for {Self}` block: lifted then derives the operator's rule from its body";
}

/// The rule of `impl Neg for Self`, for unary `-` on a lifted struct.
#[diagnostic::on_unimplemented(
    message = "`-{Self}` has no derivative rule",
    label = "no rule for this `-`",
    note = "put `#[autodiff(forward)]` on the `impl Neg for {Self}` block: lifted then derives the operator's rule from its body"
)]
pub trait NegRule<F: Scalar>: Param<F> {
    /// The primal operator's `Output`.
    type Output: Param<F>;
    /// The operator on the lifted value at reading `D`.
    fn neg<D: Reading<F>>(a: Self::Store<D>) -> <Self::Output as Param<F>>::Store<D>;
}

/// `-a` on a lifted struct whose primal type is `T`, with primal result `O`: the rule
/// of [`NegRule`].
#[inline]
pub fn neg<T, O, F, D>(a: T::Store<D>) -> O::Store<D>
where
    T: NegRule<F, Output = O>,
    O: Param<F>,
    F: Scalar,
    D: Reading<F>,
{
    T::neg(a)
}

// The functions are written out rather than expanded from a macro: a failed bound
// shows the function's source under "required by a bound in `lifted::ops::mul`", and a
// macro's source there would show every operator's entry instead of the one signature.

/// `a + b` on lifted structs of primal types `L` and `R` with primal result `O`:
/// the rule of [`AddRule`].
#[inline]
pub fn add<L, R, O, F, D>(a: L::Store<D>, b: R::Store<D>) -> O::Store<D>
where
    L: AddRule<R, F, Output = O>,
    R: Param<F>,
    O: Param<F>,
    F: Scalar,
    D: Reading<F>,
{
    L::add(a, b)
}

/// `a - b` on lifted structs of primal types `L` and `R` with primal result `O`:
/// the rule of [`SubRule`].
#[inline]
pub fn sub<L, R, O, F, D>(a: L::Store<D>, b: R::Store<D>) -> O::Store<D>
where
    L: SubRule<R, F, Output = O>,
    R: Param<F>,
    O: Param<F>,
    F: Scalar,
    D: Reading<F>,
{
    L::sub(a, b)
}

/// `a * b` on lifted structs of primal types `L` and `R` with primal result `O`:
/// the rule of [`MulRule`].
#[inline]
pub fn mul<L, R, O, F, D>(a: L::Store<D>, b: R::Store<D>) -> O::Store<D>
where
    L: MulRule<R, F, Output = O>,
    R: Param<F>,
    O: Param<F>,
    F: Scalar,
    D: Reading<F>,
{
    L::mul(a, b)
}

/// `a / b` on lifted structs of primal types `L` and `R` with primal result `O`:
/// the rule of [`DivRule`].
#[inline]
pub fn div<L, R, O, F, D>(a: L::Store<D>, b: R::Store<D>) -> O::Store<D>
where
    L: DivRule<R, F, Output = O>,
    R: Param<F>,
    O: Param<F>,
    F: Scalar,
    D: Reading<F>,
{
    L::div(a, b)
}

/// `a % b` on lifted structs of primal types `L` and `R` with primal result `O`:
/// the rule of [`RemRule`].
#[inline]
pub fn rem<L, R, O, F, D>(a: L::Store<D>, b: R::Store<D>) -> O::Store<D>
where
    L: RemRule<R, F, Output = O>,
    R: Param<F>,
    O: Param<F>,
    F: Scalar,
    D: Reading<F>,
{
    L::rem(a, b)
}

/// `a += b` on lifted structs of primal types `L` and `R`: the rule of [`AddAssignRule`].
#[inline]
pub fn add_assign<L, R, F, D>(a: &mut L::Store<D>, b: R::Store<D>)
where
    L: AddAssignRule<R, F>,
    R: Param<F>,
    F: Scalar,
    D: Reading<F>,
{
    L::add_assign(a, b)
}

/// `a -= b` on lifted structs of primal types `L` and `R`: the rule of [`SubAssignRule`].
#[inline]
pub fn sub_assign<L, R, F, D>(a: &mut L::Store<D>, b: R::Store<D>)
where
    L: SubAssignRule<R, F>,
    R: Param<F>,
    F: Scalar,
    D: Reading<F>,
{
    L::sub_assign(a, b)
}

/// `a *= b` on lifted structs of primal types `L` and `R`: the rule of [`MulAssignRule`].
#[inline]
pub fn mul_assign<L, R, F, D>(a: &mut L::Store<D>, b: R::Store<D>)
where
    L: MulAssignRule<R, F>,
    R: Param<F>,
    F: Scalar,
    D: Reading<F>,
{
    L::mul_assign(a, b)
}

/// `a /= b` on lifted structs of primal types `L` and `R`: the rule of [`DivAssignRule`].
#[inline]
pub fn div_assign<L, R, F, D>(a: &mut L::Store<D>, b: R::Store<D>)
where
    L: DivAssignRule<R, F>,
    R: Param<F>,
    F: Scalar,
    D: Reading<F>,
{
    L::div_assign(a, b)
}

/// `a %= b` on lifted structs of primal types `L` and `R`: the rule of [`RemAssignRule`].
#[inline]
pub fn rem_assign<L, R, F, D>(a: &mut L::Store<D>, b: R::Store<D>)
where
    L: RemAssignRule<R, F>,
    R: Param<F>,
    F: Scalar,
    D: Reading<F>,
{
    L::rem_assign(a, b)
}
