//! Second derivatives, forward over forward: [`hessian`], [`hvp`] and
//! [`hessian_diag`] (with [`Driver`] methods for a chosen width or argument selection).
//!
//! Each runs the rule at a nested reading `NDual<NDual<F, M>, N>`: the inner lanes
//! carry one set of directions, the outer lanes another, and the outer partials of the
//! inner partials are the second derivatives.

use num_traits::Zero;

use super::Error;
use super::args::{Arguments, IntoArgs};
use super::driver::Driver;
use super::engine::{self, Columns, dim_of, first_pass};
use super::matrix::Jacobian;
use super::width::{ChunkScalar, PassWidth, dispatch_nested, nested_width};
use crate::instantiate::AtNestedWidth;
use crate::{FRule, NDual, Param, Reading};

/// What [`hessian`] returns: the value, the gradient and the Hessian (symmetric, with
/// the layout of a [`Jacobian`]).
pub type ValueGradientHessian<F> = (F, Vec<F>, Jacobian<F>);

/// The value, gradient and Hessian of a rule whose result is one scalar.
///
/// Columns (and rows) are the scalar degrees of freedom of the arguments, flattened as
/// for [`gradient`](crate::gradient). The Hessian is computed in `N × N` blocks, one
/// pass of `NDual<NDual<F, N>, N>` per block on or above the diagonal (`N` is the
/// rule's chunk, rounded down to 1, 2, 4 or 8), and mirrored below it, so it is
/// exactly symmetric.
///
/// # Errors
///
/// [`Error::NotScalarOutput`] when the result is not one scalar;
/// [`Error::UnsupportedWidth`] for a chunk of 0.
///
/// ```
/// use lifted::autodiff;
///
/// #[autodiff(forward)]
/// fn f(x: &[f64]) -> f64 {
///     x[0] * x[0] * x[1] + x[1].sin()
/// }
///
/// # fn main() -> Result<(), lifted::Error> {
/// let (value, grad, h) = lifted::hessian(f::Rule, &[2.0, 0.5][..])?;
/// assert_eq!(value, f(&[2.0, 0.5]));
/// assert_eq!(grad, [2.0 * 2.0 * 0.5, 4.0 + 0.5_f64.cos()]);
/// assert_eq!(h[(0, 0)], 2.0 * 0.5);
/// assert_eq!(h[(0, 1)], 2.0 * 2.0);
/// assert_eq!(h[(1, 0)], h[(0, 1)]);
/// assert_eq!(h[(1, 1)], -(0.5_f64.sin()));
/// # Ok(())
/// # }
/// ```
pub fn hessian<R>(
    rule: R,
    args: impl IntoArgs<R::Args>,
) -> Result<ValueGradientHessian<R::Float>, Error>
where
    R: FRule,
    R::Float: ChunkScalar,
    R::Args: Arguments<R::Float>,
{
    Driver::new(rule).hessian(args)
}

/// The value and the Hessian-vector product `H·v` of a rule whose result is one scalar,
/// without forming `H`: `⌈n / N⌉` passes of `NDual<NDual<F, 1>, N>`, the inner lane
/// carrying `v`. `direction` has the shape of the arguments (as a [`jvp`](crate::jvp)
/// tangent).
///
/// # Errors
///
/// [`Error::TangentShape`] when `direction` does not have the arguments' shape;
/// otherwise as [`hessian`].
///
/// ```
/// use lifted::autodiff;
///
/// #[autodiff(forward)]
/// fn f(x: &[f64]) -> f64 {
///     x[0] * x[0] * x[1]
/// }
///
/// # fn main() -> Result<(), lifted::Error> {
/// let x = vec![3.0, 2.0];
/// let (_, hv) = lifted::hvp(f::Rule, &x, &[1.0, 0.0][..])?;
/// assert_eq!(hv, [2.0 * 2.0, 2.0 * 3.0]); // the first column of H
/// # Ok(())
/// # }
/// ```
pub fn hvp<R>(
    rule: R,
    args: impl IntoArgs<R::Args>,
    direction: impl IntoArgs<R::Args>,
) -> Result<(R::Float, Vec<R::Float>), Error>
where
    R: FRule,
    R::Float: ChunkScalar,
    R::Args: Arguments<R::Float>,
{
    Driver::new(rule).hvp(args, direction)
}

/// The result and the pure second derivatives `∂²yᵢ/∂xⱼ²` of every result degree of
/// freedom `i` along every input `j`, as a matrix with the layout of a
/// [`Jacobian`] (row `i`, column `j`). No cross terms are computed: one pass of
/// `NDual<NDual<F, 1>, 1>` per input, whatever the result's size.
///
/// # Errors
///
/// As [`hessian`] (any result shape is allowed).
///
/// ```
/// use lifted::autodiff;
///
/// #[autodiff(forward)]
/// fn f(x: &[f64]) -> (f64, f64) {
///     (x[0].powi(3) * x[1], x[1].exp())
/// }
///
/// # fn main() -> Result<(), lifted::Error> {
/// let (_, d2) = lifted::hessian_diag(f::Rule, &[2.0, 0.5][..])?;
/// assert_eq!(d2.row(0), Some(&[6.0 * 2.0 * 0.5, 0.0][..]));
/// assert_eq!(d2.row(1), Some(&[0.0, 0.5_f64.exp()][..]));
/// # Ok(())
/// # }
/// ```
pub fn hessian_diag<R>(
    rule: R,
    args: impl IntoArgs<R::Args>,
) -> Result<(R::Output, Jacobian<R::Float>), Error>
where
    R: FRule,
    R::Float: ChunkScalar,
    R::Args: Arguments<R::Float>,
{
    Driver::new(rule).hessian_diag(args)
}

impl<R, W> Driver<R, W>
where
    R: FRule,
    R::Float: ChunkScalar,
    R::Args: Arguments<R::Float>,
    W: PassWidth,
{
    /// The value, gradient and Hessian; see [`hessian`](crate::hessian).
    pub fn hessian(
        &self,
        args: impl IntoArgs<R::Args>,
    ) -> Result<ValueGradientHessian<R::Float>, Error> {
        args.with_args(|args| {
            let columns = self.columns(args)?;
            let width = nested_width(self.width.checked::<R>()?, columns.total());
            dispatch_nested(
                R::NAME,
                width,
                HessianPass {
                    rule: self.rule,
                    args,
                    columns: &columns,
                },
            )?
        })
    }

    /// The value and `H·v`; see [`hvp`](crate::hvp).
    pub fn hvp(
        &self,
        args: impl IntoArgs<R::Args>,
        direction: impl IntoArgs<R::Args>,
    ) -> Result<(R::Float, Vec<R::Float>), Error> {
        args.with_args(|args| {
            direction.with_args(|direction| {
                engine::check_shape(R::NAME, 0, args, direction)?;
                let mut v = Vec::with_capacity(args.dim());
                direction.flatten(&mut v);
                let columns = self.columns(args)?;
                let width = nested_width(self.width.checked::<R>()?, columns.total());
                dispatch_nested(
                    R::NAME,
                    width,
                    HvpPass {
                        rule: self.rule,
                        args,
                        columns: &columns,
                        direction: &v,
                    },
                )?
            })
        })
    }

    /// The result and its pure second derivatives; see
    /// [`hessian_diag`](crate::hessian_diag).
    pub fn hessian_diag(
        &self,
        args: impl IntoArgs<R::Args>,
    ) -> Result<(R::Output, Jacobian<R::Float>), Error> {
        args.with_args(|args| {
            let columns = self.columns(args)?;
            self.width.checked::<R>()?;
            dispatch_nested(
                R::NAME,
                1,
                DiagPass {
                    rule: self.rule,
                    args,
                    columns: &columns,
                },
            )?
        })
    }
}

/// Kronecker's delta as a float: one when `column` is `Some(c)`.
fn seed<F: ChunkScalar>(column: Option<usize>, c: usize) -> F {
    if column == Some(c) {
        F::one()
    } else {
        F::zero()
    }
}

/// The single scalar of a result, or [`Error::NotScalarOutput`].
fn scalar<F: ChunkScalar, P: Param<F>, D: Reading<F>>(
    function: &'static str,
    out: &P::Store<D>,
) -> Result<D, Error> {
    let mut dim = 0;
    let mut first = None;
    P::visit(out, &mut |d: D| {
        first.get_or_insert(d);
        dim += 1;
    });
    match first {
        Some(d) if dim == 1 => Ok(d),
        _ => Err(Error::NotScalarOutput { function, dim }),
    }
}

struct HessianPass<'a, R: FRule> {
    rule: R,
    args: &'a R::Args,
    columns: &'a Columns,
}

impl<R: FRule> AtNestedWidth<R::Float> for HessianPass<'_, R>
where
    R::Float: ChunkScalar,
{
    type Output = Result<ValueGradientHessian<R::Float>, Error>;
    fn run<const N: usize>(self) -> Self::Output
    where
        NDual<NDual<R::Float, 1>, N>: Reading<R::Float>,
        NDual<NDual<R::Float, N>, N>: Reading<R::Float>,
    {
        let n = self.columns.total();
        let zero = R::Float::zero();
        let mut grad = vec![zero; n];
        let mut h = vec![zero; n * n];
        let mut value = None;
        // Blocks (inner chunk a0, outer chunk b0) with b0 >= a0; at least one pass.
        let mut a0 = 0;
        loop {
            let mut b0 = a0;
            loop {
                let mut dof = 0;
                let mut store = self.args.lift(&mut |x| {
                    let c = self.columns.column(dof);
                    dof += 1;
                    let inner = NDual::new(x, core::array::from_fn(|k| seed(c, a0 + k)));
                    NDual::new(
                        inner,
                        core::array::from_fn(|l| NDual::constant(seed(c, b0 + l))),
                    )
                });
                let out = self.rule.frule::<NDual<NDual<R::Float, N>, N>>(&mut store);
                let d = scalar::<R::Float, R::Output, _>(R::NAME, &out)?;
                value.get_or_insert(d.value().value());
                for (k, g) in grad.iter_mut().skip(a0).take(N).enumerate() {
                    *g = d.value().partial(k);
                }
                for l in 0..N.min(n.saturating_sub(b0)) {
                    for k in 0..N.min(n.saturating_sub(a0)) {
                        let (i, j) = (b0 + l, a0 + k);
                        let v = d.partial(l).partial(k);
                        h[i * n + j] = v;
                        h[j * n + i] = v;
                    }
                }
                b0 += N;
                if b0 >= n {
                    break;
                }
            }
            a0 += N;
            if a0 >= n {
                break;
            }
        }
        let value = value.unwrap_or(zero);
        Ok((value, grad, Jacobian::new(n, n, h)))
    }
}

struct HvpPass<'a, R: FRule> {
    rule: R,
    args: &'a R::Args,
    columns: &'a Columns,
    direction: &'a [R::Float],
}

impl<R: FRule> AtNestedWidth<R::Float> for HvpPass<'_, R>
where
    R::Float: ChunkScalar,
{
    type Output = Result<(R::Float, Vec<R::Float>), Error>;
    fn run<const N: usize>(self) -> Self::Output
    where
        NDual<NDual<R::Float, 1>, N>: Reading<R::Float>,
        NDual<NDual<R::Float, N>, N>: Reading<R::Float>,
    {
        let n = self.columns.total();
        let zero = R::Float::zero();
        let mut hv = vec![zero; n];
        let mut value = None;
        let mut first = 0;
        loop {
            let mut dof = 0;
            let mut store = self.args.lift(&mut |x| {
                let c = self.columns.column(dof);
                let v = self.direction.get(dof).copied().unwrap_or(zero);
                dof += 1;
                NDual::new(
                    NDual::new(x, [v]),
                    core::array::from_fn(|l| NDual::constant(seed(c, first + l))),
                )
            });
            let out = self.rule.frule::<NDual<NDual<R::Float, 1>, N>>(&mut store);
            let d = scalar::<R::Float, R::Output, _>(R::NAME, &out)?;
            value.get_or_insert(d.value().value());
            for (l, h) in hv.iter_mut().skip(first).take(N).enumerate() {
                *h = d.partial(l).partial(0);
            }
            first += N;
            if first >= n {
                break;
            }
        }
        Ok((value.unwrap_or(zero), hv))
    }
}

struct DiagPass<'a, R: FRule> {
    rule: R,
    args: &'a R::Args,
    columns: &'a Columns,
}

impl<R: FRule> AtNestedWidth<R::Float> for DiagPass<'_, R>
where
    R::Float: ChunkScalar,
{
    type Output = Result<(R::Output, Jacobian<R::Float>), Error>;
    fn run<const N: usize>(self) -> Self::Output
    where
        NDual<NDual<R::Float, 1>, N>: Reading<R::Float>,
        NDual<NDual<R::Float, N>, N>: Reading<R::Float>,
    {
        let n = self.columns.total();
        let zero = R::Float::zero();
        let mut rows = None;
        let mut data = Vec::new();
        let mut output = None;
        for c in 0..n.max(1) {
            let mut dof = 0;
            let mut store = self.args.lift(&mut |x| {
                let s = seed(self.columns.column(dof), c);
                dof += 1;
                NDual::new(
                    NDual::new(x, [s]),
                    core::array::from_fn(|_| NDual::constant(s)),
                )
            });
            let out = self.rule.frule::<NDual<NDual<R::Float, 1>, N>>(&mut store);
            let m = dim_of::<R::Float, R::Output, NDual<NDual<R::Float, 1>, N>>(&out);
            if first_pass(R::NAME, &mut rows, m)? {
                data = vec![zero; m * n];
                output = Some(R::Output::primal_of(&out));
            }
            if c < n {
                let mut i = 0;
                R::Output::visit(&out, &mut |d: NDual<NDual<R::Float, 1>, N>| {
                    data[i * n + c] = d.partial(0).partial(0);
                    i += 1;
                });
            }
        }
        let output = match output {
            Some(o) => o,
            None => self.rule.primal(&mut self.args.clone()),
        };
        Ok((output, Jacobian::new(rows.unwrap_or(0), n, data)))
    }
}
