//! The float method surface of `HyperDual`: the value by the primal method, the parts
//! from the function's first two derivatives at the value (`eᵢ′ = f′ eᵢ`,
//! `e12′ = f′ e12 + f″ e1 e2`), every function read from the derivative table through
//! the second-order surface `DiagJet` shares (`reading::second_order`).

use super::HyperDual;
use crate::Real;

second_order_real!({ HyperDual });
