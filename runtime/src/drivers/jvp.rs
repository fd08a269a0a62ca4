//! Directional derivatives: [`jvp`], [`jvp_mut`], [`jvp_many`], [`jvp_chunk`] and
//! [`derivative`].

use super::Error;
use super::args::{Arguments, IntoArgs};
use super::driver::{DirectionsPass, Driver};
use super::engine::{self, Directions};
use super::width::{Chunk, ChunkScalar, PassWidth};
use crate::{FRule, NDual, Param, Reading};

/// The result and its directional derivative (a Jacobian-vector product), one
/// direction at width 1.
///
/// `tangents` has the type and shape of the arguments — one tangent per argument,
/// in any form [`IntoArgs`] accepts (`&dx` for a one-argument function,
/// `(&dx, dy)` for two, the rule's own `&R::Args`). A `#[constant]` or integer argument
/// has no tangent: put anything of its type in its place (its content is ignored).
/// Returns the result's primal and its tangent as a value of the result's type (`f64`,
/// `Vec<f64>`, a tuple…).
///
/// In-place updates of `&mut` arguments are made on a copy and dropped: use
/// [`jvp_mut`] to get the updated arguments and their tangents.
///
/// # Errors
///
/// [`Error::TangentShape`] when a tangent does not have its argument's degrees of
/// freedom.
///
/// ```
/// use lifted::autodiff;
///
/// #[autodiff(forward)]
/// fn f(x: &[f64], y: f64) -> f64 {
///     x[0] * x[1] * y
/// }
///
/// # fn main() -> Result<(), lifted::Error> {
/// let x = vec![2.0, 3.0];
/// // d/dt f(x + t·dx, y + t·dy) at t = 0.
/// let (value, slope) = lifted::jvp(f::Rule, (&x, 4.0), (&[1.0, 0.0], 0.5))?;
/// assert_eq!(value, 24.0);
/// assert_eq!(slope, 3.0 * 4.0 + 2.0 * 3.0 * 0.5);
/// # Ok(())
/// # }
/// ```
pub fn jvp<R>(
    rule: R,
    args: impl IntoArgs<R::Args>,
    tangents: impl IntoArgs<R::Args>,
) -> Result<(R::Output, R::Output), Error>
where
    R: FRule,
    R::Float: ChunkScalar,
    R::Args: Arguments<R::Float>,
{
    args.with_args(|args| {
        tangents.with_args(|tangents| {
            let run = directions(rule, args, core::slice::from_ref(tangents))?;
            let tangent = engine::shaped(&run.output, &run.output_tangents);
            Ok((run.output, tangent))
        })
    })
}

/// [`jvp`] for functions that update arguments in place (`&mut [f64]` parameters):
/// `args` is left as the function leaves it, and `tangents` holds the tangents of
/// the arguments after the call (unchanged for arguments the function only reads).
///
/// # Errors
///
/// [`Error::TangentShape`] when a tangent does not have its argument's degrees of
/// freedom; `args` and `tangents` are then unchanged.
///
/// ```
/// use lifted::autodiff;
///
/// #[autodiff(forward)]
/// fn scale(y: &mut [f64], a: f64) {
///     for v in y.iter_mut() {
///         *v *= a;
///     }
/// }
///
/// # fn main() -> Result<(), lifted::Error> {
/// let mut args = (vec![1.0, 2.0], 3.0);
/// let mut tangents = (vec![0.0, 0.0], 1.0); // along a
/// lifted::jvp_mut(scale::Rule, &mut args, &mut tangents)?;
/// assert_eq!(args.0, [3.0, 6.0]); // y ← a·y
/// assert_eq!(tangents.0, [1.0, 2.0]); // ∂(a·y)/∂a = y
/// # Ok(())
/// # }
/// ```
pub fn jvp_mut<R>(
    rule: R,
    args: &mut R::Args,
    tangents: &mut R::Args,
) -> Result<(R::Output, R::Output), Error>
where
    R: FRule,
    R::Float: ChunkScalar,
    R::Args: Arguments<R::Float>,
{
    let run = directions(rule, args, core::slice::from_ref(tangents))?;
    let tangent = engine::shaped(&run.output, &run.output_tangents);
    *args = run.args;
    tangents.unflatten(&mut run.arg_tangents.iter().copied());
    Ok((run.output, tangent))
}

/// The result and its derivatives along each of `tangents` (each shaped like the
/// arguments, as for [`jvp`]), computed [`FRule::CHUNK`] directions at a time.
/// Returns one tangent of the result per direction, in order. Bit for bit the same
/// as one [`jvp`] per direction.
///
/// Use [`Driver::chunk`] for another width, [`jvp_chunk`] for a width fixed at
/// compile time.
///
/// # Errors
///
/// [`Error::TangentShape`] naming the first direction and argument whose shape is
/// wrong; [`Error::UnsupportedWidth`] for a rule whose `CHUNK` is 0.
///
/// ```
/// use lifted::autodiff;
///
/// #[autodiff(forward, chunk = 2)]
/// fn f(x: &[f64]) -> Vec<f64> {
///     vec![x[0] * x[1], x[0] + x[1]]
/// }
///
/// # fn main() -> Result<(), lifted::Error> {
/// let x = vec![2.0, 3.0];
/// let dirs = [(vec![1.0, 0.0],), (vec![0.0, 1.0],), (vec![1.0, 1.0],)];
/// let (y, dys) = lifted::jvp_many(f::Rule, &x, &dirs)?;
/// assert_eq!(y, [6.0, 5.0]);
/// assert_eq!(dys, [vec![3.0, 1.0], vec![2.0, 1.0], vec![5.0, 2.0]]);
/// # Ok(())
/// # }
/// ```
pub fn jvp_many<R>(
    rule: R,
    args: impl IntoArgs<R::Args>,
    tangents: &[R::Args],
) -> Result<(R::Output, Vec<R::Output>), Error>
where
    R: FRule,
    R::Float: ChunkScalar,
    R::Args: Arguments<R::Float>,
{
    Driver::new(rule).jvp_many(args, tangents)
}

/// [`jvp_many`] with exactly `N` directions, in one pass of width `N` (any `N`, fixed
/// at compile time).
///
/// # Errors
///
/// [`Error::TangentShape`] as for [`jvp_many`].
///
/// ```
/// use lifted::autodiff;
///
/// #[autodiff(forward)]
/// fn f(x: f64, y: f64) -> f64 {
///     x * y.sin()
/// }
///
/// # fn main() -> Result<(), lifted::Error> {
/// let (value, [dx, dy, diag]) =
///     lifted::jvp_chunk(f::Rule, (2.0, 0.5), &[(1.0, 0.0), (0.0, 1.0), (1.0, 1.0)])?;
/// assert_eq!(value, 2.0 * 0.5f64.sin());
/// assert_eq!(dx, 0.5f64.sin());
/// assert_eq!(dy, 2.0 * 0.5f64.cos());
/// assert_eq!(diag, 0.5f64.sin() + 2.0 * 0.5f64.cos());
/// # Ok(())
/// # }
/// ```
pub fn jvp_chunk<R, const N: usize>(
    rule: R,
    args: impl IntoArgs<R::Args>,
    tangents: &[R::Args; N],
) -> Result<(R::Output, [R::Output; N]), Error>
where
    R: FRule,
    R::Float: ChunkScalar,
    R::Args: Arguments<R::Float>,
    NDual<R::Float, N>: Reading<R::Float>,
{
    args.with_args(|args| {
        let flat = engine::flatten_directions(R::NAME, args, tangents)?;
        let run = engine::directions_at::<R, NDual<R::Float, N>, N>(rule, args, &flat, N)?;
        let m = run.output_dim;
        let out = core::array::from_fn(|d| {
            engine::shaped(&run.output, &run.output_tangents[d * m..(d + 1) * m])
        });
        Ok((run.output, out))
    })
}

/// The result of a function of one scalar and its derivative, at `x`. The result may
/// be anything with degrees of freedom (a scalar, a `Vec`, a tuple); its derivative
/// has the same type.
///
/// # Errors
///
/// None for rules of the required shape (which the signature enforces); the
/// `Result` keeps the drivers uniform.
///
/// ```
/// use lifted::autodiff;
///
/// #[autodiff(forward)]
/// fn f(x: f64) -> f64 {
///     x.sin() * x
/// }
///
/// # fn main() -> Result<(), lifted::Error> {
/// let (y, dy) = lifted::derivative(f::Rule, 0.5)?;
/// assert_eq!(y, 0.5f64.sin() * 0.5);
/// assert_eq!(dy, 0.5f64.cos() * 0.5 + 0.5f64.sin());
/// # Ok(())
/// # }
/// ```
pub fn derivative<F, R>(rule: R, x: F) -> Result<(R::Output, R::Output), Error>
where
    F: ChunkScalar,
    R: FRule<Float = F, Args = (F,)>,
{
    jvp(rule, &(x,), &(engine::one::<F>(),))
}

/// Runs `rule` along `tangents` in one pass of width 1 (after checking their shapes).
fn directions<R>(rule: R, args: &R::Args, tangents: &[R::Args]) -> Result<Directions<R>, Error>
where
    R: FRule,
    R::Float: ChunkScalar,
    R::Args: Arguments<R::Float>,
{
    let flat = engine::flatten_directions(R::NAME, args, tangents)?;
    Chunk::<1>.run::<R, _>(DirectionsPass {
        rule,
        args,
        tangents: &flat,
        count: tangents.len(),
    })?
}
