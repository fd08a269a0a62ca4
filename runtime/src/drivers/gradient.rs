//! Gradients of scalar results: [`gradient`], [`gradient_with_chunk`],
//! [`gradient_into`], [`gradient_wrt`] and [`gradient_shaped`].

use super::Error;
use super::args::{Arguments, IntoArgs};
use super::driver::Driver;
use super::width::ChunkScalar;
use crate::FRule;

/// The value and gradient of a rule whose result is one scalar.
///
/// The gradient runs over every scalar degree of freedom of every argument, flattened
/// in argument order (a `Vec` argument's elements in order; `#[constant]` and integer
/// arguments contribute nothing). It is computed in passes of N directions: a function
/// of `n` inputs runs `⌈n / N⌉` times, N the rule's `chunk`. Up to 16 inputs the
/// passes are dense ([`NDual`](crate::NDual)); beyond, they use the zero-skipping
/// reading ([`ZDual`](crate::ZDual)), each costing about one primal run where the
/// function's work is mostly away from the pass's seeded inputs.
/// [`Driver::plan`](crate::drivers::Driver::plan) states the choice;
/// [`Driver`](crate::drivers::Driver) sets the width or the reading.
///
/// # Errors
///
/// [`Error::NotScalarOutput`] when the result does not have exactly one degree of
/// freedom; [`Error::UnsupportedWidth`] for a hand-written
/// rule whose `CHUNK` is not instantiated (see [`FRule::at_chunk`]).
///
/// ```
/// use lifted::autodiff;
///
/// #[autodiff(forward, chunk = 8)]
/// pub fn rosenbrock(x: &[f64]) -> f64 {
///     let mut s = 0.0;
///     for i in 0..x.len() - 1 {
///         s += (1.0 - x[i]).powi(2) + 100.0 * (x[i + 1] - x[i] * x[i]).powi(2);
///     }
///     s
/// }
///
/// # fn main() -> Result<(), lifted::Error> {
/// let x = vec![1.0; 20];
/// let (value, grad) = lifted::gradient(rosenbrock::Rule, &x)?;
/// assert_eq!(value, 0.0); // the minimum…
/// assert!(grad.iter().all(|&g| g == 0.0)); // …is stationary
/// # Ok(())
/// # }
/// ```
pub fn gradient<R>(
    rule: R,
    args: impl IntoArgs<R::Args>,
) -> Result<(R::Float, Vec<R::Float>), Error>
where
    R: FRule,
    R::Float: ChunkScalar,
    R::Args: Arguments<R::Float>,
{
    Driver::new(rule).gradient(args)
}

/// The value and the gradient of a rule whose result is one scalar, in the shape of
/// its arguments: a tuple of the argument types, each holding the derivatives with
/// respect to its own degrees of freedom (a `Vec` the gradient of its elements, a
/// `#[derive(Lift)]` struct a struct of its fields' gradients), as JAX's `grad`
/// returns a pytree. `#[constant]` and integer arguments come back as they were
/// (they have no degrees of freedom). [`gradient`] gives the same numbers flat, in
/// the same order.
///
/// # Errors
///
/// As [`gradient`].
///
/// ```
/// use lifted::autodiff;
///
/// #[derive(Clone, Debug, lifted::Lift)]
/// pub struct Line {
///     pub slope: f64,
///     pub offsets: Vec<f64>,
/// }
///
/// /// Squared error of the lines `slope · x + offsets[k]` at the points `(x, y)`.
/// #[autodiff(forward)]
/// pub fn loss(line: &Line, x: f64, y: f64) -> f64 {
///     line.offsets.iter().map(|&b| (line.slope * x + b - y).powi(2)).sum()
/// }
///
/// # fn main() -> Result<(), lifted::Error> {
/// let line = Line { slope: 2.0, offsets: vec![0.5, -1.0] };
/// let (value, (d_line, d_x, d_y)) = lifted::gradient_shaped(loss::Rule, (line, 1.0, 2.0))?;
/// assert_eq!(value, 0.25 + 1.0);
/// // ∂/∂slope = Σ 2 r x, ∂/∂offsets[k] = 2 r_k, with r = (0.5, −1).
/// assert_eq!(d_line.slope, 2.0 * 0.5 - 2.0);
/// assert_eq!(d_line.offsets, [1.0, -2.0]);
/// assert_eq!((d_x, d_y), (2.0 * (2.0 * 0.5 - 2.0), -(2.0 * 0.5 - 2.0)));
/// # Ok(())
/// # }
/// ```
pub fn gradient_shaped<R>(
    rule: R,
    args: impl IntoArgs<R::Args>,
) -> Result<(R::Float, R::Args), Error>
where
    R: FRule,
    R::Float: ChunkScalar,
    R::Args: Arguments<R::Float>,
{
    Driver::new(rule).gradient_shaped(args)
}

/// [`gradient`] in passes of `chunk` directions instead of the rule's width: one of
/// [`DRIVER_WIDTHS`](crate::drivers::DRIVER_WIDTHS), chosen at run time. The result is
/// the same bit for bit at every width.
/// Shorthand for `Driver::new(rule).width(chunk).gradient(args)`, kept because the
/// width is the one setting most callers change; combine settings on
/// [`Driver`](crate::drivers::Driver).
///
/// # Errors
///
/// As [`gradient`]; [`Error::UnsupportedWidth`] when `chunk` is not one of
/// [`DRIVER_WIDTHS`](crate::drivers::DRIVER_WIDTHS).
///
/// ```
/// use lifted::autodiff;
///
/// #[autodiff(forward)]
/// fn f(x: &[f64]) -> f64 {
///     x.iter().map(|v| v.sin()).sum::<f64>()
/// }
///
/// # fn main() -> Result<(), lifted::Error> {
/// let x = vec![0.1, 0.2, 0.3];
/// let (_, narrow) = lifted::gradient_with_chunk(f::Rule, &x, 1)?;
/// let (_, wide) = lifted::gradient_with_chunk(f::Rule, &x, 64)?;
/// assert_eq!(narrow, wide);
/// assert!(lifted::gradient_with_chunk(f::Rule, &x, 0).is_err());
/// assert!(lifted::gradient_with_chunk(f::Rule, &x, 5).is_err()); // `Driver::chunk::<5>()`
/// # Ok(())
/// # }
/// ```
pub fn gradient_with_chunk<R>(
    rule: R,
    args: impl IntoArgs<R::Args>,
    chunk: usize,
) -> Result<(R::Float, Vec<R::Float>), Error>
where
    R: FRule,
    R::Float: ChunkScalar,
    R::Args: Arguments<R::Float>,
{
    Driver::new(rule).width(chunk).gradient(args)
}

/// [`gradient`] written into `grad` (whose length must be the number of inputs);
/// returns the value.
///
/// The gradient buffer is the caller's, so a loop that calls this reuses it. What
/// still allocates on every call: one lifted array per slice argument (`NDualArray`s
/// of `(N + 1)·len` floats, or `Vec<ZDual>`s; reused from pass to pass), whatever the function allocates itself
/// (vectors it builds), and a copy of the arguments when they are not passed as the
/// rule's own `&R::Args`. A function of scalars and fixed-size arrays that allocates
/// nothing itself, called with `&R::Args`, runs without allocating (checked in the
/// tests with a counting allocator). [`Driver::wrt`](crate::drivers::Driver::wrt)
/// adds a small table per call. A [`GradientPlan`](crate::drivers::GradientPlan)
/// keeps the lifted arrays from call to call, for loops over many points.
///
/// # Errors
///
/// [`Error::BufferLength`] when `grad` has the wrong length; otherwise as
/// [`gradient`].
///
/// ```
/// use lifted::autodiff;
///
/// #[autodiff(forward)]
/// fn energy(x: &[f64]) -> f64 {
///     x.iter().map(|v| v * v).sum::<f64>() / 2.0
/// }
///
/// # fn main() -> Result<(), lifted::Error> {
/// let args = (vec![1.0, -2.0, 3.0],);
/// let mut grad = vec![0.0; 3];
/// let value = lifted::gradient_into(energy::Rule, &args, &mut grad)?;
/// assert_eq!(value, 7.0);
/// assert_eq!(grad, [1.0, -2.0, 3.0]);
/// assert!(lifted::gradient_into(energy::Rule, &args, &mut [0.0; 2]).is_err());
/// # Ok(())
/// # }
/// ```
pub fn gradient_into<R>(
    rule: R,
    args: impl IntoArgs<R::Args>,
    grad: &mut [R::Float],
) -> Result<R::Float, Error>
where
    R: FRule,
    R::Float: ChunkScalar,
    R::Args: Arguments<R::Float>,
{
    Driver::new(rule).gradient_into(args, grad)
}

/// [`gradient`] with respect to the arguments numbered in `wrt` only (JAX's
/// `argnums`), the others held constant: the gradient lists their degrees of freedom
/// argument after argument, in the order of `wrt`. Shorthand for
/// `Driver::new(rule).wrt(wrt).gradient(args)`.
///
/// # Errors
///
/// [`Error::ArgumentOutOfRange`] and [`Error::DuplicateArgument`] for a bad
/// selection; otherwise as [`gradient`].
///
/// ```
/// use lifted::autodiff;
///
/// #[autodiff(forward)]
/// fn f(x: f64, y: &[f64], z: f64) -> f64 {
///     x * y[0] + y[1] * z
/// }
///
/// # fn main() -> Result<(), lifted::Error> {
/// let args = (2.0, vec![3.0, 4.0], 5.0);
/// let (_, g) = lifted::gradient_wrt(f::Rule, &args, &[2, 0])?;
/// assert_eq!(g, [4.0, 3.0]); // ∂f/∂z, ∂f/∂x
/// assert!(lifted::gradient_wrt(f::Rule, &args, &[3]).is_err());
/// # Ok(())
/// # }
/// ```
pub fn gradient_wrt<R>(
    rule: R,
    args: impl IntoArgs<R::Args>,
    wrt: &[usize],
) -> Result<(R::Float, Vec<R::Float>), Error>
where
    R: FRule,
    R::Float: ChunkScalar,
    R::Args: Arguments<R::Float>,
{
    Driver::new(rule).wrt(wrt).gradient(args)
}
