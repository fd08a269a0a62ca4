//! What drivers return instead of panicking.

use core::fmt;

/// Why a driver could not run.
///
/// Drivers check what they are given — the shapes of tangents against the arguments,
/// the chunk width, the argument selection, the length of an output buffer, the shape
/// of the result — and return one of these instead of panicking. Each names the
/// function (the rule's [`NAME`](crate::FRule::NAME)). A panic inside the function
/// itself (an index out of bounds in its body) is the function's and propagates.
///
/// ```
/// use lifted::autodiff;
///
/// #[autodiff(forward)]
/// fn norm2(x: &[f64]) -> f64 {
///     x.iter().map(|v| v * v).sum::<f64>()
/// }
///
/// # fn main() {
/// let x = vec![1.0, 2.0, 3.0];
/// let dx = vec![1.0, 0.0]; // one short
/// let err = lifted::jvp(norm2::Rule, &x, &dx).unwrap_err();
/// assert_eq!(
///     err,
///     lifted::Error::TangentShape {
///         function: "norm2",
///         direction: 0,
///         argument: 0,
///         expected: 3,
///         got: 2,
///     }
/// );
/// assert_eq!(
///     err.to_string(),
///     "norm2: the tangent of argument 0 has 2 degrees of freedom, the argument has 3"
/// );
/// # }
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A tangent does not have the shape of its argument: argument `argument` has
    /// `expected` scalar degrees of freedom, the tangent given for it `got`.
    /// `direction` numbers the tangent among several (0 for a single one).
    TangentShape {
        /// The function's name.
        function: &'static str,
        /// Which tangent direction (0 for [`jvp`](crate::jvp)).
        direction: usize,
        /// Which argument, counted from 0.
        argument: usize,
        /// The argument's degrees of freedom.
        expected: usize,
        /// The tangent's degrees of freedom.
        got: usize,
    },
    /// A width chosen at run time that is not instantiated: not one of `supported`
    /// (for first-order passes [`DRIVER_WIDTHS`](crate::drivers::DRIVER_WIDTHS)).
    UnsupportedWidth {
        /// The function's name.
        function: &'static str,
        /// The width asked for.
        requested: usize,
        /// The widths that can be chosen at run time.
        supported: &'static [usize],
    },
    /// A driver for scalar results ([`gradient`](crate::gradient)) was given a rule
    /// whose result has `dim` scalar degrees of freedom instead of one.
    NotScalarOutput {
        /// The function's name.
        function: &'static str,
        /// The result's degrees of freedom.
        dim: usize,
    },
    /// An argument selection names argument `index` of a function of `count`.
    ArgumentOutOfRange {
        /// The function's name.
        function: &'static str,
        /// The index given.
        index: usize,
        /// The number of arguments.
        count: usize,
    },
    /// An argument selection names argument `index` twice.
    DuplicateArgument {
        /// The function's name.
        function: &'static str,
        /// The index given twice.
        index: usize,
    },
    /// An output buffer has the wrong length.
    BufferLength {
        /// The function's name.
        function: &'static str,
        /// The length needed.
        expected: usize,
        /// The length given.
        got: usize,
    },
    /// A derivative order above what [`derivatives_1d`](crate::derivatives_1d) is
    /// instantiated for.
    UnsupportedOrder {
        /// The function's name.
        function: &'static str,
        /// The order asked for.
        requested: usize,
        /// The highest order supported ([`MAX_TAYLOR_ORDER`](crate::drivers::MAX_TAYLOR_ORDER)).
        max: usize,
    },
    /// The result's number of degrees of freedom changed between two chunk passes
    /// (a function whose result's shape depends on something other than its
    /// arguments' values).
    OutputShapeChanged {
        /// The function's name.
        function: &'static str,
        /// The degrees of freedom in the first pass.
        first: usize,
        /// The degrees of freedom in a later pass.
        later: usize,
    },
    /// A global sparsity pattern ([`PatternMode::Global`](crate::sparse::PatternMode))
    /// met a decision on a value that depends on the inputs — a comparison, a branch
    /// condition, a value query (`is_nan`) or a cast to an integer — at `location`: its
    /// outcome is not the same for every input, so no pattern valid for every input can
    /// be read from one run.
    UnresolvedDecision {
        /// The function's name.
        function: &'static str,
        /// Where the decision is taken.
        location: &'static core::panic::Location<'static>,
    },
    /// A local sparsity pattern ([`PatternMode::Local`](crate::sparse::PatternMode)),
    /// reused at another point, took a decision there with another outcome than where it
    /// was found (at `location`; `None` when the run took fewer decisions): the pattern
    /// may not hold at this point.
    PatternChanged {
        /// The function's name.
        function: &'static str,
        /// Where the first decision with another outcome is taken.
        location: Option<&'static core::panic::Location<'static>>,
    },
    /// A prepared plan was given something of another size than it was prepared for:
    /// `what` has `got` where the plan has `expected`.
    ShapeMismatch {
        /// The function's name.
        function: &'static str,
        /// What has the wrong size.
        what: &'static str,
        /// The size the plan was prepared for.
        expected: usize,
        /// The size given.
        got: usize,
    },
    /// An input a driver built on rules cannot use (a network whose layers do not fit
    /// together, a point of the wrong dimension); `reason` says what is wrong.
    InvalidInput {
        /// The function's name.
        function: &'static str,
        /// What is wrong.
        reason: String,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::TangentShape {
                function,
                direction,
                argument,
                expected,
                got,
            } => {
                write!(f, "{function}: the tangent ")?;
                if *direction > 0 {
                    write!(f, "(direction {direction}) ")?;
                }
                write!(
                    f,
                    "of argument {argument} has {got} degrees of freedom, the argument has {expected}"
                )
            }
            Error::UnsupportedWidth {
                function,
                requested,
                supported,
            } => write!(
                f,
                "{function}: chunk width {requested} cannot be chosen at run time; the \
                 widths that can are {supported:?} (any width from 1 to 64 can be fixed at \
                 compile time: `Driver::chunk::<K>()`)"
            ),
            Error::NotScalarOutput { function, dim } => write!(
                f,
                "{function}: the result has {dim} degrees of freedom, a gradient needs exactly \
                 one (use `jacobian` for vector results)"
            ),
            Error::ArgumentOutOfRange {
                function,
                index,
                count,
            } => write!(
                f,
                "{function}: argument {index} does not exist (the function has {count})"
            ),
            Error::DuplicateArgument { function, index } => {
                write!(f, "{function}: argument {index} is selected twice")
            }
            Error::BufferLength {
                function,
                expected,
                got,
            } => write!(
                f,
                "{function}: the output buffer has length {got}, {expected} is needed"
            ),
            Error::UnsupportedOrder {
                function,
                requested,
                max,
            } => write!(
                f,
                "{function}: derivative order {requested} is not supported (at most {max})"
            ),
            Error::OutputShapeChanged {
                function,
                first,
                later,
            } => write!(
                f,
                "{function}: the result had {first} degrees of freedom in the first pass and \
                 {later} in a later one"
            ),
            Error::UnresolvedDecision { function, location } => write!(
                f,
                "{function}: {location}: a comparison or branch on a value that depends on \
                 the inputs has no outcome valid for every input, so a global sparsity \
                 pattern cannot be found; find a local one (`PatternMode::Local`), valid at \
                 points that decide alike"
            ),
            Error::PatternChanged { function, location } => {
                write!(f, "{function}: ")?;
                if let Some(location) = location {
                    write!(f, "{location}: ")?;
                }
                write!(
                    f,
                    "a comparison or branch decides otherwise than where the local sparsity \
                     pattern was found, so the pattern may not hold here; prepare the plan \
                     again at this point"
                )
            }
            Error::ShapeMismatch {
                function,
                what,
                expected,
                got,
            } => write!(
                f,
                "{function}: {what}: {got} given, the plan was prepared for {expected}"
            ),
            Error::InvalidInput { function, reason } => write!(f, "{function}: {reason}"),
        }
    }
}

impl std::error::Error for Error {}
