//! Derivative towers along one direction in one pass: [`derivatives_1d`], Taylor mode.

use num_traits::Zero;

use super::Error;
use super::args::{Arguments, IntoArgs};
use super::engine;
use super::width::{ChunkScalar, MAX_TAYLOR_ORDER, WidthTable};
use crate::instantiate::AtOrder;
use crate::{FRule, Param, Reading, Taylor};

/// The derivatives `[f, f′, f″, …, f⁽ᵒʳᵈᵉʳ⁾]` of a scalar-valued function along one
/// direction: the derivatives in `t` of `f(args + t·direction)` at `t = 0`, from one
/// pass of the rule at [`Taylor<F, order>`](crate::Taylor).
///
/// `direction` has the type and shape of the arguments, as the tangent of
/// [`jvp`](crate::jvp) does (anything of its type in place of a `#[constant]` or integer
/// argument). Along a coordinate axis this is the tower `∂ⁿf/∂x_iⁿ` the high-order
/// PDE residuals need (`u_xxx` of KdV, `u_xxxx` of Kuramoto–Sivashinsky). The cost is
/// one pass whose every multiplication or transcendental costs O(order²), where nesting
/// `NDual`s `order` deep carries 2^order components.
///
/// The value (element 0) is the primal function's bit for bit. `order = 0` returns the
/// value alone.
///
/// # Errors
///
/// [`Error::TangentShape`] when `direction` does not have the arguments' shape;
/// [`Error::UnsupportedOrder`] when `order > MAX_TAYLOR_ORDER`;
/// [`Error::NotScalarOutput`] when the result does not have exactly one degree of
/// freedom.
///
/// ```
/// use lifted::autodiff;
///
/// #[autodiff(forward)]
/// fn u(x: f64) -> f64 {
///     x.sin() * (-x * x).exp()
/// }
///
/// # fn main() -> Result<(), lifted::Error> {
/// let d = lifted::derivatives_1d(u::Rule, 0.3, 1.0, 4)?;
/// assert_eq!(d.len(), 5);
/// assert_eq!(d[0], u(0.3)); // the primal, bit for bit
/// // u' = (cos x − 2x sin x) e^{−x²}
/// let du = (0.3f64.cos() - 0.6 * 0.3f64.sin()) * (-0.09f64).exp();
/// assert!((d[1] - du).abs() < 1e-15);
/// # Ok(())
/// # }
/// ```
pub fn derivatives_1d<R>(
    rule: R,
    args: impl IntoArgs<R::Args>,
    direction: impl IntoArgs<R::Args>,
    order: usize,
) -> Result<Vec<R::Float>, Error>
where
    R: FRule,
    R::Float: ChunkScalar,
    R::Args: Arguments<R::Float>,
{
    args.with_args(|args| {
        direction.with_args(|direction| {
            engine::check_shape(R::NAME, 0, args, direction)?;
            if order > MAX_TAYLOR_ORDER {
                return Err(Error::UnsupportedOrder {
                    function: R::NAME,
                    requested: order,
                    max: MAX_TAYLOR_ORDER,
                });
            }
            let mut dir = Vec::with_capacity(args.dim());
            direction.flatten(&mut dir);
            let pass = TowerPass {
                rule,
                args,
                direction: &dir,
            };
            let mut tower =
                <R::Float as WidthTable>::at_order(order.max(1), pass).map_err(|_| {
                    Error::UnsupportedOrder {
                        function: R::NAME,
                        requested: order,
                        max: MAX_TAYLOR_ORDER,
                    }
                })??;
            tower.truncate(order + 1);
            Ok(tower)
        })
    })
}

/// One pass of `rule` at `Taylor<F, K>`, the arguments seeded along `direction`.
struct TowerPass<'a, R: FRule> {
    rule: R,
    args: &'a R::Args,
    direction: &'a [R::Float],
}

impl<R> AtOrder<R::Float> for TowerPass<'_, R>
where
    R: FRule,
    R::Float: ChunkScalar,
{
    type Output = Result<Vec<R::Float>, Error>;

    fn run<const K: usize>(self) -> Self::Output
    where
        Taylor<R::Float, K>: Reading<R::Float>,
    {
        let zero = R::Float::zero();
        let mut dof = 0;
        let mut store = self.args.lift(&mut |x| {
            let d = self.direction.get(dof).copied().unwrap_or(zero);
            dof += 1;
            Taylor::<R::Float, K>::variable(x, d)
        });
        let out = self.rule.frule::<Taylor<R::Float, K>>(&mut store);
        let mut dim = 0;
        let mut tower = Vec::new();
        R::Output::visit(&out, &mut |y: Taylor<R::Float, K>| {
            if dim == 0 {
                tower = (0..=K).map(|j| y.derivative(j)).collect();
            }
            dim += 1;
        });
        if dim == 1 {
            Ok(tower)
        } else {
            Err(Error::NotScalarOutput {
                function: R::NAME,
                dim,
            })
        }
    }
}
