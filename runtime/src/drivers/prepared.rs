//! [`GradientPlan`]: a gradient prepared for one shape of arguments, evaluated at
//! point after point without lifting into fresh buffers.

use super::Error;
use super::args::{Arguments, IntoArgs};
use super::driver::Driver;
use super::engine::{self, ColumnReading, Columns, Kept};
use super::plan::PassPlan;
use super::width::{ChunkScalar, PassWidth};
use crate::instantiate::{AtWidth, ColumnKind};
use crate::{FRule, Reading};

/// A gradient prepared once for arguments of one shape, then evaluated at many points
/// of that shape: the optimiser's loop.
///
/// [`gradient_into`](crate::gradient_into) lifts the arguments into new buffers on
/// every call (an `NDualArray` per slice argument) and frees them at the end. A plan
/// keeps the lifted arguments of its last call and lifts the next point into them, so
/// an evaluation allocates nothing beyond what the function itself allocates at the
/// reading of its passes (checked in the tests with a counting allocator). The width,
/// the reading of the passes ([`PassPlan`]) and the argument selection are the
/// driver's, fixed when the plan is made. A plan is not `Send` (the lifted arguments
/// it keeps are of a type chosen where it is made): make one per thread.
///
/// ```
/// use lifted::autodiff;
/// use lifted::drivers::GradientPlan;
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
/// let mut args = (vec![-1.2, 1.0, -1.2, 1.0],);
/// let mut plan = GradientPlan::prepare(rosenbrock::Rule, &args)?;
/// let mut grad = vec![0.0; plan.columns()];
/// let start = rosenbrock(&args.0);
/// for _ in 0..100 {
///     plan.gradient_into(&args, &mut grad)?;
///     for (x, g) in args.0.iter_mut().zip(&grad) {
///         *x -= 1e-3 * g;
///     }
/// }
/// assert!(rosenbrock(&args.0) < start);
/// // Another shape is an error, not a wrong gradient.
/// assert!(plan.gradient_into(&(vec![0.0; 5],), &mut [0.0; 5]).is_err());
/// # Ok(())
/// # }
/// ```
pub struct GradientPlan<R: FRule> {
    rule: R,
    columns: Columns,
    /// The degrees of freedom of each argument the plan was made for.
    dims: Vec<usize>,
    plan: PassPlan,
    passes: Box<dyn Passes<R>>,
}

impl<R: FRule> core::fmt::Debug for GradientPlan<R> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("GradientPlan")
            .field("function", &R::NAME)
            .field("columns", &self.columns.total())
            .field("plan", &self.plan)
            .finish_non_exhaustive()
    }
}

impl<R> GradientPlan<R>
where
    R: FRule + 'static,
    R::Float: ChunkScalar,
    R::Args: Arguments<R::Float>,
{
    /// A plan for the gradient of `rule` at arguments shaped like `args`, at the rule's
    /// width, every argument differentiated: `Driver::new(rule).prepare_gradient(args)`.
    ///
    /// # Errors
    ///
    /// [`Error::UnsupportedWidth`] for a hand-written rule whose `CHUNK` is not
    /// instantiated.
    pub fn prepare(rule: R, args: impl IntoArgs<R::Args>) -> Result<Self, Error> {
        Driver::new(rule).prepare_gradient(args)
    }

    /// The number of columns: the length of the gradient.
    pub fn columns(&self) -> usize {
        self.columns.total()
    }

    /// The reading and width of the passes.
    pub fn plan(&self) -> PassPlan {
        self.plan
    }

    /// The value and gradient at `args`, the gradient written to `grad`; see
    /// [`gradient_into`](crate::gradient_into), which gives the same numbers bit for
    /// bit.
    ///
    /// # Errors
    ///
    /// [`Error::ShapeMismatch`] when an argument has another number of degrees of
    /// freedom than the plan was prepared for; [`Error::BufferLength`] when `grad`'s
    /// length is not [`columns`](Self::columns); [`Error::NotScalarOutput`] when the
    /// result is not one scalar.
    pub fn gradient_into(
        &mut self,
        args: impl IntoArgs<R::Args>,
        grad: &mut [R::Float],
    ) -> Result<R::Float, Error> {
        args.with_args(|args| {
            self.check(args)?;
            engine::check_buffer(R::NAME, self.columns.total(), grad.len())?;
            self.passes.gradient(self.rule, args, &self.columns, grad)
        })
    }

    /// [`gradient_into`](Self::gradient_into) into a new vector.
    ///
    /// # Errors
    ///
    /// As [`gradient_into`](Self::gradient_into).
    pub fn gradient(
        &mut self,
        args: impl IntoArgs<R::Args>,
    ) -> Result<(R::Float, Vec<R::Float>), Error> {
        let mut grad = vec![<R::Float as num_traits::Zero>::zero(); self.columns.total()];
        let value = self.gradient_into(args, &mut grad)?;
        Ok((value, grad))
    }

    fn check(&self, args: &R::Args) -> Result<(), Error> {
        for (argument, &expected) in self.dims.iter().enumerate() {
            let got = args.arg_dim(argument);
            if got != expected {
                return Err(Error::ShapeMismatch {
                    function: R::NAME,
                    what: ARGUMENT_NAMES
                        .get(argument)
                        .copied()
                        .unwrap_or("an argument"),
                    expected,
                    got,
                });
            }
        }
        Ok(())
    }
}

/// How the shape error names an argument (its degrees of freedom are the sizes).
const ARGUMENT_NAMES: [&str; 8] = [
    "argument 0",
    "argument 1",
    "argument 2",
    "argument 3",
    "argument 4",
    "argument 5",
    "argument 6",
    "argument 7",
];

impl<R, W> Driver<R, W>
where
    R: FRule + 'static,
    R::Float: ChunkScalar,
    R::Args: Arguments<R::Float>,
    W: PassWidth,
{
    /// A [`GradientPlan`] for arguments shaped like `args`, with this driver's width,
    /// reading and argument selection.
    ///
    /// # Errors
    ///
    /// As [`gradient`](Self::gradient) for the width and the selection.
    pub fn prepare_gradient(&self, args: impl IntoArgs<R::Args>) -> Result<GradientPlan<R>, Error> {
        args.with_args(|args| {
            let columns = self.columns(args)?;
            let plan = self.plan(columns.total());
            let passes = self.width.run::<R, _>(Prepare::<R> {
                kind: plan.reading.column_kind(),
                rule: core::marker::PhantomData,
            })?;
            Ok(GradientPlan {
                rule: self.rule,
                dims: (0..R::Args::COUNT).map(|i| args.arg_dim(i)).collect(),
                columns,
                plan,
                passes,
            })
        })
    }
}

/// The passes of a plan at the width and reading it was made with, behind a trait
/// object: the width is a const generic chosen where the plan is made.
trait Passes<R: FRule> {
    fn gradient(
        &mut self,
        rule: R,
        args: &R::Args,
        columns: &Columns,
        grad: &mut [R::Float],
    ) -> Result<R::Float, Error>;
}

/// The lifted arguments kept from call to call at reading `D` of width `N`.
struct KeptPasses<R: FRule, D: Reading<R::Float>, const N: usize> {
    kept: Kept<R::Float, R::Args, D>,
}

impl<R, D, const N: usize> Passes<R> for KeptPasses<R, D, N>
where
    R: FRule,
    R::Float: ChunkScalar,
    D: ColumnReading<R::Float, N>,
{
    fn gradient(
        &mut self,
        rule: R,
        args: &R::Args,
        columns: &Columns,
        grad: &mut [R::Float],
    ) -> Result<R::Float, Error> {
        engine::gradient_at::<R, D, N>(rule, args, columns, &mut self.kept, grad)
    }
}

/// Makes the passes of a plan once the width is known.
struct Prepare<R> {
    kind: ColumnKind,
    rule: core::marker::PhantomData<R>,
}

impl<R> AtWidth<R::Float> for Prepare<R>
where
    R: FRule + 'static,
    R::Float: ChunkScalar,
{
    type Output = Box<dyn Passes<R>>;
    fn kind(&self) -> ColumnKind {
        self.kind
    }
    fn run<const N: usize, D: ColumnReading<R::Float, N>>(self) -> Self::Output {
        Box::new(KeptPasses::<R, D, N> { kept: None })
    }
}
