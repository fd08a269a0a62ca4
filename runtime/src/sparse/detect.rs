//! Sparsity detection: one run of the rule at the [`Pattern`] reading, the outputs'
//! sets read off the tape as the rows of the pattern, in a global or a local mode.

use faer::sparse::SymbolicSparseRowMat;

use super::pattern::Pattern;
use super::trace::{self, Phase, Run};
use crate::drivers::{ChunkScalar, Error, IntoArgs};
use crate::{FRule, Param, Reading};

/// Which sparsity pattern a run at the [`Pattern`] reading finds.
///
/// A pattern is read from one run of the function. What it does at a *decision* — a
/// comparison or branch condition, a value query (`is_nan`) or a cast to an integer on
/// a value that depends on the inputs — decides how far the pattern holds.
///
/// The default is [`Global`](Self::Global): a global pattern holds at every input, so a
/// plan prepared from it can be evaluated anywhere with no check, and a function whose
/// structure depends on its inputs is refused with the place that makes it so rather
/// than given a pattern that is silently wrong elsewhere. `min`, `max`, `clamp`, `abs`
/// and `copysign` are no decisions: their pattern is the union of their operands'.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum PatternMode {
    /// Valid for every input. The first decision on an input-dependent value is
    /// [`Error::UnresolvedDecision`], naming its place.
    #[default]
    Global,
    /// Exact at the point the run is made: decisions are taken there and their
    /// outcomes kept. A plan evaluated at another point first runs a checking pass (one
    /// run at the pattern reading without sets, about the cost of a primal) and returns
    /// [`Error::PatternChanged`] when a decision comes out otherwise.
    Local,
}

/// What a detection run found: the pattern and, for a local one, the decisions.
pub(super) struct Detected {
    pub(super) pattern: SymbolicSparseRowMat<usize>,
    pub(super) decisions: Vec<u64>,
}

/// The number of inputs as tape leaves.
fn leaves(function: &'static str, n: usize) -> Result<u32, Error> {
    u32::try_from(n).map_err(|_| Error::InvalidInput {
        function,
        reason: format!("{n} inputs are more than a sparsity pattern can number (2³² − 1)"),
    })
}

/// A run that could not start: one is active on this thread already.
pub(super) fn busy(function: &'static str) -> Error {
    Error::InvalidInput {
        function,
        reason: "a sparsity pattern is being found on this thread already (the function \
                 asks for a pattern or sparse Jacobian inside itself)"
            .into(),
    }
}

/// The checks every run's record passes: no overflow, no work on other threads.
pub(super) fn recorded_ok(function: &'static str, rec: &trace::Recorded) -> Result<(), Error> {
    if rec.overflow {
        return Err(Error::InvalidInput {
            function,
            reason: "the function computes more values than a sparsity pattern can number \
                     (2³² − 1 unions)"
                .into(),
        });
    }
    if rec.off_thread {
        return Err(Error::InvalidInput {
            function,
            reason: "the function combines input-dependent values on other threads, where \
                     their dependencies cannot be recorded; find the pattern of a \
                     single-threaded version"
                .into(),
        });
    }
    Ok(())
}

pub(super) fn detect<R>(rule: R, args: &R::Args, mode: PatternMode) -> Result<Detected, Error>
where
    R: FRule,
    R::Float: ChunkScalar,
    Pattern<R::Float>: Reading<R::Float>,
{
    let n = args.dim();
    let phase = match mode {
        PatternMode::Global => Phase::Global,
        PatternMode::Local => Phase::Local,
    };
    let run = Run::start(phase, leaves(R::NAME, n)?, Vec::new()).map_err(|_| busy(R::NAME))?;
    let mut index = 0u32;
    let mut store = args.lift(&mut |x| {
        let p = Pattern::input(x, index);
        index += 1;
        p
    });
    let out = rule.frule::<Pattern<R::Float>>(&mut store);
    let mut outputs = Vec::new();
    R::Output::visit(&out, &mut |d: Pattern<R::Float>| outputs.push(d.set()));
    let rec = run.finish();
    recorded_ok(R::NAME, &rec)?;
    if let Some(location) = rec.issue {
        return Err(Error::UnresolvedDecision {
            function: R::NAME,
            location,
        });
    }
    let (row_ptr, col_idx) = trace::rows(&rec.nodes, index, &outputs);
    Ok(Detected {
        pattern: SymbolicSparseRowMat::new_checked(outputs.len(), n, row_ptr, None, col_idx),
        decisions: rec.decisions,
    })
}

/// The sparsity pattern of the Jacobian of `rule`'s result with respect to every scalar
/// degree of freedom of its arguments (rows and columns numbered as
/// [`jacobian`](crate::jacobian)'s), found by one run at the [`Pattern`] reading.
///
/// # Errors
///
/// [`Error::UnresolvedDecision`] for a global pattern of a function that decides on
/// an input-dependent value; [`Error::InvalidInput`] for a function that hands such
/// values to other threads.
///
/// ```
/// use lifted::autodiff;
/// use lifted::sparse::{PatternMode, sparsity};
///
/// #[autodiff(forward)]
/// fn diff(x: &[f64]) -> Vec<f64> {
///     x.windows(2).map(|w| w[1] - w[0]).collect()
/// }
///
/// # fn main() -> Result<(), lifted::Error> {
/// let pattern = sparsity(diff::Rule, &[1.0, 4.0, 9.0], PatternMode::Global)?;
/// assert_eq!((pattern.nrows(), pattern.ncols()), (2, 3));
/// assert_eq!(pattern.row_ptr(), [0, 2, 4]);
/// assert_eq!(pattern.col_idx(), [0, 1, 1, 2]);
/// # Ok(())
/// # }
/// ```
pub fn sparsity<R>(
    rule: R,
    args: impl IntoArgs<R::Args>,
    mode: PatternMode,
) -> Result<SymbolicSparseRowMat<usize>, Error>
where
    R: FRule,
    R::Float: ChunkScalar,
    Pattern<R::Float>: Reading<R::Float>,
{
    args.with_args(|args| detect(rule, args, mode).map(|d| d.pattern))
}
