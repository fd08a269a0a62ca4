//! The prepared sparse Jacobian: detect and color once, then one compressed `NDual`
//! pass per `N` colors, decompressed into CSR.

use faer::sparse::{SparseRowMat, SymbolicSparseRowMat, SymbolicSparseRowMatRef};
use num_traits::Zero;

use super::coloring::{Coloring, ColoringOrder, color_columns};
use super::detect::{Detected, PatternMode, busy, detect, recorded_ok};
use super::pattern::Pattern;
use super::trace::{Phase, Run};
use crate::drivers::engine::{self, ColumnReading, Columns};
use crate::drivers::{Arguments, ChunkScalar, Error, IntoArgs};
use crate::{FRule, NDual, Param, Reading};

/// How [`SparseJacobian::prepare_with`] finds and colors the pattern, and which
/// arguments the Jacobian is taken with respect to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SparseOptions {
    /// Global (the default) or local pattern.
    pub mode: PatternMode,
    /// The vertex order of greedy coloring.
    pub order: ColoringOrder,
    /// The arguments differentiated, numbered from 0, their degrees of freedom the
    /// columns in this order (as [`Driver::wrt`](crate::drivers::Driver::wrt));
    /// `None`, every argument.
    pub wrt: Option<Vec<usize>>,
}

impl SparseOptions {
    /// The defaults: a global pattern, smallest-last coloring.
    pub fn new() -> Self {
        Self::default()
    }

    /// With the given pattern mode.
    pub fn mode(self, mode: PatternMode) -> Self {
        Self { mode, ..self }
    }

    /// With the given coloring order.
    pub fn order(self, order: ColoringOrder) -> Self {
        Self { order, ..self }
    }

    /// With respect to the arguments numbered in `args` alone (counted from 0): the
    /// Jacobian's columns are their degrees of freedom, argument after argument as
    /// listed, and the others are held constant — `∂f/∂u` of `f(u, p)` with
    /// `wrt(&[0])`. A decision on a held argument still counts as one on an input: the
    /// pattern must hold wherever the plan is evaluated.
    pub fn wrt(self, args: &[usize]) -> Self {
        Self {
            wrt: Some(args.to_vec()),
            ..self
        }
    }
}

/// A rule's result and its sparse Jacobian.
pub type WithJacobian<R> = (
    <R as FRule>::Output,
    SparseRowMat<usize, <R as FRule>::Float>,
);

/// The pattern over every degree of freedom cut to the differentiated ones, renumbered
/// as their columns (each row's columns kept increasing).
fn restrict(
    pattern: SymbolicSparseRowMat<usize>,
    columns: &Columns,
) -> SymbolicSparseRowMat<usize> {
    if columns.is_all() {
        return pattern;
    }
    let (rows, row_ptr, col_idx) = (pattern.nrows(), pattern.row_ptr(), pattern.col_idx());
    let mut new_ptr = Vec::with_capacity(rows + 1);
    let mut new_idx = Vec::with_capacity(col_idx.len());
    new_ptr.push(0);
    for i in 0..rows {
        let start = new_idx.len();
        new_idx.extend(
            col_idx[row_ptr[i]..row_ptr[i + 1]]
                .iter()
                .filter_map(|&d| columns.column(d)),
        );
        new_idx[start..].sort_unstable();
        new_ptr.push(new_idx.len());
    }
    SymbolicSparseRowMat::new_checked(rows, columns.total(), new_ptr, None, new_idx)
}

/// The color of the column of each non-zero (colors number at most the columns, which
/// detection keeps within `u32`).
fn nz_colors(col_idx: &[usize], coloring: &Coloring) -> Vec<u32> {
    let colors = coloring.colors();
    col_idx.iter().map(|&j| colors[j] as u32).collect()
}

/// The arguments of `R` lifted to reading `D`.
type Lifted<R, D> = <<R as FRule>::Args as Param<<R as FRule>::Float>>::Store<D>;

/// The result and its sparse Jacobian at one point: [`SparseJacobian::prepare`] and
/// [`SparseJacobian::jacobian`] at once. To evaluate at many points, keep the plan.
///
/// # Errors
///
/// As [`SparseJacobian::prepare`].
pub fn sparse_jacobian<R>(rule: R, args: impl IntoArgs<R::Args>) -> Result<WithJacobian<R>, Error>
where
    R: FRule,
    R::Float: ChunkScalar,
    R::Args: Arguments<R::Float>,
    NDual<R::Float, 8>: Reading<R::Float>,
    Pattern<R::Float>: Reading<R::Float>,
{
    args.with_args(|args| SparseJacobian::prepare(rule, args)?.jacobian(args))
}

/// A prepared sparse Jacobian: the pattern found and colored once, then the Jacobian
/// evaluated at point after point by compressed passes, `N` colors per
/// [`NDual<F, N>`](crate::NDual) pass (8 unless [`with_width`](Self::with_width) says
/// otherwise), decompressed into faer's CSR matrix.
///
/// Rows are the result's degrees of freedom and columns the arguments' (those of
/// [`SparseOptions::wrt`] when it names some), numbered as
/// [`jacobian`](crate::jacobian)'s. The plan keeps the lifted arguments between calls:
/// [`jacobian_into`](Self::jacobian_into) given the rule's argument tuple borrowed
/// (`&args`) allocates nothing but what the function allocates itself in each pass.
///
/// ```
/// use lifted::autodiff;
/// use lifted::sparse::SparseJacobian;
///
/// /// A 1-D reaction–diffusion residual: row i reads u[i-1], u[i], u[i+1].
/// #[autodiff(forward)]
/// fn residual(u: &[f64]) -> Vec<f64> {
///     let n = u.len();
///     (0..n)
///         .map(|i| {
///             let left = if i > 0 { u[i - 1] } else { 0.0 };
///             let right = if i + 1 < n { u[i + 1] } else { 0.0 };
///             left - 2.0 * u[i] + right + u[i] * u[i]
///         })
///         .collect()
/// }
///
/// # fn main() -> Result<(), lifted::Error> {
/// let u: Vec<f64> = (0..100).map(|i| (i as f64 * 0.1).sin()).collect();
/// let mut plan = SparseJacobian::prepare(residual::Rule, &u)?;
/// assert_eq!(plan.colors(), 3); // tridiagonal: three seeds instead of 100
/// let (r, jac) = plan.jacobian(&u)?;
/// assert_eq!(r, residual(&u));
/// assert_eq!(jac.compute_nnz(), 3 * 100 - 2);
/// assert_eq!(jac.get(5, 5), Some(&(-2.0 + 2.0 * u[5])));
/// assert_eq!(jac.get(5, 6), Some(&1.0));
/// assert_eq!(jac.get(5, 7), None); // a structural zero
/// # Ok(())
/// # }
/// ```
pub struct SparseJacobian<R: FRule, const N: usize = 8>
where
    NDual<R::Float, N>: Reading<R::Float>,
    Pattern<R::Float>: Reading<R::Float>,
{
    rule: R,
    mode: PatternMode,
    /// Which degrees of freedom are columns, and which column each is.
    columns: Columns,
    /// Each argument's degrees of freedom, which fix the columns of a `wrt` plan.
    arg_dims: Vec<usize>,
    pattern: SymbolicSparseRowMat<usize>,
    coloring: Coloring,
    /// The color of each non-zero's column, in CSR order: decompression reads it
    /// straight along a row instead of through the column index.
    nz_colors: Vec<u32>,
    /// The outcomes of a local pattern's decisions, in order.
    decisions: Vec<u64>,
    /// The arguments lifted in the last pass, their buffers reused.
    store: Option<Lifted<R, NDual<R::Float, N>>>,
    /// The arguments lifted in the last checking pass.
    check_store: Option<Lifted<R, Pattern<R::Float>>>,
}

impl<R> SparseJacobian<R>
where
    R: FRule,
    R::Float: ChunkScalar,
    R::Args: Arguments<R::Float>,
    NDual<R::Float, 8>: Reading<R::Float>,
    Pattern<R::Float>: Reading<R::Float>,
{
    /// Finds the global sparsity pattern at `args` and colors its columns
    /// (smallest-last): the plan for evaluating the Jacobian anywhere.
    ///
    /// # Errors
    ///
    /// As [`sparsity`](super::sparsity): [`Error::UnresolvedDecision`] names the first
    /// decision on an input-dependent value; [`prepare_with`](Self::prepare_with) a
    /// local pattern then.
    pub fn prepare(rule: R, args: impl IntoArgs<R::Args>) -> Result<Self, Error> {
        Self::prepare_with(rule, args, SparseOptions::default())
    }

    /// [`prepare`](Self::prepare) with a pattern mode and coloring order of choice.
    ///
    /// # Errors
    ///
    /// As [`sparsity`](super::sparsity).
    pub fn prepare_with(
        rule: R,
        args: impl IntoArgs<R::Args>,
        options: SparseOptions,
    ) -> Result<Self, Error> {
        args.with_args(|args| {
            let columns = Columns::of(R::NAME, args, options.wrt.as_deref())?;
            let Detected { pattern, decisions } = detect(rule, args, options.mode)?;
            let pattern = restrict(pattern, &columns);
            let coloring = color_columns(pattern.as_ref(), options.order);
            let nz_colors = nz_colors(pattern.col_idx(), &coloring);
            Ok(Self {
                rule,
                mode: options.mode,
                columns,
                arg_dims: (0..R::Args::COUNT).map(|i| args.arg_dim(i)).collect(),
                pattern,
                coloring,
                nz_colors,
                decisions,
                store: None,
                check_store: None,
            })
        })
    }
}

impl<R, const N: usize> SparseJacobian<R, N>
where
    R: FRule,
    R::Float: ChunkScalar,
    R::Args: Arguments<R::Float>,
    NDual<R::Float, N>: Reading<R::Float>,
    Pattern<R::Float>: Reading<R::Float>,
{
    /// The same plan with passes of `K` colors ([`NDual<F, K>`](crate::NDual)), `K`
    /// from 1 to 64. Fewer passes cost fewer primal runs; wider values cost more
    /// memory per value.
    pub fn with_width<const K: usize>(self) -> SparseJacobian<R, K>
    where
        NDual<R::Float, K>: Reading<R::Float>,
    {
        const {
            assert!(
                K >= 1 && K <= crate::drivers::MAX_CHUNK,
                "a width is from 1 to 64"
            )
        };
        SparseJacobian {
            rule: self.rule,
            mode: self.mode,
            columns: self.columns,
            arg_dims: self.arg_dims,
            pattern: self.pattern,
            coloring: self.coloring,
            nz_colors: self.nz_colors,
            decisions: self.decisions,
            store: None,
            check_store: self.check_store,
        }
    }

    /// The sparsity pattern: rows the result's degrees of freedom, columns the
    /// differentiated arguments'.
    pub fn pattern(&self) -> SymbolicSparseRowMatRef<'_, usize> {
        self.pattern.as_ref()
    }

    /// The column coloring.
    pub fn coloring(&self) -> &Coloring {
        &self.coloring
    }

    /// The number of colors: seed directions per evaluation.
    pub fn colors(&self) -> usize {
        self.coloring.count()
    }

    /// The number of passes per evaluation: the colors, `N` at a time (at least one).
    pub fn passes(&self) -> usize {
        self.coloring.count().div_ceil(N).max(1)
    }

    /// The pattern mode the plan was prepared with.
    pub fn mode(&self) -> PatternMode {
        self.mode
    }

    /// The result and its Jacobian at `args`, in a new matrix with the plan's pattern.
    ///
    /// # Errors
    ///
    /// As [`jacobian_into`](Self::jacobian_into).
    pub fn jacobian(&mut self, args: impl IntoArgs<R::Args>) -> Result<WithJacobian<R>, Error> {
        let mut jac = SparseRowMat::new(
            self.pattern.clone(),
            vec![R::Float::zero(); self.pattern.col_idx().len()],
        );
        let out = self.jacobian_into(args, &mut jac)?;
        Ok((out, jac))
    }

    /// The Jacobian at `args` written into `jac`, which has the plan's pattern (from
    /// [`jacobian`](Self::jacobian) or a clone of [`pattern`](Self::pattern)); returns
    /// the result. A local plan runs its checking pass first.
    ///
    /// # Errors
    ///
    /// [`Error::ShapeMismatch`] when the arguments' degrees of freedom, the result's or
    /// `jac`'s pattern are not the plan's; [`Error::PatternChanged`] when a local
    /// pattern does not hold at `args`.
    pub fn jacobian_into(
        &mut self,
        args: impl IntoArgs<R::Args>,
        jac: &mut SparseRowMat<usize, R::Float>,
    ) -> Result<R::Output, Error> {
        args.with_args(|args| {
            let p = self.pattern.as_ref();
            let j = jac.symbolic();
            let same = j.nrows() == p.nrows()
                && j.ncols() == p.ncols()
                && j.row_ptr() == p.row_ptr()
                && j.row_nnz().is_none()
                && j.col_idx() == p.col_idx();
            if !same {
                return Err(Error::ShapeMismatch {
                    function: R::NAME,
                    what: "the matrix's non-zeros (its pattern must be the plan's)",
                    expected: p.col_idx().len(),
                    got: j.col_idx().len(),
                });
            }
            self.values_into(args, jac.val_mut())
        })
    }

    /// The Jacobian's non-zeros at `args` written into `values`, in the order of the
    /// plan's [`pattern`](Self::pattern) (row after row, each row's columns
    /// increasing); returns the result. For a matrix of another crate that keeps the
    /// same structure — one from [`to_sprs`](crate::sparse) or `to_nalgebra`, refreshed
    /// in place through its values — or a solver's own storage. A local plan runs its
    /// checking pass first.
    ///
    /// ```
    /// use lifted::autodiff;
    /// use lifted::sparse::SparseJacobian;
    ///
    /// #[autodiff(forward)]
    /// fn diff(x: &[f64]) -> Vec<f64> {
    ///     x.windows(2).map(|w| w[1] * w[1] - w[0]).collect()
    /// }
    ///
    /// # fn main() -> Result<(), lifted::Error> {
    /// let mut plan = SparseJacobian::prepare(diff::Rule, &[1.0, 2.0, 3.0])?;
    /// let mut values = vec![0.0; plan.pattern().compute_nnz()];
    /// plan.values_into(&[1.0, 2.0, 3.0], &mut values)?;
    /// assert_eq!(values, [-1.0, 4.0, -1.0, 6.0]); // (0, 0), (0, 1), (1, 1), (1, 2)
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::BufferLength`] when `values` does not hold one value per non-zero;
    /// otherwise as [`jacobian_into`](Self::jacobian_into).
    pub fn values_into(
        &mut self,
        args: impl IntoArgs<R::Args>,
        values: &mut [R::Float],
    ) -> Result<R::Output, Error> {
        args.with_args(|args| {
            engine::check_buffer(R::NAME, self.pattern.col_idx().len(), values.len())?;
            self.check_args(args)?;
            if self.mode == PatternMode::Local {
                self.verify(args)?;
            }
            self.passes_into(args, values)
        })
    }

    /// Checks that the local pattern holds at `args`: the decisions the function takes
    /// there come out as where the pattern was found. A global plan holds everywhere.
    ///
    /// # Errors
    ///
    /// [`Error::PatternChanged`] when they do not; [`Error::ShapeMismatch`] for
    /// arguments of another size.
    pub fn check(&mut self, args: impl IntoArgs<R::Args>) -> Result<(), Error> {
        args.with_args(|args| {
            self.check_args(args)?;
            match self.mode {
                PatternMode::Global => Ok(()),
                PatternMode::Local => self.verify(args),
            }
        })
    }

    fn check_args(&self, args: &R::Args) -> Result<(), Error> {
        let (expected, got) = (self.arg_dims.iter().sum(), args.dim());
        if expected != got {
            return Err(Error::ShapeMismatch {
                function: R::NAME,
                what: "the arguments' degrees of freedom",
                expected,
                got,
            });
        }
        if self.columns.is_all() {
            return Ok(());
        }
        // As many in all but shared out otherwise among the arguments, the columns of
        // the differentiated ones would move.
        match self
            .arg_dims
            .iter()
            .enumerate()
            .find(|&(i, &d)| args.arg_dim(i) != d)
        {
            Some((i, &expected)) => Err(Error::ShapeMismatch {
                function: R::NAME,
                what: "one argument's degrees of freedom (with `wrt`, each argument keeps its size)",
                expected,
                got: args.arg_dim(i),
            }),
            None => Ok(()),
        }
    }

    /// The checking pass of a local pattern: the decisions again, without sets.
    fn verify(&mut self, args: &R::Args) -> Result<(), Error> {
        let expected = core::mem::take(&mut self.decisions);
        let run = match Run::start(Phase::Check, 1, expected) {
            Ok(run) => run,
            Err(expected) => {
                self.decisions = expected;
                return Err(busy(R::NAME));
            }
        };
        // Every input is the one leaf: a check needs only whether a value depends on
        // the inputs.
        let mut seed = |x| Pattern::input(x, 0);
        let mut store = match self.check_store.take() {
            Some(mut store) => {
                args.relift(&mut store, &mut seed);
                store
            }
            None => args.lift(&mut seed),
        };
        drop(self.rule.frule::<Pattern<R::Float>>(&mut store));
        let rec = run.finish();
        self.check_store = Some(store);
        let checked = recorded_ok(R::NAME, &rec);
        self.decisions = rec.decisions;
        checked?;
        if rec.issue.is_some() || !rec.complete {
            return Err(Error::PatternChanged {
                function: R::NAME,
                location: rec.issue,
            });
        }
        Ok(())
    }

    /// The compressed passes, decompressed into `values` (the plan's non-zeros).
    fn passes_into(&mut self, args: &R::Args, values: &mut [R::Float]) -> Result<R::Output, Error> {
        let Self {
            rule,
            columns,
            pattern,
            coloring,
            nz_colors,
            store: kept,
            ..
        } = self;
        let (rows, row_ptr) = (pattern.nrows(), pattern.row_ptr());
        let colors = coloring.colors();
        let passes = coloring.count().div_ceil(N).max(1);
        let mut output = None;
        for pass in 0..passes {
            let first = pass * N;
            let mut dof = 0;
            let mut seed = |x| {
                let lane = columns
                    .column(dof)
                    .and_then(|c| colors[c].checked_sub(first))
                    .filter(|&l| l < N);
                dof += 1;
                <NDual<R::Float, N> as ColumnReading<R::Float, N>>::seed_fast(x, lane)
            };
            let mut store = match kept.take() {
                // One pass seeds as the last call's did, into arguments the rule left
                // alone: only their values move.
                Some(mut store) if passes == 1 && !R::MUTATES_ARGS => {
                    args.relift_values(&mut store, &mut seed);
                    store
                }
                Some(mut store) => {
                    args.relift(&mut store, &mut seed);
                    store
                }
                None => args.lift(&mut seed),
            };
            let out = rule.frule::<NDual<R::Float, N>>(&mut store);
            let mut i = 0;
            R::Output::visit(&out, &mut |d: NDual<R::Float, N>| {
                if i < rows {
                    let lanes = d.partials();
                    let row = row_ptr[i]..row_ptr[i + 1];
                    for (v, &c) in values[row.clone()].iter_mut().zip(&nz_colors[row]) {
                        if let Some(&p) = (c as usize).checked_sub(first).and_then(|l| lanes.get(l))
                        {
                            *v = p;
                        }
                    }
                }
                i += 1;
            });
            *kept = Some(store);
            if i != rows {
                return Err(Error::ShapeMismatch {
                    function: R::NAME,
                    what: "the result's degrees of freedom",
                    expected: rows,
                    got: i,
                });
            }
            if output.is_none() {
                output = Some(R::Output::primal_of(&out));
            }
        }
        // The loop runs at least once.
        Ok(output.unwrap_or_else(|| rule.primal(&mut args.clone())))
    }
}
