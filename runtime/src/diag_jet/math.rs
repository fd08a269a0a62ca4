//! The float method surface of `DiagJet`: the value by the primal method, the
//! partials from the function's first two derivatives at the value
//! (`ȧ′ = f′ ȧ`, `ä′ = f′ ä + f″ ȧ²`), every function read from the derivative table
//! through the second-order surface `HyperDual` shares (`reading::second_order`).

use super::DiagJet;
use crate::Real;

second_order_real!({DiagJet N});
