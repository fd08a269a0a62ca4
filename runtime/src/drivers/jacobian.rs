//! Jacobians: [`jacobian`], [`jacobian_with_chunk`], [`jacobian_wrt`],
//! [`value_and_jacfwd`] and, for functions that write their results to `&mut`
//! arguments, [`jacobian_mut`]; each a [`Driver`] call returning a [`Jacobian`].

use num_traits::Zero;

use super::Error;
use super::args::{Arguments, IntoArgs};
use super::driver::Driver;
use super::engine::{self, ColumnReading, Columns};
use super::matrix::Jacobian;
use super::width::{ChunkScalar, PassWidth};
use crate::instantiate::{AtWidth, ColumnKind};
use crate::{FRule, Param};

/// The result and its Jacobian with respect to every scalar degree of freedom of every
/// argument, computed N columns at a time, the reading and N chosen as for
/// [`gradient`](crate::gradient) (see [`Driver::plan`](crate::drivers::Driver::plan)).
///
/// Rows follow the result's degrees of freedom in `Param` order (a `Vec` result's
/// elements, a tuple's components in turn), columns the arguments' as for
/// [`gradient`](crate::gradient). The Jacobian covers the *result*: for a function
/// that writes to `&mut` arguments, [`jacobian_mut`] gives the Jacobian of what it
/// writes.
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

/// The result, and the Jacobian of the arguments numbered in `of` as the function
/// leaves them — for functions that write their results to `&mut` arguments
/// (`fn residual(u: &[f64], out: &mut [f64])`). Runs the passes of
/// [`jacobian`] (every argument differentiated, the rule's `chunk` columns at a time)
/// and leaves `args` as one call of the function would. Shorthand for
/// `Driver::new(rule).jacobian_mut(args, of)`; use [`Driver::wrt`] to choose the
/// columns.
///
/// Rows are the degrees of freedom of the arguments in `of`, argument after argument
/// in the order of `of`, each as long as the function leaves it; columns as for
/// [`jacobian`].
///
/// # Errors
///
/// [`Error::ArgumentOutOfRange`] and [`Error::DuplicateArgument`] for a bad `of`;
/// [`Error::OutputShapeChanged`] when the selected arguments' lengths differ between
/// passes; otherwise as [`jacobian`].
///
/// ```
/// use lifted::autodiff;
/// use lifted::drivers::Driver;
///
/// #[autodiff(forward, chunk = 4)]
/// fn residual(u: &[f64], out: &mut [f64]) {
///     for i in 0..u.len() {
///         out[i] = u[i] * u[i] - 2.0 * u[(i + 1) % u.len()];
///     }
/// }
///
/// # fn main() -> Result<(), lifted::Error> {
/// let mut args = (vec![1.0, 2.0, 3.0], vec![0.0; 3]);
/// // ∂out/∂u: rows of argument 1, columns of argument 0.
/// let (_, jac) = Driver::new(residual::Rule).wrt(&[0]).jacobian_mut(&mut args, &[1])?;
/// assert_eq!(args.1, [-3.0, -2.0, 7.0]); // written, as one call would
/// assert_eq!(jac.shape(), (3, 3));
/// assert_eq!(jac.row(0), Some(&[2.0, -2.0, 0.0][..]));
/// assert_eq!(jac.row(2), Some(&[-2.0, 0.0, 6.0][..]));
/// # Ok(())
/// # }
/// ```
pub fn jacobian_mut<R>(
    rule: R,
    args: &mut R::Args,
    of: &[usize],
) -> Result<(R::Output, Jacobian<R::Float>), Error>
where
    R: FRule,
    R::Float: ChunkScalar,
    R::Args: Arguments<R::Float>,
{
    Driver::new(rule).jacobian_mut(args, of)
}

impl<R, W> Driver<R, W>
where
    R: FRule,
    R::Float: ChunkScalar,
    R::Args: Arguments<R::Float>,
    W: PassWidth,
{
    /// The result, and the Jacobian of the arguments numbered in `of` as the function
    /// leaves them, over this driver's columns; `args` updated as one call of the
    /// function would. See [`jacobian_mut`](crate::jacobian_mut).
    pub fn jacobian_mut(
        &self,
        args: &mut R::Args,
        of: &[usize],
    ) -> Result<(R::Output, Jacobian<R::Float>), Error> {
        let columns = self.columns(args)?;
        // A bad selection is an error before anything runs.
        Columns::select(R::NAME, args, of)?;
        let plan = self.plan(columns.total());
        let (output, after, jac) = self.width.run::<R, _>(UpdatedPass {
            rule: self.rule,
            args,
            columns: &columns,
            of,
            kind: plan.reading.column_kind(),
        })??;
        *args = after;
        Ok((output, jac))
    }
}

/// The passes of [`Driver::jacobian_mut`] at a width and reading chosen at run time.
struct UpdatedPass<'a, R: FRule> {
    rule: R,
    args: &'a R::Args,
    columns: &'a Columns,
    of: &'a [usize],
    kind: ColumnKind,
}

/// The result's primal, the arguments' primals after the run, and the Jacobian of
/// the arguments numbered in `of`.
type Updated<R> = (
    <R as FRule>::Output,
    <R as FRule>::Args,
    Jacobian<<R as FRule>::Float>,
);

impl<R: FRule> AtWidth<R::Float> for UpdatedPass<'_, R>
where
    R::Float: ChunkScalar,
    R::Args: Arguments<R::Float>,
{
    type Output = Result<Updated<R>, Error>;
    fn kind(&self) -> ColumnKind {
        self.kind
    }
    fn run<const N: usize, D: ColumnReading<R::Float, N>>(self) -> Self::Output {
        updated_jacobian_at::<R, D, N>(self)
    }
}

/// [`UpdatedPass`] at reading `D` of width `N`.
fn updated_jacobian_at<R, D, const N: usize>(pass: UpdatedPass<'_, R>) -> Result<Updated<R>, Error>
where
    R: FRule,
    R::Float: ChunkScalar,
    R::Args: Arguments<R::Float>,
    D: ColumnReading<R::Float, N>,
{
    let cols = pass.columns.total();
    let mut rows = None;
    let mut after = None;
    let mut data = Vec::new();
    let (args, of) = (pass.args, pass.of);
    let output = engine::column_passes::<R, D, N>(
        pass.rule,
        args,
        pass.columns,
        &mut None,
        |first, lanes, _, store| {
            // The selected arguments' rows as the function left them: a `Vec` it
            // pushed to has more.
            let now = R::Args::primal_of(store);
            let selected = Columns::select(R::NAME, &now, of)?;
            if engine::first_pass(R::NAME, &mut rows, selected.total())? {
                data = vec![R::Float::zero(); selected.total() * cols];
                after = Some(now);
            }
            let mut dof = 0;
            R::Args::visit(store, &mut |d: D| {
                if let Some(i) = selected.column(dof) {
                    let row = i * cols + first;
                    d.lanes_into(&mut data[row..row + lanes]);
                }
                dof += 1;
            });
            Ok(())
        },
    )?;
    // The passes run at least once.
    let after = after.unwrap_or_else(|| args.clone());
    Ok((output, after, Jacobian::new(rows.unwrap_or(0), cols, data)))
}
