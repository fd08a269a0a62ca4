//! The two conversion traits every reading names among its supertraits, below the
//! readings so that `Reading` needs nothing above it; their impls for integers, floats
//! and containers live with the lowering that uses them (`crate::lowering`).

use crate::Scalar;

/// `e as F` inside a rule at reading `D`: integers and plain constants are zero-lifted,
/// values of the reading pass through.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be cast to a float inside a derived rule",
    note = "inside `#[autodiff]` functions, `as {F}` converts integers, `{F}` constants and lifted values"
)]
pub trait IntoReading<F: Scalar, D> {
    /// The converted value.
    fn into_reading(self) -> D;
}

/// The primal of a value: the value itself for integers and plain floats, the primal
/// scalar for a lifted value. What float → integer casts and comparisons look at, and
/// what the formatting macros print.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no primal value to read inside a derived rule",
    note = "inside `#[autodiff]` functions, casts to integers and the formatting macros (`println!`, `format!`, …) read the primal of lifted values: floats, references to them, fixed arrays and tuples of them; print the elements of a vector one by one"
)]
pub trait ToPrimal {
    /// The primal type.
    type Primal;
    /// The primal.
    fn to_primal(self) -> Self::Primal;
}
