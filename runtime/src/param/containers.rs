//! Containers: `Vec<T>` (its forward value chosen by the element), fixed arrays,
//! `Option`, `Result`, tuples, and `Constant`, which is never lifted.

use core::ops::Range;

use crate::param::{Param, ParamElem};
use crate::rule::Constant;
use crate::{Reading, Scalar};

/// `Vec<Lifted<T, D>>`: each element lifted in order (the forward value of a `Vec` of
/// an element that is not a float).
#[doc(hidden)]
pub fn lift_each<F: Scalar, T: Param<F>, D: Reading<F>>(
    v: &[T],
    seed: &mut impl FnMut(F) -> D,
) -> Vec<T::Store<D>> {
    v.iter().map(|x| x.lift(seed)).collect()
}

/// [`lift_each`] into an earlier lift, element by element where the lengths agree.
#[doc(hidden)]
pub fn relift_each<F: Scalar, T: Param<F>, D: Reading<F>>(
    v: &[T],
    store: &mut Vec<T::Store<D>>,
    seed: &mut impl FnMut(F) -> D,
) {
    if store.len() == v.len() {
        for (x, s) in v.iter().zip(store.iter_mut()) {
            x.relift(s, seed);
        }
    } else {
        *store = lift_each(v, seed);
    }
}

/// Visits each element's degrees of freedom in order.
#[doc(hidden)]
pub fn visit_each<F: Scalar, T: Param<F>, D: Reading<F>>(
    store: &[T::Store<D>],
    f: &mut impl FnMut(D),
) {
    for s in store {
        T::visit(s, f);
    }
}

/// The primal elements of a `Vec` lifted element by element.
#[doc(hidden)]
pub fn primal_of_each<F: Scalar, T: Param<F>, D: Reading<F>>(store: &[T::Store<D>]) -> Vec<T> {
    store.iter().map(T::primal_of).collect()
}

/// `ParamElem` for an element type whose `Vec` holds its forward values one by one.
macro_rules! elementwise_elem {
    ({$($gen:tt)*} $t:ty) => {
        impl<$($gen)*> ParamElem<F> for $t {
            type VecStore<D: Reading<F>> = Vec<<$t as Param<F>>::Store<D>>;
            fn lift_vec<D: Reading<F>>(
                v: &[Self],
                seed: &mut impl FnMut(F) -> D,
            ) -> Self::VecStore<D> {
                $crate::param::containers::lift_each(v, seed)
            }
            fn relift_vec<D: Reading<F>>(
                v: &[Self],
                store: &mut Self::VecStore<D>,
                seed: &mut impl FnMut(F) -> D,
            ) {
                $crate::param::containers::relift_each(v, store, seed);
            }
            fn visit_vec<D: Reading<F>>(store: &Self::VecStore<D>, f: &mut impl FnMut(D)) {
                $crate::param::containers::visit_each::<F, Self, D>(store, f);
            }
            fn primal_of_vec<D: Reading<F>>(store: &Self::VecStore<D>) -> Vec<Self> {
                $crate::param::containers::primal_of_each::<F, Self, D>(store)
            }
        }
    };
}

impl<F: Scalar, T: ParamElem<F>> Param<F> for Vec<T> {
    type Store<D: Reading<F>> = T::VecStore<D>;
    fn dim(&self) -> usize {
        T::dim_vec(self)
    }
    #[inline]
    fn lift<D: Reading<F>>(&self, seed: &mut impl FnMut(F) -> D) -> Self::Store<D> {
        T::lift_vec(self, seed)
    }
    #[inline]
    fn relift<D: Reading<F>>(&self, store: &mut Self::Store<D>, seed: &mut impl FnMut(F) -> D) {
        T::relift_vec(self, store, seed);
    }
    #[inline]
    fn relift_values<D: Reading<F>>(
        &self,
        store: &mut Self::Store<D>,
        seed: &mut impl FnMut(F) -> D,
    ) {
        T::relift_vec_values(self, store, seed);
    }
    #[inline]
    fn relift_range<D: Reading<F>>(
        &self,
        store: &mut Self::Store<D>,
        range: Range<usize>,
        seed: &mut impl FnMut(usize, F) -> D,
    ) {
        T::relift_vec_range(self, store, range, seed);
    }
    fn visit<D: Reading<F>>(store: &Self::Store<D>, f: &mut impl FnMut(D)) {
        T::visit_vec(store, f);
    }
    fn primal_of<D: Reading<F>>(store: &Self::Store<D>) -> Self {
        T::primal_of_vec(store)
    }
    fn flatten(&self, out: &mut Vec<F>) {
        T::flatten_vec(self, out);
    }
    fn unflatten(&mut self, from: &mut impl Iterator<Item = F>) {
        T::unflatten_vec(self, from);
    }
}

elementwise_elem!({F: Scalar, T: ParamElem<F>} Vec<T>);

impl<F: Scalar, T: Param<F>, const K: usize> Param<F> for [T; K] {
    type Store<D: Reading<F>> = [T::Store<D>; K];
    fn dim(&self) -> usize {
        self.iter().map(T::dim).sum()
    }
    fn lift<D: Reading<F>>(&self, seed: &mut impl FnMut(F) -> D) -> Self::Store<D> {
        core::array::from_fn(|i| self[i].lift(seed))
    }
    fn relift<D: Reading<F>>(&self, store: &mut Self::Store<D>, seed: &mut impl FnMut(F) -> D) {
        for (x, s) in self.iter().zip(store.iter_mut()) {
            x.relift(s, seed);
        }
    }
    fn visit<D: Reading<F>>(store: &Self::Store<D>, f: &mut impl FnMut(D)) {
        for s in store {
            T::visit(s, f);
        }
    }
    fn primal_of<D: Reading<F>>(store: &Self::Store<D>) -> Self {
        core::array::from_fn(|i| T::primal_of(&store[i]))
    }
    fn flatten(&self, out: &mut Vec<F>) {
        for x in self {
            x.flatten(out);
        }
    }
    fn unflatten(&mut self, from: &mut impl Iterator<Item = F>) {
        for x in self {
            x.unflatten(from);
        }
    }
}

elementwise_elem!({F: Scalar, T: Param<F>, const K: usize} [T; K]);

impl<F: Scalar, T: Clone> Param<F> for Constant<T> {
    type Store<D: Reading<F>> = T;
    #[inline(always)]
    fn dim(&self) -> usize {
        0
    }
    #[inline(always)]
    fn lift<D: Reading<F>>(&self, _seed: &mut impl FnMut(F) -> D) -> T {
        self.0.clone()
    }
    #[inline(always)]
    fn visit<D: Reading<F>>(_store: &T, _f: &mut impl FnMut(D)) {}
    #[inline(always)]
    fn primal_of<D: Reading<F>>(store: &T) -> Self {
        Constant(store.clone())
    }
    fn flatten(&self, _out: &mut Vec<F>) {}
    fn unflatten(&mut self, _from: &mut impl Iterator<Item = F>) {}
}

impl<F: Scalar, T: Param<F>> Param<F> for Option<T> {
    type Store<D: Reading<F>> = Option<T::Store<D>>;
    fn dim(&self) -> usize {
        self.as_ref().map_or(0, T::dim)
    }
    fn lift<D: Reading<F>>(&self, seed: &mut impl FnMut(F) -> D) -> Self::Store<D> {
        self.as_ref().map(|t| t.lift(seed))
    }
    fn visit<D: Reading<F>>(store: &Self::Store<D>, f: &mut impl FnMut(D)) {
        if let Some(s) = store {
            T::visit(s, f);
        }
    }
    fn primal_of<D: Reading<F>>(store: &Self::Store<D>) -> Self {
        store.as_ref().map(T::primal_of)
    }
    fn flatten(&self, out: &mut Vec<F>) {
        if let Some(t) = self {
            t.flatten(out);
        }
    }
    fn unflatten(&mut self, from: &mut impl Iterator<Item = F>) {
        if let Some(t) = self {
            t.unflatten(from);
        }
    }
}

elementwise_elem!({F: Scalar, T: Param<F>} Option<T>);

impl<F: Scalar, T: Param<F>, E: Param<F>> Param<F> for Result<T, E> {
    type Store<D: Reading<F>> = Result<T::Store<D>, E::Store<D>>;
    fn dim(&self) -> usize {
        match self {
            Ok(t) => t.dim(),
            Err(e) => e.dim(),
        }
    }
    fn lift<D: Reading<F>>(&self, seed: &mut impl FnMut(F) -> D) -> Self::Store<D> {
        match self {
            Ok(t) => Ok(t.lift(seed)),
            Err(e) => Err(e.lift(seed)),
        }
    }
    fn visit<D: Reading<F>>(store: &Self::Store<D>, f: &mut impl FnMut(D)) {
        match store {
            Ok(t) => T::visit(t, f),
            Err(e) => E::visit(e, f),
        }
    }
    fn primal_of<D: Reading<F>>(store: &Self::Store<D>) -> Self {
        match store {
            Ok(t) => Ok(T::primal_of(t)),
            Err(e) => Err(E::primal_of(e)),
        }
    }
    fn flatten(&self, out: &mut Vec<F>) {
        match self {
            Ok(t) => t.flatten(out),
            Err(e) => e.flatten(out),
        }
    }
    fn unflatten(&mut self, from: &mut impl Iterator<Item = F>) {
        match self {
            Ok(t) => t.unflatten(from),
            Err(e) => e.unflatten(from),
        }
    }
}

elementwise_elem!({F: Scalar, T: Param<F>, E: Param<F>} Result<T, E>);

macro_rules! tuple_param {
    ($($T:ident $i:tt),*) => {
        impl<F: Scalar, $($T: Param<F>),*> Param<F> for ($($T,)*) {
            type Store<D: Reading<F>> = ($($T::Store<D>,)*);
            fn dim(&self) -> usize {
                0 $(+ self.$i.dim())*
            }
            #[allow(unused_variables)]
            fn lift<D: Reading<F>>(&self, seed: &mut impl FnMut(F) -> D) -> Self::Store<D> {
                ($(self.$i.lift(seed),)*)
            }
            #[allow(unused_variables)]
            fn relift<D: Reading<F>>(&self, store: &mut Self::Store<D>, seed: &mut impl FnMut(F) -> D) {
                $(self.$i.relift(&mut store.$i, seed);)*
            }
            #[allow(unused_variables)]
            fn relift_values<D: Reading<F>>(
                &self,
                store: &mut Self::Store<D>,
                seed: &mut impl FnMut(F) -> D,
            ) {
                $(self.$i.relift_values(&mut store.$i, seed);)*
            }
            #[allow(unused_variables, unused_mut, unused_assignments)]
            fn relift_range<D: Reading<F>>(
                &self,
                store: &mut Self::Store<D>,
                range: Range<usize>,
                seed: &mut impl FnMut(usize, F) -> D,
            ) {
                // Each component's slice of `range`, its indices shifted to the
                // component's own.
                let mut offset = 0;
                $(
                    let dim = self.$i.dim();
                    let (start, end) = (range.start.max(offset), range.end.min(offset + dim));
                    if start < end {
                        let base = offset;
                        self.$i.relift_range(
                            &mut store.$i,
                            start - base..end - base,
                            &mut |k, x| seed(base + k, x),
                        );
                    }
                    offset += dim;
                )*
            }
            #[allow(unused_variables)]
            fn visit<D: Reading<F>>(store: &Self::Store<D>, f: &mut impl FnMut(D)) {
                $($T::visit(&store.$i, f);)*
            }
            #[allow(unused_variables, clippy::unused_unit)]
            fn primal_of<D: Reading<F>>(store: &Self::Store<D>) -> Self {
                ($($T::primal_of(&store.$i),)*)
            }
            #[allow(unused_variables)]
            fn flatten(&self, out: &mut Vec<F>) {
                $(self.$i.flatten(out);)*
            }
            #[allow(unused_variables)]
            fn unflatten(&mut self, from: &mut impl Iterator<Item = F>) {
                $(self.$i.unflatten(from);)*
            }
        }

        elementwise_elem!({F: Scalar, $($T: Param<F>),*} ($($T,)*));
    };
}

tuple_param!(A 0);
tuple_param!(A 0, B 1);
tuple_param!(A 0, B 1, C 2);
tuple_param!(A 0, B 1, C 2, E 3);
tuple_param!(A 0, B 1, C 2, E 3, G 4);
tuple_param!(A 0, B 1, C 2, E 3, G 4, H 5);
tuple_param!(A 0, B 1, C 2, E 3, G 4, H 5, I 6);
tuple_param!(A 0, B 1, C 2, E 3, G 4, H 5, I 6, J 7);
tuple_param!(A 0, B 1, C 2, E 3, G 4, H 5, I 6, J 7, K 8);
tuple_param!(A 0, B 1, C 2, E 3, G 4, H 5, I 6, J 7, K 8, L 9);
tuple_param!(A 0, B 1, C 2, E 3, G 4, H 5, I 6, J 7, K 8, L 9, M 10);
tuple_param!(A 0, B 1, C 2, E 3, G 4, H 5, I 6, J 7, K 8, L 9, M 10, O 11);
