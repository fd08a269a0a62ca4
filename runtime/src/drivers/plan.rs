//! Which reading the column passes of a gradient or Jacobian run at: [`PassReading`]
//! and the [`PassPlan`] a driver reports.

use crate::instantiate::ColumnKind;

/// How the passes of a gradient or Jacobian carry their tangents.
///
/// A pass seeds N of the n inputs. With the dense reading ([`NDual`](crate::NDual))
/// every value carries N partials, zero or not, so a pass costs about N + 1 primals
/// and a gradient about n + n/N. With the zero-skipping reading
/// ([`ZDual`](crate::ZDual)) values computed from unseeded inputs alone carry no
/// partials, so when most of the function's work is away from the seeded inputs a
/// pass costs about one primal. Both give the same derivatives (see [`ZDual`](crate::ZDual)
/// for the sign of zero partials).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PassReading {
    /// [`ZeroSkipping`](Self::ZeroSkipping) when there are more than
    /// [`ZERO_SKIP_MIN_COLUMNS`] columns, [`Dense`](Self::Dense) otherwise.
    #[default]
    Auto,
    /// Every pass at [`NDual<F, N>`](crate::NDual).
    Dense,
    /// Every pass at [`ZDual<F, N>`](crate::ZDual).
    ZeroSkipping,
}

impl PassReading {
    /// The reading a resolved plan's passes run at (`Auto` is resolved before).
    pub(crate) fn column_kind(self) -> ColumnKind {
        match self {
            PassReading::ZeroSkipping => ColumnKind::ZeroSkipping,
            PassReading::Auto | PassReading::Dense => ColumnKind::Dense,
        }
    }
}

/// [`PassReading::Auto`] skips zeros beyond this many columns. Up to it, one dense pass
/// at a rule's default width of 8 (two at 16) covers every input, and little is zero
/// to skip. (Measured on the Rosenbrock gradient of the benchmark workloads,
/// `benches/`: at n = 16 dense and zero-skipping passes of width 8 cost the same
/// within noise; at n = 256 zero-skipping passes cost about 0.5 times dense ones.)
#[doc(hidden)]
pub const ZERO_SKIP_MIN_COLUMNS: usize = 16;

/// The reading and width of the column passes of a gradient or Jacobian, as
/// [`Driver::plan`](crate::drivers::Driver::plan) reports them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PassPlan {
    /// [`PassReading::Dense`] or [`PassReading::ZeroSkipping`], never `Auto`.
    pub reading: PassReading,
    /// The chunk width: the driver's, whatever the number of columns.
    pub width: usize,
}

/// The reading of the passes over `columns` columns: `reading`, with
/// [`PassReading::Auto`] resolved by [`ZERO_SKIP_MIN_COLUMNS`].
pub(crate) fn resolve(reading: PassReading, columns: usize) -> PassReading {
    match reading {
        PassReading::Auto if columns > ZERO_SKIP_MIN_COLUMNS => PassReading::ZeroSkipping,
        PassReading::Auto => PassReading::Dense,
        fixed => fixed,
    }
}
