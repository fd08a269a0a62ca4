//! Which reading and which width the column passes of a gradient or Jacobian run at:
//! [`PassReading`], [`auto_chunk`] and [`plan_passes`].

use super::Error;
use super::width::{DRIVER_WIDTHS, driver_width};

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

/// [`PassReading::Auto`] skips zeros beyond this many columns. Up to it, one dense pass
/// seeds every input at once and nothing is zero to skip. (Measured on the Rosenbrock
/// gradient of the benchmark workloads, `benches/`:
/// at n = 16 one dense pass and one zero-skipping pass cost the same within noise; at
/// n = 256 zero-skipping passes cost about 0.6 times dense ones, at n = 4096 0.3 times.)
#[doc(hidden)]
pub const ZERO_SKIP_MIN_COLUMNS: usize = 16;

/// The threshold [`auto_chunk`] is given for dense passes when the rule's own width
/// is narrower (ForwardDiff.jl's default threshold is 12; this is the next
/// instantiated width): a few inputs go in one pass, since each pass has a fixed cost
/// (lifting the arguments, running the primal).
#[doc(hidden)]
pub const DENSE_CHUNK_THRESHOLD: usize = 16;

/// The widest chunk [`auto_chunk`] picks for zero-skipping passes: each pass costs
/// about one primal whatever its width, so fewer, wider passes win, up to the widest
/// instantiated width.
#[doc(hidden)]
pub const ZERO_SKIP_CHUNK: usize = 64;

/// The chunk width for `columns` columns when the caller fixes none, chosen as
/// ForwardDiff.jl's `pickchunksize` does, among the instantiated
/// [`DRIVER_WIDTHS`]: one pass when `columns <= threshold` (the narrowest width that
/// covers them); otherwise as few passes as a width of at most `threshold` allows,
/// the columns spread evenly over them and the width the narrowest that holds a
/// pass's share. `threshold` is rounded down to an instantiated width (at least 1).
///
/// ```
/// use lifted::drivers::auto_chunk;
/// assert_eq!(auto_chunk(3, 8), 4);     // one pass
/// assert_eq!(auto_chunk(8, 8), 8);
/// assert_eq!(auto_chunk(20, 8), 8);    // three passes
/// assert_eq!(auto_chunk(20, 16), 16);  // two passes of 10
/// assert_eq!(auto_chunk(100, 64), 64); // two passes of 50
/// assert_eq!(auto_chunk(0, 8), 1);
/// ```
///
/// With power-of-two widths the even spread never narrows a pass below the
/// threshold's width; it matters only for a threshold between two instantiated widths.
pub fn auto_chunk(columns: usize, threshold: usize) -> usize {
    let cap = DRIVER_WIDTHS
        .iter()
        .copied()
        .rfind(|&w| w <= threshold)
        .unwrap_or(1);
    let passes = columns.div_ceil(cap).max(1);
    let share = columns.div_ceil(passes);
    DRIVER_WIDTHS
        .iter()
        .copied()
        .find(|&w| w >= share)
        .unwrap_or(cap)
}

/// The reading and width of the column passes of a gradient or Jacobian.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PassPlan {
    /// [`PassReading::Dense`] or [`PassReading::ZeroSkipping`], never `Auto`.
    pub reading: PassReading,
    /// The chunk width, one of [`DRIVER_WIDTHS`].
    pub width: usize,
}

/// Resolves the reading and width of the passes over `columns` columns.
///
/// * The reading: `reading`, [`PassReading::Auto`] resolved by
///   [`ZERO_SKIP_MIN_COLUMNS`].
/// * The width: a width the caller fixed (`chunk`) is rounded down to one of
///   [`DRIVER_WIDTHS`] and narrowed to the next power of two when there are fewer
///   columns. With none fixed, [`auto_chunk`] picks it, its threshold the rule's own
///   width (`rule_chunk`, the attribute's `chunk`) or [`DENSE_CHUNK_THRESHOLD`],
///   whichever is wider, for dense passes, and [`ZERO_SKIP_CHUNK`] for zero-skipping
///   ones.
///
/// # Errors
///
/// [`Error::UnsupportedWidth`] when `chunk` or `rule_chunk` (whichever is used) is 0.
///
/// ```
/// use lifted::drivers::{PassPlan, PassReading, plan_passes};
/// # fn main() -> Result<(), lifted::Error> {
/// let plan = plan_passes(4096, None, PassReading::Auto, 8)?;
/// assert_eq!(plan, PassPlan { reading: PassReading::ZeroSkipping, width: 64 });
/// let plan = plan_passes(10, None, PassReading::Auto, 8)?;
/// assert_eq!(plan, PassPlan { reading: PassReading::Dense, width: 16 });
/// let plan = plan_passes(4096, Some(16), PassReading::Dense, 8)?;
/// assert_eq!(plan, PassPlan { reading: PassReading::Dense, width: 16 });
/// # Ok(())
/// # }
/// ```
pub fn plan_passes(
    columns: usize,
    chunk: Option<usize>,
    reading: PassReading,
    rule_chunk: usize,
) -> Result<PassPlan, Error> {
    plan("plan_passes", columns, chunk, reading, rule_chunk)
}

/// [`plan_passes`], errors naming `function`.
pub(crate) fn plan(
    function: &'static str,
    columns: usize,
    chunk: Option<usize>,
    reading: PassReading,
    rule_chunk: usize,
) -> Result<PassPlan, Error> {
    let reading = match reading {
        PassReading::Auto if columns > ZERO_SKIP_MIN_COLUMNS => PassReading::ZeroSkipping,
        PassReading::Auto => PassReading::Dense,
        fixed => fixed,
    };
    let width = match (chunk, reading) {
        (Some(w), _) => driver_width(function, w, columns)?,
        (None, PassReading::ZeroSkipping) => auto_chunk(columns, ZERO_SKIP_CHUNK),
        (None, _) => {
            // Keeps `driver_width`'s error for a rule width of 0.
            driver_width(function, rule_chunk, columns)?;
            auto_chunk(columns, rule_chunk.max(DENSE_CHUNK_THRESHOLD))
        }
    };
    Ok(PassPlan { reading, width })
}
