//! Jacobians: [`jacobian`], [`jacobian_with_chunk`], [`jacobian_wrt`] and
//! [`value_and_jacfwd`], each a [`Driver`] call returning a [`Jacobian`].

use super::Error;
use super::args::{Arguments, IntoArgs};
use super::driver::Driver;
use super::matrix::Jacobian;
use super::width::ChunkScalar;
use crate::FRule;

/// The result and its Jacobian with respect to every scalar degree of freedom of every
/// argument, computed N columns at a time, the reading and N chosen as for
/// [`gradient`](crate::gradient) (see [`Driver::plan`](crate::drivers::Driver::plan)).
///
/// Rows follow the result's degrees of freedom in `Param` order (a `Vec` result's
/// elements, a tuple's components in turn), columns the arguments' as for
/// [`gradient`](crate::gradient). The Jacobian covers the *result*: for a function
/// that updates arguments in place, use [`jvp_mut`](crate::jvp_mut), or differentiate
/// a wrapper that returns them.
///
/// # Errors
///
/// [`Error::UnsupportedWidth`] for a hand-written
/// rule whose `CHUNK` is not instantiated (see [`FRule::at_chunk`]);
/// [`Error::OutputShapeChanged`] when the result's length differs between passes.
///
/// ```
/// use lifted::autodiff;
///
/// #[autodiff(forward)]
/// fn polar(p: [f64; 2]) -> [f64; 2] {
///     let [r, t] = p;
///     [r * t.cos(), r * t.sin()]
/// }
///
/// # fn main() -> Result<(), lifted::Error> {
/// let (xy, jac) = lifted::jacobian(polar::Rule, [2.0, 0.0])?;
/// assert_eq!(xy, [2.0, 0.0]);
/// assert_eq!(jac.shape(), (2, 2));
/// assert_eq!(jac.data(), [1.0, 0.0, 0.0, 2.0]); // [[cos t, -r sin t], [sin t, r cos t]]
/// assert_eq!(jac[(1, 1)], 2.0);
/// # Ok(())
/// # }
/// ```
pub fn jacobian<R>(
    rule: R,
    args: impl IntoArgs<R::Args>,
) -> Result<(R::Output, Jacobian<R::Float>), Error>
where
    R: FRule,
    R::Float: ChunkScalar,
    R::Args: Arguments<R::Float>,
{
    Driver::new(rule).jacobian(args)
}

/// [`jacobian`] in passes of `chunk` columns, one of
/// [`DRIVER_WIDTHS`](crate::drivers::DRIVER_WIDTHS) chosen at run time. Shorthand for
/// `Driver::new(rule).width(chunk).jacobian(args)`.
///
/// # Errors
///
/// As [`jacobian`]; [`Error::UnsupportedWidth`] when `chunk` is not one of
/// [`DRIVER_WIDTHS`](crate::drivers::DRIVER_WIDTHS).
pub fn jacobian_with_chunk<R>(
    rule: R,
    args: impl IntoArgs<R::Args>,
    chunk: usize,
) -> Result<(R::Output, Jacobian<R::Float>), Error>
where
    R: FRule,
    R::Float: ChunkScalar,
    R::Args: Arguments<R::Float>,
{
    Driver::new(rule).width(chunk).jacobian(args)
}

/// [`jacobian`] with respect to the arguments numbered in `wrt` only, their degrees
/// of freedom as columns in the order of `wrt` (see [`gradient_wrt`](crate::gradient_wrt)).
/// Shorthand for `Driver::new(rule).wrt(wrt).jacobian(args)`.
///
/// # Errors
///
/// [`Error::ArgumentOutOfRange`] and [`Error::DuplicateArgument`] for a bad
/// selection; otherwise as [`jacobian`].
pub fn jacobian_wrt<R>(
    rule: R,
    args: impl IntoArgs<R::Args>,
    wrt: &[usize],
) -> Result<(R::Output, Jacobian<R::Float>), Error>
where
    R: FRule,
    R::Float: ChunkScalar,
    R::Args: Arguments<R::Float>,
{
    Driver::new(rule).wrt(wrt).jacobian(args)
}

/// The result and its Jacobian with respect to the arguments numbered in `wrt`, in one
/// pass: every direction is carried at once (up to 64 columns; beyond that, in passes
/// of 64). The value comes from the same pass — the primal is not run separately.
/// Typical use: the value and the space-time derivatives of a network at a collocation
/// point, `wrt` naming the coordinate arguments and not the weights.
///
/// # Errors
///
/// As [`jacobian_wrt`].
///
/// ```
/// use lifted::autodiff;
///
/// #[autodiff(forward)]
/// fn u(x: f64, t: f64, #[constant] c: f64) -> (f64, f64) {
///     ((x - c * t).sin(), (x + c * t).cos())
/// }
///
/// # fn main() -> Result<(), lifted::Error> {
/// let (value, jac) = lifted::value_and_jacfwd(u::Rule, (0.5, 0.25, 2.0), &[0, 1])?;
/// assert_eq!(value, u(0.5, 0.25, 2.0));
/// assert_eq!(jac.shape(), (2, 2));
/// assert_eq!(jac[(0, 1)], -2.0 * (0.5_f64 - 2.0 * 0.25).cos()); // ∂u₀/∂t
/// # Ok(())
/// # }
/// ```
pub fn value_and_jacfwd<R>(
    rule: R,
    args: impl IntoArgs<R::Args>,
    wrt: &[usize],
) -> Result<(R::Output, Jacobian<R::Float>), Error>
where
    R: FRule,
    R::Float: ChunkScalar,
    R::Args: Arguments<R::Float>,
{
    Driver::new(rule)
        .chunk::<{ super::width::MAX_CHUNK }>()
        .reading(super::PassReading::Dense)
        .wrt(wrt)
        .jacobian(args)
}
