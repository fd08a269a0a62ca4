//! Values, first derivatives and pure second derivatives in one pass:
//! [`value_jacobian_hessian_diag`], at the [`DiagJet`](crate::DiagJet) reading.
//!
//! What a PDE residual needs at a point: the fields, their Jacobian over the
//! coordinates and the diagonal of each field's Hessian (a Laplacian). Nesting
//! [`value_and_jacfwd`](crate::value_and_jacfwd) and [`hessian_diag`](crate::hessian_diag)
//! runs the rule once for the first derivatives and once per coordinate for the
//! second, each nested pass carrying four components per scalar; a diagonal jet of
//! width N carries `2N + 1` and runs the rule once.

use num_traits::Zero;

use super::Error;
use super::args::{Arguments, IntoArgs};
use super::driver::Driver;
use super::engine::{Columns, dim_of, first_pass};
use super::matrix::Jacobian;
use super::width::{ChunkScalar, MAX_CHUNK, PassWidth, dispatch_jet, jet_width};
use crate::instantiate::AtJetWidth;
use crate::{DiagJet, FRule, Param, Reading};

/// What [`value_jacobian_hessian_diag`] returns: the result, its Jacobian and its pure
/// second derivatives, both matrices with one row per result degree of freedom and
/// one column per differentiated input.
pub type ValueJacobianHessianDiag<O, F> = (O, Jacobian<F>, Jacobian<F>);

/// The result, its Jacobian and its pure second derivatives `∂²yᵢ/∂xⱼ²` with respect
/// to the arguments numbered in `wrt`, in one pass of the rule at
/// [`DiagJet<F, N>`](crate::DiagJet) (columns beyond 16 in further passes of 16): the
/// fused form of [`value_and_jacfwd`](crate::value_and_jacfwd) +
/// [`hessian_diag`](crate::hessian_diag), with the same column order and the same
/// layouts. No cross terms are computed.
///
/// # Errors
///
/// [`Error::ArgumentOutOfRange`] and [`Error::DuplicateArgument`] for a bad selection;
/// [`Error::OutputShapeChanged`] when the result's size differs between passes.
///
/// ```
/// use lifted::autodiff;
///
/// #[autodiff(forward)]
/// fn field(x: f64, y: f64, #[constant] k: f64) -> (f64, f64) {
///     ((k * x).sin() * y, x * x * y.exp())
/// }
///
/// # fn main() -> Result<(), lifted::Error> {
/// let (value, jac, d2) = lifted::value_jacobian_hessian_diag(field::Rule, (0.5, 0.25, 2.0), &[0, 1])?;
/// assert_eq!(value, field(0.5, 0.25, 2.0));
/// assert_eq!(jac[(0, 1)], 1.0_f64.sin()); // ∂(sin(kx) y)/∂y
/// assert_eq!(d2[(0, 0)], -4.0 * 1.0_f64.sin() * 0.25); // ∂²/∂x² of sin(2x) y
/// assert_eq!(d2[(1, 0)], 2.0 * 0.25_f64.exp()); // ∂²/∂x² of x² eʸ
/// # Ok(())
/// # }
/// ```
pub fn value_jacobian_hessian_diag<R>(
    rule: R,
    args: impl IntoArgs<R::Args>,
    wrt: &[usize],
) -> Result<ValueJacobianHessianDiag<R::Output, R::Float>, Error>
where
    R: FRule,
    R::Float: ChunkScalar,
    R::Args: Arguments<R::Float>,
{
    // The widest jet: the driver's width only caps the jet table's.
    Driver::new(rule)
        .chunk::<{ MAX_CHUNK }>()
        .wrt(wrt)
        .value_jacobian_hessian_diag(args)
}

impl<R, W> Driver<R, W>
where
    R: FRule,
    R::Float: ChunkScalar,
    R::Args: Arguments<R::Float>,
    W: PassWidth,
{
    /// The result, its Jacobian and its pure second derivatives in passes of a
    /// diagonal jet as wide as the chunk (rounded down to 1, 2, 3, 4, 8 or 16); see
    /// [`value_jacobian_hessian_diag`](crate::value_jacobian_hessian_diag).
    pub fn value_jacobian_hessian_diag(
        &self,
        args: impl IntoArgs<R::Args>,
    ) -> Result<ValueJacobianHessianDiag<R::Output, R::Float>, Error> {
        args.with_args(|args| {
            let columns = self.columns(args)?;
            let width = jet_width(self.width.checked::<R>()?, columns.total());
            dispatch_jet(
                R::NAME,
                width,
                JetPass {
                    rule: self.rule,
                    args,
                    columns: &columns,
                },
            )?
        })
    }
}

struct JetPass<'a, R: FRule> {
    rule: R,
    args: &'a R::Args,
    columns: &'a Columns,
}

impl<R: FRule> AtJetWidth<R::Float> for JetPass<'_, R>
where
    R::Float: ChunkScalar,
{
    type Output = Result<ValueJacobianHessianDiag<R::Output, R::Float>, Error>;
    fn run<const N: usize>(self) -> Self::Output
    where
        DiagJet<R::Float, N>: Reading<R::Float>,
    {
        let n = self.columns.total();
        let zero = R::Float::zero();
        let mut rows = None;
        let (mut jac, mut d2) = (Vec::new(), Vec::new());
        let mut output = None;
        // At least one pass, so that a rule with no columns still gives its result.
        let mut c0 = 0;
        loop {
            let mut dof = 0;
            let mut store = self.args.lift(&mut |x| {
                let lane = self.columns.column(dof).and_then(|c| c.checked_sub(c0));
                dof += 1;
                match lane {
                    Some(k) if k < N => DiagJet::variable(x, k),
                    _ => DiagJet::constant(x),
                }
            });
            let out = self.rule.frule::<DiagJet<R::Float, N>>(&mut store);
            let m = dim_of::<R::Float, R::Output, DiagJet<R::Float, N>>(&out);
            if first_pass(R::NAME, &mut rows, m)? {
                jac = vec![zero; m * n];
                d2 = vec![zero; m * n];
                output = Some(R::Output::primal_of(&out));
            }
            let lanes = N.min(n.saturating_sub(c0));
            let mut i = 0;
            R::Output::visit(&out, &mut |d: DiagJet<R::Float, N>| {
                for k in 0..lanes {
                    jac[i * n + c0 + k] = d.first()[k];
                    d2[i * n + c0 + k] = d.second()[k];
                }
                i += 1;
            });
            c0 += N;
            if c0 >= n {
                break;
            }
        }
        let m = rows.unwrap_or(0);
        let output = match output {
            Some(o) => o,
            None => self.rule.primal(&mut self.args.clone()),
        };
        Ok((output, Jacobian::new(m, n, jac), Jacobian::new(m, n, d2)))
    }
}
