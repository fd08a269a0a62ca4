//! `num-traits` for `Pattern`: the shared impls of `crate::shared_impls`.

use core::num::FpCategory;

use num_traits::{Float, FloatConst, FromPrimitive, Num, NumCast, Signed, ToPrimitive};

use super::Pattern;
use crate::Real;

num_traits_impls!(Pattern<S>);
