//! Values without derivatives: their own forward value, no degrees of freedom; a `Vec`
//! of them is itself too.

use crate::param::{Param, ParamElem};
use crate::{Reading, Scalar};

macro_rules! inert_param {
    ($($t:ty),* $(,)?) => {$(
        impl<F: Scalar> Param<F> for $t {
            type Store<D: Reading<F>> = $t;
            #[inline(always)]
            fn dim(&self) -> usize {
                0
            }
            #[inline(always)]
            fn lift<D: Reading<F>>(&self, _seed: &mut impl FnMut(F) -> D) -> $t {
                self.clone()
            }
            #[inline(always)]
            fn visit<D: Reading<F>>(_store: &$t, _f: &mut impl FnMut(D)) {}
            #[inline(always)]
            fn primal_of<D: Reading<F>>(store: &$t) -> Self {
                store.clone()
            }
            fn flatten(&self, _out: &mut Vec<F>) {}
            fn unflatten(&mut self, _from: &mut impl Iterator<Item = F>) {}
        }

        impl<F: Scalar> ParamElem<F> for $t {
            type VecStore<D: Reading<F>> = Vec<$t>;
            fn lift_vec<D: Reading<F>>(v: &[$t], _seed: &mut impl FnMut(F) -> D) -> Vec<$t> {
                v.to_vec()
            }
            fn visit_vec<D: Reading<F>>(_store: &Vec<$t>, _f: &mut impl FnMut(D)) {}
            fn primal_of_vec<D: Reading<F>>(store: &Vec<$t>) -> Vec<$t> {
                store.clone()
            }
            fn dim_vec(_v: &[$t]) -> usize {
                0
            }
            fn flatten_vec(_v: &[$t], _out: &mut Vec<F>) {}
            fn unflatten_vec(_v: &mut [$t], _from: &mut impl Iterator<Item = F>) {}
        }
    )*};
}

inert_param!(
    i8,
    i16,
    i32,
    i64,
    i128,
    isize,
    u8,
    u16,
    u32,
    u64,
    u128,
    usize,
    bool,
    char,
    (),
    String,
    &'static str,
    crate::linalg::LinalgError,
);
