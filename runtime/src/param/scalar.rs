//! The floats: a float is its reading's value, and chooses the reading's owned array as
//! the forward value of a `Vec` of floats.

use crate::Reading;
use core::ops::Range;

use crate::array::{ArrayOwned, ArrayRead, ArrayWrite};
use crate::param::{Param, ParamElem, counted};

macro_rules! scalar_param {
    ($f:ident) => {
        impl Param<$f> for $f {
            type Store<D: Reading<$f>> = D;
            #[inline(always)]
            fn dim(&self) -> usize {
                1
            }
            #[inline(always)]
            fn lift<D: Reading<$f>>(&self, seed: &mut impl FnMut($f) -> D) -> D {
                seed(*self)
            }
            #[inline(always)]
            fn relift_range<D: Reading<$f>>(
                &self,
                store: &mut D,
                range: Range<usize>,
                seed: &mut impl FnMut(usize, $f) -> D,
            ) {
                if range.contains(&0) {
                    *store = seed(0, *self);
                }
            }
            #[inline(always)]
            fn visit<D: Reading<$f>>(store: &D, f: &mut impl FnMut(D)) {
                f(*store)
            }
            #[inline(always)]
            fn primal_of<D: Reading<$f>>(store: &D) -> Self {
                store.primal_scalar()
            }
            fn flatten(&self, out: &mut Vec<$f>) {
                out.push(*self);
            }
            fn unflatten(&mut self, from: &mut impl Iterator<Item = $f>) {
                if let Some(v) = from.next() {
                    *self = v;
                }
            }
        }

        impl ParamElem<$f> for $f {
            type VecStore<D: Reading<$f>> = D::Vec;
            // `extend_map` rather than `push` per element: the array sizes itself once
            // and writes the elements in place (drivers lift every pass this way).
            #[inline]
            fn lift_vec<D: Reading<$f>>(v: &[$f], seed: &mut impl FnMut($f) -> D) -> D::Vec {
                let mut out = D::Vec::with_capacity(v.len());
                out.extend_map(v, seed);
                out
            }
            #[inline]
            fn relift_vec<D: Reading<$f>>(
                v: &[$f],
                store: &mut D::Vec,
                seed: &mut impl FnMut($f) -> D,
            ) {
                // In place at the same length: the buffers are neither cleared nor
                // zero-filled before they are written.
                if store.len() == v.len() {
                    for (k, &x) in v.iter().enumerate() {
                        store.set(k, seed(x));
                    }
                } else {
                    store.clear();
                    store.extend_map(v, seed);
                }
            }
            #[inline]
            fn relift_vec_values<D: Reading<$f>>(
                v: &[$f],
                store: &mut D::Vec,
                seed: &mut impl FnMut($f) -> D,
            ) {
                store.refill_values(v, seed);
            }
            fn relift_vec_range<D: Reading<$f>>(
                v: &[$f],
                store: &mut D::Vec,
                range: Range<usize>,
                seed: &mut impl FnMut(usize, $f) -> D,
            ) {
                if store.len() != v.len() {
                    Self::relift_vec(v, store, &mut counted(seed));
                    return;
                }
                for k in range.start..range.end.min(v.len()) {
                    store.set(k, seed(k, v[k]));
                }
            }
            fn visit_vec<D: Reading<$f>>(store: &D::Vec, f: &mut impl FnMut(D)) {
                for i in 0..store.len() {
                    f(store.get(i));
                }
            }
            fn primal_of_vec<D: Reading<$f>>(store: &D::Vec) -> Vec<$f> {
                (0..store.len())
                    .map(|i| store.get(i).primal_scalar())
                    .collect()
            }
            #[inline]
            fn dim_vec(v: &[$f]) -> usize {
                v.len()
            }
            fn flatten_vec(v: &[$f], out: &mut Vec<$f>) {
                out.extend_from_slice(v);
            }
            fn unflatten_vec(v: &mut [$f], from: &mut impl Iterator<Item = $f>) {
                for (x, y) in v.iter_mut().zip(from) {
                    *x = y;
                }
            }
        }
    };
}

scalar_param!(f64);
scalar_param!(f32);
