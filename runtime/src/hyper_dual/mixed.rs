//! Arithmetic between a hyper-dual number and a plain constant of the primal field, on
//! either side, the `Reading` impls that tie `HyperDual` to that field, and the
//! conversions generated code uses: the shared `mixed_impls!` in its second-order
//! form.

use core::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Rem, RemAssign, Sub, SubAssign};

use super::HyperDual;
use crate::reading::convert::{IntoReading, ToPrimal};
use crate::{Reading, Real};

mixed_impls!({ HyperDual }, value, with_value, map, second_order);
