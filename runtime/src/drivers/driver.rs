//! [`Driver`]: a rule with a chunk width and an argument selection; every driver
//! function is a shortcut for one of its methods.

use num_traits::Zero;

use super::Error;
use super::args::{Arguments, IntoArgs};
use super::engine::{self, Columns, Directions};
use super::matrix::Jacobian;
use super::plan::{PassPlan, PassReading, resolve};
use super::width::{Chunk, ChunkScalar, PassWidth, RuleChunk, RunTimeWidth};
use crate::instantiate::{AtWidth, ColumnKind, ColumnReading};
use crate::{FRule, Param};

/// A rule ready to be differentiated: the chunk width its passes run at and which of
/// its arguments are differentiated (JAX's `argnums`).
///
/// The free functions ([`gradient`](crate::gradient), [`jacobian`](crate::jacobian),
/// [`jvp_many`](crate::jvp_many), …) are `Driver::new(rule)` followed by one method.
/// Build a `Driver` to choose the width or the arguments, or to reuse the choice
/// across calls:
///
/// ```
/// use lifted::autodiff;
/// use lifted::drivers::Driver;
///
/// #[autodiff(forward, chunk = 4)]
/// fn f(a: f64, x: &[f64], b: f64) -> f64 {
///     a * x.iter().sum::<f64>() + b * b
/// }
///
/// # fn main() -> Result<(), lifted::Error> {
/// let args = (2.0, vec![1.0, 2.0, 3.0], 5.0);
/// // ∂f/∂b, then ∂f/∂x, in the order asked for.
/// let driver = Driver::new(f::Rule).chunk::<2>().wrt(&[2, 1]);
/// let (value, grad) = driver.gradient(&args)?;
/// assert_eq!(value, 2.0 * 6.0 + 25.0);
/// assert_eq!(grad, [10.0, 2.0, 2.0, 2.0]);
/// # Ok(())
/// # }
/// ```
///
/// The width is part of the driver's type ([`PassWidth`]): the rule's `chunk` by
/// default, [`chunk::<K>()`](Self::chunk) for a width fixed at compile time,
/// [`width`](Self::width) for one chosen at run time. Only the width a driver can run
/// at is instantiated, so each call site compiles one width.
#[derive(Clone, Debug)]
pub struct Driver<R, W = RuleChunk> {
    pub(super) rule: R,
    pub(super) width: W,
    reading: PassReading,
    wrt: Option<Vec<usize>>,
}

impl<R> Driver<R>
where
    R: FRule,
    R::Float: ChunkScalar,
    R::Args: Arguments<R::Float>,
{
    /// The rule with its default chunk width ([`FRule::CHUNK`]), every argument
    /// differentiated.
    pub fn new(rule: R) -> Self {
        Self {
            rule,
            width: RuleChunk,
            reading: PassReading::Auto,
            wrt: None,
        }
    }
}

impl<R, W> Driver<R, W>
where
    R: FRule,
    R::Float: ChunkScalar,
    R::Args: Arguments<R::Float>,
    W: PassWidth,
{
    /// Runs first-order passes (gradients, Jacobians, [`jvp_many`](Self::jvp_many))
    /// `K` directions wide, any `K` in `1..=64`, instantiated for `K` alone (a `K`
    /// outside that range does not compile). Second-order and jet passes run at the
    /// widest width of their tables within `K` ([`NESTED_WIDTHS`],
    /// [`JET_WIDTHS`]).
    ///
    /// [`NESTED_WIDTHS`]: crate::drivers::NESTED_WIDTHS
    /// [`JET_WIDTHS`]: crate::drivers::JET_WIDTHS
    ///
    /// ```
    /// use lifted::autodiff;
    /// use lifted::drivers::Driver;
    ///
    /// #[autodiff(forward)]
    /// fn f(x: &[f64]) -> f64 {
    ///     x.iter().map(|v| v.sin()).sum::<f64>()
    /// }
    ///
    /// # fn main() -> Result<(), lifted::Error> {
    /// let x = vec![0.1, 0.2, 0.3, 0.4, 0.5];
    /// let (_, five) = Driver::new(f::Rule).chunk::<5>().gradient(&x)?; // one pass
    /// let (_, one) = Driver::new(f::Rule).chunk::<1>().gradient(&x)?; // five passes
    /// assert_eq!(five, one);
    /// # Ok(())
    /// # }
    /// ```
    pub fn chunk<const K: usize>(self) -> Driver<R, Chunk<K>> {
        self.with_width(Chunk::<K>)
    }

    /// Runs first-order passes `width` directions wide, a width chosen at run time:
    /// one of [`DRIVER_WIDTHS`](crate::drivers::DRIVER_WIDTHS), each instantiated
    /// ahead of time. Any other width makes every method return
    /// [`Error::UnsupportedWidth`], which lists them; fix other widths at compile
    /// time with [`chunk::<K>()`](Self::chunk).
    ///
    /// ```
    /// use lifted::autodiff;
    /// use lifted::drivers::Driver;
    ///
    /// #[autodiff(forward)]
    /// fn f(x: &[f64]) -> f64 {
    ///     x.iter().map(|v| v * v).sum::<f64>()
    /// }
    ///
    /// # fn main() -> Result<(), lifted::Error> {
    /// let x = vec![1.0, 2.0, 3.0];
    /// for width in [1, 2, 3, 4, 64] {
    ///     let (_, g) = Driver::new(f::Rule).width(width).gradient(&x)?;
    ///     assert_eq!(g, [2.0, 4.0, 6.0]);
    /// }
    /// assert!(Driver::new(f::Rule).width(5).gradient(&x).is_err());
    /// assert!(Driver::new(f::Rule).width(0).gradient(&x).is_err());
    /// # Ok(())
    /// # }
    /// ```
    pub fn width(self, width: usize) -> Driver<R, RunTimeWidth> {
        self.with_width(RunTimeWidth(width))
    }

    fn with_width<V: PassWidth>(self, width: V) -> Driver<R, V> {
        Driver {
            rule: self.rule,
            width,
            reading: self.reading,
            wrt: self.wrt,
        }
    }

    /// Carries the tangents of gradient and Jacobian passes in `reading`
    /// ([`PassReading::Auto`] unless set: zero-skipping for many inputs).
    ///
    /// ```
    /// use lifted::autodiff;
    /// use lifted::drivers::{Driver, PassReading};
    ///
    /// #[autodiff(forward)]
    /// fn f(x: &[f64]) -> f64 {
    ///     x.iter().map(|v| v * v).sum::<f64>()
    /// }
    ///
    /// # fn main() -> Result<(), lifted::Error> {
    /// let x: Vec<f64> = (0..100).map(|i| i as f64).collect();
    /// let (_, dense) = Driver::new(f::Rule).reading(PassReading::Dense).gradient(&x)?;
    /// let (_, sparse) = Driver::new(f::Rule).reading(PassReading::ZeroSkipping).gradient(&x)?;
    /// assert_eq!(dense, sparse);
    /// # Ok(())
    /// # }
    /// ```
    pub fn reading(mut self, reading: PassReading) -> Self {
        self.reading = reading;
        self
    }

    /// The reading and width the gradient or Jacobian passes over `columns` columns
    /// run at: the driver's width, and its reading with [`PassReading::Auto`] resolved
    /// (zero-skipping beyond
    /// [`ZERO_SKIP_MIN_COLUMNS`](crate::drivers::ZERO_SKIP_MIN_COLUMNS) columns).
    ///
    /// ```
    /// use lifted::autodiff;
    /// use lifted::drivers::{Driver, PassPlan, PassReading};
    ///
    /// #[autodiff(forward, chunk = 8)]
    /// fn f(x: &[f64]) -> f64 {
    ///     x.iter().sum::<f64>()
    /// }
    ///
    /// fn main() {
    ///     let plan = Driver::new(f::Rule).plan(4096);
    ///     assert_eq!(plan, PassPlan { reading: PassReading::ZeroSkipping, width: 8 });
    ///     let plan = Driver::new(f::Rule).chunk::<16>().plan(10);
    ///     assert_eq!(plan, PassPlan { reading: PassReading::Dense, width: 16 });
    /// }
    /// ```
    pub fn plan(&self, columns: usize) -> PassPlan {
        PassPlan {
            reading: resolve(self.reading, columns),
            width: self.width.width::<R>(),
        }
    }

    /// Differentiates with respect to the arguments numbered in `args` (counted from
    /// 0), in that order: a gradient or Jacobian has their degrees of freedom as its
    /// columns, argument after argument as listed; the other arguments are held
    /// constant. A `#[constant]` or integer argument contributes no column. An index
    /// out of range or given twice makes every method return an error.
    pub fn wrt(mut self, args: &[usize]) -> Self {
        self.wrt = Some(args.to_vec());
        self
    }

    /// The width of first-order passes (see [`PassWidth`]).
    pub fn chunk_width(&self) -> usize {
        self.width.width::<R>()
    }

    pub(super) fn columns(&self, args: &R::Args) -> Result<Columns, Error> {
        Columns::of(R::NAME, args, self.wrt.as_deref())
    }

    /// The number of columns of a gradient or Jacobian at `args`: the degrees of
    /// freedom of the differentiated arguments (the length
    /// [`gradient_into`](Self::gradient_into) needs).
    pub fn columns_at(&self, args: impl IntoArgs<R::Args>) -> Result<usize, Error> {
        args.with_args(|args| Ok(self.columns(args)?.total()))
    }

    /// The value and gradient of a rule with a scalar result; see
    /// [`gradient`](crate::gradient).
    pub fn gradient(
        &self,
        args: impl IntoArgs<R::Args>,
    ) -> Result<(R::Float, Vec<R::Float>), Error> {
        args.with_args(|args| self.gradient_vec(args, &self.columns(args)?))
    }

    /// The value and the gradient over `columns`, in a new vector.
    fn gradient_vec(
        &self,
        args: &R::Args,
        columns: &Columns,
    ) -> Result<(R::Float, Vec<R::Float>), Error> {
        // Not `vec![0.0; n]`: that is a `calloc`, which glibc serves without its
        // per-thread cache, and in W2 at n = 16 it cost more than the `malloc` and
        // `free` of both lifted vectors together.
        let mut grad = Vec::with_capacity(columns.total());
        grad.resize(columns.total(), R::Float::zero());
        let value = self.gradient_columns(args, columns, &mut grad)?;
        Ok((value, grad))
    }

    /// The value, and the gradient in the shape of the arguments; see
    /// [`gradient_shaped`](crate::gradient_shaped). With [`wrt`](Self::wrt), the
    /// arguments not differentiated come back with zeros.
    pub fn gradient_shaped(
        &self,
        args: impl IntoArgs<R::Args>,
    ) -> Result<(R::Float, R::Args), Error> {
        args.with_args(|args| {
            let columns = self.columns(args)?;
            let (value, grad) = self.gradient_vec(args, &columns)?;
            let full = columns.spread(grad, args.dim());
            let mut shaped = args.clone();
            shaped.unflatten(&mut full.into_iter());
            Ok((value, shaped))
        })
    }

    /// The gradient written to `grad`, the value returned; see
    /// [`gradient_into`](crate::gradient_into).
    pub fn gradient_into(
        &self,
        args: impl IntoArgs<R::Args>,
        grad: &mut [R::Float],
    ) -> Result<R::Float, Error> {
        args.with_args(|args| {
            let columns = self.columns(args)?;
            engine::check_buffer(R::NAME, columns.total(), grad.len())?;
            self.gradient_columns(args, &columns, grad)
        })
    }

    fn gradient_columns(
        &self,
        args: &R::Args,
        columns: &Columns,
        grad: &mut [R::Float],
    ) -> Result<R::Float, Error> {
        let plan = self.plan(columns.total());
        self.width.run::<R, _>(GradientPass {
            rule: self.rule,
            args,
            columns,
            grad,
            kind: plan.reading.column_kind(),
        })?
    }

    /// The result and its Jacobian; see [`jacobian`](crate::jacobian).
    pub fn jacobian(
        &self,
        args: impl IntoArgs<R::Args>,
    ) -> Result<(R::Output, Jacobian<R::Float>), Error> {
        args.with_args(|args| {
            let columns = self.columns(args)?;
            let plan = self.plan(columns.total());
            self.width.run::<R, _>(JacobianPass {
                rule: self.rule,
                args,
                columns: &columns,
                kind: plan.reading.column_kind(),
            })?
        })
    }

    /// The result and its derivative along each of `tangents`; see
    /// [`jvp_many`](crate::jvp_many). The argument selection does not apply (a
    /// tangent is given for every argument).
    pub fn jvp_many(
        &self,
        args: impl IntoArgs<R::Args>,
        tangents: &[R::Args],
    ) -> Result<(R::Output, Vec<R::Output>), Error> {
        args.with_args(|args| {
            let flat = engine::flatten_directions(R::NAME, args, tangents)?;
            let run = self.width.run::<R, _>(DirectionsPass {
                rule: self.rule,
                args,
                tangents: &flat,
                count: tangents.len(),
            })??;
            let m = run.output_dim;
            let out = (0..tangents.len())
                .map(|d| engine::shaped(&run.output, &run.output_tangents[d * m..(d + 1) * m]))
                .collect();
            Ok((run.output, out))
        })
    }
}

/// Gradient passes at a width and reading chosen at run time.
struct GradientPass<'a, R: FRule> {
    rule: R,
    args: &'a R::Args,
    columns: &'a Columns,
    grad: &'a mut [R::Float],
    kind: ColumnKind,
}

impl<R: FRule> AtWidth<R::Float> for GradientPass<'_, R>
where
    R::Float: ChunkScalar,
{
    type Output = Result<R::Float, Error>;
    fn kind(&self) -> ColumnKind {
        self.kind
    }
    fn run<const N: usize, D: ColumnReading<R::Float, N>>(self) -> Self::Output {
        engine::gradient_at::<R, D, N>(self.rule, self.args, self.columns, &mut None, self.grad)
    }
}

/// Jacobian passes at a width and reading chosen at run time.
struct JacobianPass<'a, R: FRule> {
    rule: R,
    args: &'a R::Args,
    columns: &'a Columns,
    kind: ColumnKind,
}

impl<R: FRule> AtWidth<R::Float> for JacobianPass<'_, R>
where
    R::Float: ChunkScalar,
{
    type Output = Result<(R::Output, Jacobian<R::Float>), Error>;
    fn kind(&self) -> ColumnKind {
        self.kind
    }
    fn run<const N: usize, D: ColumnReading<R::Float, N>>(self) -> Self::Output {
        engine::jacobian_at::<R, D, N>(self.rule, self.args, self.columns)
    }
}

/// Passes along given directions at a width chosen at run time.
pub(crate) struct DirectionsPass<'a, R: FRule> {
    pub rule: R,
    pub args: &'a R::Args,
    pub tangents: &'a [R::Float],
    pub count: usize,
}

impl<R: FRule> AtWidth<R::Float> for DirectionsPass<'_, R>
where
    R::Float: ChunkScalar,
{
    type Output = Result<Directions<R>, Error>;
    fn run<const N: usize, D: ColumnReading<R::Float, N>>(self) -> Self::Output {
        engine::directions_at::<R, D, N>(self.rule, self.args, self.tangents, self.count)
    }
}
