//! `num-traits` for `ZDual`: the shared impls of `crate::shared_impls`.

use core::num::FpCategory;

use num_traits::{Float, FloatConst, FromPrimitive, Num, NumCast, Signed, ToPrimitive};

use super::ZDual;
use crate::Real;

num_traits_impls!(ZDual);
