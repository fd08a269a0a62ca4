//! The passes every driver is made of: lift the arguments with seeded lanes, run the
//! rule at width N, read the lanes back.

use num_traits::Zero;

use super::Error;
use super::args::Arguments;
use super::matrix::Jacobian;
use super::width::{ChunkScalar, ONE_HOT_AT};
pub(crate) use crate::instantiate::ColumnReading;
use crate::{FRule, NDual, Param, Reading, ZDual};

/// The forward value of `P` at reading `D`.
type StoreAt<F, P, D> = <P as Param<F>>::Store<D>;

/// The `N` entries of [`ChunkScalar::one_hot`] from `start`: lane `l`'s unit vector
/// from `ONE_HOT_AT - l`, zeros from `ONE_HOT_AT + 1`; `None` past the table's end
/// (widths above 64).
#[inline(always)]
fn one_hot_window<F: ChunkScalar, const N: usize>(start: usize) -> Option<&'static [F; N]> {
    F::one_hot().get(start..).and_then(<[F]>::first_chunk::<N>)
}

impl<F: ChunkScalar, const N: usize> ColumnReading<F, N> for NDual<F, N>
where
    NDual<F, N>: Reading<F>,
{
    #[inline(always)]
    fn seed(x: F, lane: Option<usize>) -> Self {
        match lane {
            Some(lane) => NDual::variable(x, lane),
            None => NDual::constant(x),
        }
    }
    /// The partials are a window of the table. Zeroing N partials on the stack and
    /// then writing the one at an index known only at run time (`NDual::variable`)
    /// made copying the element into the lifted array read 16 bytes across an 8-byte
    /// store, which the processor cannot forward: lifting the 16 inputs of the Rosenbrock
    /// gradient benchmark took longer
    /// than running the rule.
    #[inline(always)]
    fn seed_fast(x: F, lane: Option<usize>) -> Self {
        if N > ONE_HOT_AT + 1 {
            return Self::seed(x, lane);
        }
        // Constants read the zeros after the one: one path, so the partials are not
        // merged from two places either.
        let start = match lane {
            Some(lane) if lane < N => ONE_HOT_AT - lane,
            _ => ONE_HOT_AT + 1,
        };
        match one_hot_window::<F, N>(start) {
            Some(partials) => NDual::new(x, *partials),
            None => Self::seed(x, lane),
        }
    }
    #[inline(always)]
    fn with_partials(x: F, partials: [F; N]) -> Self {
        NDual::new(x, partials)
    }
    #[inline(always)]
    fn value_of(&self) -> F {
        self.value()
    }
    #[inline(always)]
    fn lanes_into(&self, out: &mut [F]) {
        out.copy_from_slice(&self.partials()[..out.len()]);
    }
}

impl<F: ChunkScalar, const N: usize> ColumnReading<F, N> for ZDual<F, N>
where
    ZDual<F, N>: Reading<F>,
{
    #[inline(always)]
    fn seed(x: F, lane: Option<usize>) -> Self {
        match lane {
            Some(lane) => ZDual::variable(x, lane),
            None => ZDual::constant(x),
        }
    }
    /// Seeded lanes are a window of the table, as `NDual`'s.
    #[inline(always)]
    fn seed_fast(x: F, lane: Option<usize>) -> Self {
        if N > ONE_HOT_AT + 1 {
            return Self::seed(x, lane);
        }
        match lane {
            Some(lane) if lane < N => match one_hot_window::<F, N>(ONE_HOT_AT - lane) {
                Some(partials) => ZDual::new(x, *partials),
                None => Self::seed(x, Some(lane)),
            },
            _ => ZDual::constant(x),
        }
    }
    #[inline(always)]
    fn with_partials(x: F, partials: [F; N]) -> Self {
        ZDual::new(x, partials)
    }
    #[inline(always)]
    fn value_of(&self) -> F {
        self.value()
    }
    /// Zeros come out as `+0.0`: whether a lane was computed next to seeded lanes (and
    /// may hold `-0.0`, as `NDual` would) or skipped depends on the chunking, and the
    /// result must not.
    #[inline(always)]
    fn lanes_into(&self, out: &mut [F]) {
        match self.partials_if_any() {
            Some(p) => {
                for (o, &p) in out.iter_mut().zip(p) {
                    *o = p + F::zero();
                }
            }
            None => out.fill(F::zero()),
        }
    }
}

/// Which scalar degrees of freedom of the arguments are seeded, and the column (input
/// index of a gradient or Jacobian) each one goes to.
#[derive(Clone, Debug)]
pub(crate) struct Columns {
    /// Seeded runs of degrees of freedom, in the arguments' (`Param`) order; `None`
    /// when every degree of freedom is seeded, column = degree of freedom (no table,
    /// no allocation).
    segments: Option<Vec<Segment>>,
    /// The number of columns.
    total: usize,
}

#[derive(Clone, Copy, Debug)]
struct Segment {
    /// The first degree of freedom, counted over all arguments.
    start: usize,
    /// How many.
    len: usize,
    /// The column of the first one.
    column: usize,
}

impl Columns {
    /// The columns `grad` spread over all `dofs` degrees of freedom of the arguments, in
    /// their order: those no column stands for are zero.
    pub(crate) fn spread<F: ChunkScalar>(&self, grad: Vec<F>, dofs: usize) -> Vec<F> {
        let Some(segments) = &self.segments else {
            return grad;
        };
        let mut full = vec![F::zero(); dofs];
        for s in segments {
            full[s.start..s.start + s.len].copy_from_slice(&grad[s.column..s.column + s.len]);
        }
        full
    }

    /// Every degree of freedom of every argument, in order.
    pub(crate) fn all<F: ChunkScalar, A: Param<F>>(args: &A) -> Self {
        Self {
            segments: None,
            total: args.dim(),
        }
    }

    /// The columns of the arguments numbered in `wrt` ([`select`](Self::select)), or
    /// of every degree of freedom when there is no list ([`all`](Self::all)).
    pub(crate) fn of<F: ChunkScalar, A: Arguments<F>>(
        function: &'static str,
        args: &A,
        wrt: Option<&[usize]>,
    ) -> Result<Self, Error> {
        match wrt {
            None => Ok(Self::all(args)),
            Some(wrt) => Self::select(function, args, wrt),
        }
    }

    /// The degrees of freedom of the arguments numbered in `wrt`, their columns in the
    /// order of `wrt`.
    pub(crate) fn select<F: ChunkScalar, A: Arguments<F>>(
        function: &'static str,
        args: &A,
        wrt: &[usize],
    ) -> Result<Self, Error> {
        let mut segments = Vec::with_capacity(wrt.len());
        let mut column = 0;
        for (k, &index) in wrt.iter().enumerate() {
            if index >= A::COUNT {
                return Err(Error::ArgumentOutOfRange {
                    function,
                    index,
                    count: A::COUNT,
                });
            }
            if wrt[..k].contains(&index) {
                return Err(Error::DuplicateArgument { function, index });
            }
            let start = (0..index).map(|i| args.arg_dim(i)).sum();
            let len = args.arg_dim(index);
            if len > 0 {
                segments.push(Segment { start, len, column });
            }
            column += len;
        }
        segments.sort_by_key(|s| s.start);
        Ok(Self {
            segments: Some(segments),
            total: column,
        })
    }

    /// The column of degree of freedom `dof`, `None` when it is not seeded.
    pub(crate) fn column(&self, dof: usize) -> Option<usize> {
        match &self.segments {
            None => (dof < self.total).then_some(dof),
            Some(segments) => segments
                .iter()
                .find(|s| dof >= s.start && dof < s.start + s.len)
                .map(|s| s.column + (dof - s.start)),
        }
    }

    /// The number of columns.
    pub(crate) fn total(&self) -> usize {
        self.total
    }

    /// Whether every degree of freedom is its own column.
    pub(crate) fn is_all(&self) -> bool {
        self.segments.is_none()
    }

    /// Lifts `args` to reading `D` of width `N`, columns `first .. first + N`
    /// seeded in lanes `0 .. N`, every other degree of freedom zero-lifted: into
    /// the store of an earlier pass when there is one (its buffers reused). When that
    /// pass seeded columns `before .. before + N` and the rule left the arguments as
    /// they were (`unchanged`), only the two ranges are lifted again: with every
    /// column its degree of freedom, nothing else differs between the passes.
    fn lift<F: ChunkScalar, A: Param<F>, D: ColumnReading<F, N>, const N: usize>(
        &self,
        args: &A,
        first: usize,
        previous: Option<(StoreAt<F, A, D>, usize)>,
        unchanged: bool,
    ) -> StoreAt<F, A, D> {
        let previous = match previous {
            Some((mut store, before)) if unchanged && self.segments.is_none() => {
                let mut seed = |dof: usize, x| D::seed_fast(x, dof.checked_sub(first));
                args.relift_range(&mut store, before..before + N, &mut seed);
                args.relift_range(&mut store, first..first + N, &mut seed);
                return store;
            }
            other => other,
        };
        let mut dof = 0;
        let mut seg = 0;
        let mut seed = |x| {
            let column = match &self.segments {
                None => Some(dof),
                Some(segments) => {
                    while seg < segments.len() && dof >= segments[seg].start + segments[seg].len {
                        seg += 1;
                    }
                    match segments.get(seg) {
                        Some(s) if dof >= s.start => Some(s.column + (dof - s.start)),
                        _ => None,
                    }
                }
            };
            dof += 1;
            D::seed_fast(x, column.and_then(|c| c.checked_sub(first)))
        };
        match previous {
            Some((mut store, _)) => {
                args.relift(&mut store, &mut seed);
                store
            }
            None => args.lift(&mut seed),
        }
    }
}

/// Checks that `tangent` has the shape of `args`, argument by argument.
pub(crate) fn check_shape<F: ChunkScalar, A: Arguments<F>>(
    function: &'static str,
    direction: usize,
    args: &A,
    tangent: &A,
) -> Result<(), Error> {
    for argument in 0..A::COUNT {
        let (expected, got) = (args.arg_dim(argument), tangent.arg_dim(argument));
        if expected != got {
            return Err(Error::TangentShape {
                function,
                direction,
                argument,
                expected,
                got,
            });
        }
    }
    Ok(())
}

/// [`Error::BufferLength`] unless a caller's buffer of length `got` has the length
/// `expected` that a driver writes.
pub(crate) fn check_buffer(
    function: &'static str,
    expected: usize,
    got: usize,
) -> Result<(), Error> {
    if got == expected {
        Ok(())
    } else {
        Err(Error::BufferLength {
            function,
            expected,
            got,
        })
    }
}

/// Records the output size `m` of a column pass: `Ok(true)` on the first pass (the
/// caller sizes its results), `Ok(false)` when it matches the first,
/// [`Error::OutputShapeChanged`] when a later pass gives another size.
pub(crate) fn first_pass(
    function: &'static str,
    rows: &mut Option<usize>,
    m: usize,
) -> Result<bool, Error> {
    match *rows {
        None => {
            *rows = Some(m);
            Ok(true)
        }
        Some(first) if first != m => Err(Error::OutputShapeChanged {
            function,
            first,
            later: m,
        }),
        Some(_) => Ok(false),
    }
}

/// The number of scalar degrees of freedom of a lifted value.
pub(crate) fn dim_of<F: ChunkScalar, P: Param<F>, D: Reading<F>>(
    store: &StoreAt<F, P, D>,
) -> usize {
    let mut n = 0;
    P::visit(store, &mut |_: D| n += 1);
    n
}

/// Runs `rule` once per chunk of `N` columns (at least once), calling
/// `each(first, lanes, output, args)` after each pass with the first column of the
/// pass, the number of lanes in use, the lifted result and the lifted arguments as the
/// rule left them. Returns the result's primal.
///
/// `kept` is the lifted arguments of an earlier call at another point of the same
/// shape, with the first column of its last pass (or `None`): the passes lift into
/// it, reusing its buffers, and leave theirs there for the next call.
pub(crate) fn column_passes<R, D, const N: usize>(
    rule: R,
    args: &R::Args,
    columns: &Columns,
    kept: &mut Kept<R::Float, R::Args, D>,
    mut each: impl FnMut(
        usize,
        usize,
        &StoreAt<R::Float, R::Output, D>,
        &StoreAt<R::Float, R::Args, D>,
    ) -> Result<(), Error>,
) -> Result<R::Output, Error>
where
    R: FRule,
    R::Float: ChunkScalar,
    D: ColumnReading<R::Float, N>,
{
    let mut first = 0;
    let mut output = None;
    let mut lifted = kept.take();
    // With two passes or fewer, the two column ranges a pass lifts again cover almost
    // every degree of freedom: the first pass lifts them all at once instead of moving
    // every value and then most of them a second time.
    let few = columns.total() <= 2 * N;
    if let Some((store, _)) = lifted.as_mut() {
        // Another point: with the seeds where the last pass left them, only the values
        // differ, and moving them is all the first pass's lift then needs. Otherwise
        // the lift below lifts every degree of freedom again anyway.
        if !R::MUTATES_ARGS && columns.is_all() && !few {
            args.relift_values(store, &mut |x| D::seed(x, None));
        }
    }
    let result = loop {
        let unchanged = !R::MUTATES_ARGS && (!few || first > 0);
        let mut store =
            columns.lift::<R::Float, R::Args, D, N>(args, first, lifted.take(), unchanged);
        let out = rule.frule::<D>(&mut store);
        let lanes = N.min(columns.total().saturating_sub(first));
        let step = each(first, lanes, &out, &store);
        lifted = Some((store, first));
        if let Err(e) = step {
            break Err(e);
        }
        if output.is_none() {
            output = Some(R::Output::primal_of(&out));
        }
        first += N;
        if first >= columns.total() {
            break Ok(());
        }
    };
    *kept = lifted;
    result?;
    // The loop runs at least once.
    Ok(output.unwrap_or_else(|| rule.primal(&mut args.clone())))
}

/// The lifted arguments a run of [`column_passes`] leaves for the next, with the first
/// column of its last pass.
pub(crate) type Kept<F, A, D> = Option<(StoreAt<F, A, D>, usize)>;

/// The gradient of a scalar result over `columns` at reading `D` of width `N`,
/// written to `grad` (whose length the caller checked), lifting into `kept` (see
/// [`column_passes`]); returns the value.
pub(crate) fn gradient_at<R, D, const N: usize>(
    rule: R,
    args: &R::Args,
    columns: &Columns,
    kept: &mut Kept<R::Float, R::Args, D>,
    grad: &mut [R::Float],
) -> Result<R::Float, Error>
where
    R: FRule,
    R::Float: ChunkScalar,
    D: ColumnReading<R::Float, N>,
{
    let mut value = R::Float::zero();
    column_passes::<R, D, N>(rule, args, columns, kept, |first, lanes, out, _| {
        let mut dim = 0;
        R::Output::visit(out, &mut |d: D| {
            if dim == 0 {
                value = d.value_of();
                d.lanes_into(&mut grad[first..first + lanes]);
            }
            dim += 1;
        });
        if dim == 1 {
            Ok(())
        } else {
            Err(Error::NotScalarOutput {
                function: R::NAME,
                dim,
            })
        }
    })?;
    Ok(value)
}

/// The result's primal and its Jacobian over `columns` at reading `D` of width `N`.
pub(crate) fn jacobian_at<R, D, const N: usize>(
    rule: R,
    args: &R::Args,
    columns: &Columns,
) -> Result<(R::Output, Jacobian<R::Float>), Error>
where
    R: FRule,
    R::Float: ChunkScalar,
    D: ColumnReading<R::Float, N>,
{
    let cols = columns.total();
    let mut rows = None;
    let mut data = Vec::new();
    let output =
        column_passes::<R, D, N>(rule, args, columns, &mut None, |first, lanes, out, _| {
            let m = dim_of::<R::Float, R::Output, D>(out);
            if first_pass(R::NAME, &mut rows, m)? {
                data = vec![R::Float::zero(); m * cols];
            }
            let mut i = 0;
            R::Output::visit(out, &mut |d: D| {
                let row = i * cols + first;
                d.lanes_into(&mut data[row..row + lanes]);
                i += 1;
            });
            Ok(())
        })?;
    Ok((output, Jacobian::new(rows.unwrap_or(0), cols, data)))
}

/// The result of running a rule along several tangent directions.
pub(crate) struct Directions<R: FRule> {
    /// The result's primal.
    pub output: R::Output,
    /// The arguments' primals after the run (in-place updates applied).
    pub args: R::Args,
    /// The result's tangents, direction-major: direction `d`, degree of freedom `i`
    /// at `d * output_dim + i`.
    pub output_tangents: Vec<R::Float>,
    /// The result's degrees of freedom.
    pub output_dim: usize,
    /// The arguments' tangents after the run, direction-major like `output_tangents`.
    pub arg_tangents: Vec<R::Float>,
    /// The arguments' degrees of freedom.
    pub arg_dim: usize,
}

/// Runs `rule` along `count` directions, `N` at a time: direction `d` seeds degree of
/// freedom `j` with `tangents[d * n + j]`, `n = args.dim()`.
pub(crate) fn directions_at<R, D, const N: usize>(
    rule: R,
    args: &R::Args,
    tangents: &[R::Float],
    count: usize,
) -> Result<Directions<R>, Error>
where
    R: FRule,
    R::Float: ChunkScalar,
    D: ColumnReading<R::Float, N>,
{
    let n = args.dim();
    let zero = R::Float::zero();
    let mut result: Option<Directions<R>> = None;
    let mut first = 0;
    loop {
        let lanes = N.min(count.saturating_sub(first));
        let mut dof = 0;
        let mut store = args.lift(&mut |x| {
            let partials = core::array::from_fn(|k| {
                if k < lanes {
                    tangents.get((first + k) * n + dof).copied().unwrap_or(zero)
                } else {
                    zero
                }
            });
            dof += 1;
            D::with_partials(x, partials)
        });
        let out = rule.frule::<D>(&mut store);
        let m = dim_of::<R::Float, R::Output, D>(&out);
        let n_after = dim_of::<R::Float, R::Args, D>(&store);
        let r = result.get_or_insert_with(|| Directions {
            output: R::Output::primal_of(&out),
            args: R::Args::primal_of(&store),
            output_tangents: vec![zero; count * m],
            output_dim: m,
            arg_tangents: vec![zero; count * n_after],
            arg_dim: n_after,
        });
        if r.output_dim != m {
            return Err(Error::OutputShapeChanged {
                function: R::NAME,
                first: r.output_dim,
                later: m,
            });
        }
        scatter::<R::Float, R::Output, D, N>(&out, &mut r.output_tangents, m, first, lanes);
        if r.arg_dim == n_after {
            scatter::<R::Float, R::Args, D, N>(&store, &mut r.arg_tangents, n_after, first, lanes);
        }
        first += N;
        if first >= count {
            break;
        }
    }
    // The loop runs at least once.
    Ok(result.unwrap_or_else(|| {
        let mut a = args.clone();
        Directions {
            output: rule.primal(&mut a),
            args: a,
            output_tangents: Vec::new(),
            output_dim: 0,
            arg_tangents: Vec::new(),
            arg_dim: 0,
        }
    }))
}

/// Writes lane `k < lanes` of each degree of freedom `i` of `store` to
/// `out[(first + k) * dim + i]`.
fn scatter<F: ChunkScalar, P: Param<F>, D: ColumnReading<F, N>, const N: usize>(
    store: &StoreAt<F, P, D>,
    out: &mut [F],
    dim: usize,
    first: usize,
    lanes: usize,
) {
    let mut i = 0;
    let mut column = [F::zero(); N];
    P::visit(store, &mut |d: D| {
        d.lanes_into(&mut column[..lanes]);
        for (k, &p) in column[..lanes].iter().enumerate() {
            out[(first + k) * dim + i] = p;
        }
        i += 1;
    });
}

/// A value of `P`'s type holding `values` as its degrees of freedom (the shape taken
/// from `like`).
pub(crate) fn shaped<F: ChunkScalar, P: Param<F>>(like: &P, values: &[F]) -> P {
    let mut out = like.clone();
    out.unflatten(&mut values.iter().copied());
    out
}

/// Flattens tangent directions, each checked against the shape of `args`.
pub(crate) fn flatten_directions<F: ChunkScalar, A: Arguments<F>>(
    function: &'static str,
    args: &A,
    directions: &[A],
) -> Result<Vec<F>, Error> {
    let mut flat = Vec::with_capacity(directions.len() * args.dim());
    for (d, t) in directions.iter().enumerate() {
        check_shape(function, d, args, t)?;
        t.flatten(&mut flat);
    }
    Ok(flat)
}

/// One, for seeding a scalar direction.
pub(crate) fn one<F: ChunkScalar>() -> F {
    F::one()
}
