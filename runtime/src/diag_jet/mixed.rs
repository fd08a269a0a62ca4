//! Arithmetic between a diagonal jet and a plain constant of the primal field, on
//! either side, the `Reading` impls that tie `DiagJet` to that field, and the
//! conversions generated code uses: the shared `mixed_impls!` in its second-order
//! form.

use core::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Rem, RemAssign, Sub, SubAssign};

use super::DiagJet;
use crate::reading::convert::{IntoReading, ToPrimal};
use crate::{Reading, Real};

mixed_impls!({DiagJet N}, value, with_value, map, second_order);
