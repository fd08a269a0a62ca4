//! `num-traits` for `HyperDual`: the shared impls of `crate::shared_impls`.

use core::num::FpCategory;

use num_traits::{Float, FloatConst, FromPrimitive, Num, NumCast, Signed, ToPrimitive};

use super::HyperDual;
use crate::Real;

num_traits_impls!(HyperDual<S>);
