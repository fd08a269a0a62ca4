//! Running a rule at a chunk width chosen at run time, through the dispatch the
//! drivers use ([`ChunkScalar`](crate::drivers::ChunkScalar)).

use super::alloc::counting;
use crate::instantiate::{AtWidth, ColumnReading, WidthTable};
use crate::{FRule, Param};

use crate::drivers::ChunkScalar;

/// One run of a rule, flattened: the primals after the run and the tangents, each
/// degree of freedom's N partials contiguous (`value j, lane k` at `j * N + k`).
pub(crate) struct Run<R: FRule> {
    /// The result's primal.
    pub output: R::Output,
    /// The arguments' primals after the run.
    pub args: R::Args,
    /// The result's tangents.
    pub output_tangent: Vec<R::Float>,
    /// The arguments' tangents after the run.
    pub args_tangent: Vec<R::Float>,
    /// Allocations during the rule call (not the lifting), when counted.
    pub allocations: Option<u64>,
}

/// Runs `rule` at width `width`, the arguments' tangents taken from `tangents`
/// (`N` per degree of freedom, in `Param` order; missing ones are zero).
pub(crate) fn run_at_width<R>(
    rule: R,
    args: &R::Args,
    tangents: &[R::Float],
    width: usize,
) -> Option<Run<R>>
where
    R: FRule,
    R::Float: ChunkScalar,
{
    <R::Float as WidthTable>::at_width(
        width,
        WidthRun {
            rule,
            args,
            tangents,
        },
    )
    .ok()
}

struct WidthRun<'a, R: FRule> {
    rule: R,
    args: &'a R::Args,
    tangents: &'a [R::Float],
}

impl<R: FRule> AtWidth<R::Float> for WidthRun<'_, R>
where
    R::Float: ChunkScalar,
{
    type Output = Run<R>;

    fn run<const N: usize, D: ColumnReading<R::Float, N>>(self) -> Run<R> {
        let zero = <R::Float as num_traits::Zero>::zero();
        let mut dof = 0;
        let mut store = self.args.lift(&mut |value| {
            let base = dof * N;
            dof += 1;
            D::with_partials(
                value,
                core::array::from_fn(|k| self.tangents.get(base + k).copied().unwrap_or(zero)),
            )
        });
        let rule = self.rule;
        let (out, allocations) = counting(|| rule.frule::<D>(&mut store));
        Run {
            output: R::Output::primal_of(&out),
            args: R::Args::primal_of(&store),
            output_tangent: partials_of::<R::Float, R::Output, D, N>(&out),
            args_tangent: partials_of::<R::Float, R::Args, D, N>(&store),
            allocations,
        }
    }
}

fn partials_of<F: ChunkScalar, P: Param<F>, D: ColumnReading<F, N>, const N: usize>(
    store: &P::Store<D>,
) -> Vec<F> {
    let mut out = Vec::new();
    P::visit(store, &mut |d: D| {
        let start = out.len();
        out.resize(start + N, <F as num_traits::Zero>::zero());
        d.lanes_into(&mut out[start..]);
    });
    out
}

/// Runs `rule` at the primal reading `D = Float`.
pub(crate) fn run_primal_reading<R>(rule: R, args: &R::Args) -> (R::Output, R::Args, Option<u64>)
where
    R: FRule,
    R::Float: ChunkScalar,
{
    let mut store = args.lift::<R::Float>(&mut |x| x);
    let (out, allocations) = counting(|| rule.frule::<R::Float>(&mut store));
    (
        R::Output::primal_of(&out),
        R::Args::primal_of(&store),
        allocations,
    )
}
