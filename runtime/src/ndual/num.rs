//! `num-traits` for `NDual`: the shared impls of `crate::shared_impls`.

use core::num::FpCategory;

use num_traits::{Float, FloatConst, FromPrimitive, Num, NumCast, Signed, ToPrimitive};

use super::NDual;
use crate::Real;

num_traits_impls!(NDual);
