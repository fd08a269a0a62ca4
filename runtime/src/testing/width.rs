//! Running a rule at a chunk width chosen at run time: the widths are const generics,
//! instantiated here once per supported width.

use super::alloc::counting;
use crate::{FRule, NDual, Param, Reading, Scalar};

/// The float types [`check_rule`](super::check_rule) can check rules of: `f64` and
/// `f32`, each a reading of itself whose `NDual`s of every supported width are
/// readings too.
///
/// Implemented for exactly the [`Scalar`] types; there is nothing to implement. A rule
/// with a concrete float type satisfies it; generic code over `R: FRule` that calls
/// [`check_rule`](super::check_rule) adds the bound `R::Float: CheckScalar`.
pub trait CheckScalar: Scalar + Reading<Self> {
    /// Calls `visitor.run::<N>()` with `N = width` when `width` is one of
    /// [`SUPPORTED_WIDTHS`](super::SUPPORTED_WIDTHS).
    #[doc(hidden)]
    fn at_width<V: private::AtWidth<Self>>(width: usize, visitor: V) -> Option<V::Output>;
}

pub(crate) mod private {
    use crate::{NDual, Reading, Scalar};

    /// A computation generic over the chunk width (a const generic cannot be chosen at
    /// run time, so [`CheckScalar::at_width`](super::CheckScalar::at_width) matches
    /// the width and calls this).
    pub trait AtWidth<F: Scalar> {
        /// The result.
        type Output;
        /// Runs at width `N`.
        fn run<const N: usize>(self) -> Self::Output
        where
            NDual<F, N>: Reading<F>;
    }
}

macro_rules! check_scalar {
    ($f:ty) => {
        impl CheckScalar for $f {
            fn at_width<V: private::AtWidth<Self>>(width: usize, v: V) -> Option<V::Output> {
                Some(match width {
                    1 => v.run::<1>(),
                    2 => v.run::<2>(),
                    3 => v.run::<3>(),
                    4 => v.run::<4>(),
                    8 => v.run::<8>(),
                    16 => v.run::<16>(),
                    32 => v.run::<32>(),
                    64 => v.run::<64>(),
                    _ => return None,
                })
            }
        }
    };
}

check_scalar!(f64);
check_scalar!(f32);

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
    R::Float: CheckScalar,
{
    <R::Float as CheckScalar>::at_width(
        width,
        WidthRun {
            rule,
            args,
            tangents,
        },
    )
}

struct WidthRun<'a, R: FRule> {
    rule: R,
    args: &'a R::Args,
    tangents: &'a [R::Float],
}

impl<R: FRule> private::AtWidth<R::Float> for WidthRun<'_, R>
where
    R::Float: CheckScalar,
{
    type Output = Run<R>;

    fn run<const N: usize>(self) -> Run<R>
    where
        NDual<R::Float, N>: Reading<R::Float>,
    {
        let zero = <R::Float as num_traits::Zero>::zero();
        let mut dof = 0;
        let mut store = self.args.lift(&mut |value| {
            let base = dof * N;
            dof += 1;
            NDual::<R::Float, N>::new(
                value,
                core::array::from_fn(|k| self.tangents.get(base + k).copied().unwrap_or(zero)),
            )
        });
        let rule = self.rule;
        let (out, allocations) = counting(|| rule.frule::<NDual<R::Float, N>>(&mut store));
        Run {
            output: R::Output::primal_of(&out),
            args: R::Args::primal_of(&store),
            output_tangent: partials_of::<R::Float, R::Output, N>(&out),
            args_tangent: partials_of::<R::Float, R::Args, N>(&store),
            allocations,
        }
    }
}

fn partials_of<F: CheckScalar, P: Param<F>, const N: usize>(store: &P::Store<NDual<F, N>>) -> Vec<F>
where
    NDual<F, N>: Reading<F>,
{
    let mut out = Vec::new();
    P::visit(store, &mut |d: NDual<F, N>| {
        out.extend_from_slice(d.partials())
    });
    out
}

/// Runs `rule` at the primal reading `D = Float`.
pub(crate) fn run_primal_reading<R>(rule: R, args: &R::Args) -> (R::Output, R::Args, Option<u64>)
where
    R: FRule,
    R::Float: CheckScalar,
{
    let mut store = args.lift::<R::Float>(&mut |x| x);
    let (out, allocations) = counting(|| rule.frule::<R::Float>(&mut store));
    (
        R::Output::primal_of(&out),
        R::Args::primal_of(&store),
        allocations,
    )
}
