//! `Lifted<P, N, V>` slots, the canonical forward value of each primal type, and the
//! accessors rules read slots through.
//!
//! The forward value `V` of a primal type `P` at width `N` is `<P as Dual<N>>::Value`
//! (the reference's `dual_type(N, P)`). A `Lifted` slot wraps exactly that value and
//! nothing else, so the primal is never stored twice. The mapping:
//!
//! | primal `P` | forward value `<P as Dual<N>>::Value` |
//! |---|---|
//! | `f64`, `f32` (and a reading `NDual<S, M>`, for nesting) | [`NDual<P, N>`](crate::NDual) |
//! | `Vec<f64>` | [`NDualArray<f64, N>`](crate::NDualArray) |
//! | `&'a [f64]` | [`NDualRef<'a, f64, N>`](crate::NDualRef) |
//! | `&'a mut [f64]` | [`NDualMut<'a, f64, N>`](crate::NDualMut) |
//! | `[T; K]` | `[T::Value; K]` (no allocation) |
//! | `(A, B, …)` (up to 12), `Option<T>`, `Result<T, E>` | element-wise: `(A::Value, B::Value, …)`, … |
//! | `Vec<T>`, `&[T]`, `&mut [T]` for other `T` | `Vec<T::Value>`, `&[T::Value]`, `&mut [T::Value]` |
//! | integers, `bool`, `char`, `()`, `String`, `&str` | the type itself, with a [`NoDual`] tangent |
//!
//! What `Vec<T>`, `&[T]` and `&mut [T]` become is chosen by the element, through
//! [`DualElem`]: scalars choose the split element-major arrays, every other element type
//! (tuples, fixed arrays, integers, …) an array of its forward values.

use core::fmt;
use core::marker::PhantomData;

use crate::array::LaneRef;
use crate::{NDual, NDualArray, NDualMut, NDualRef, Real};

/// The tangent of a value that has no derivative (integers, `bool`, strings, …): no
/// storage at all.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct NoDual;

/// Maps a primal type to its canonical forward value at chunk width `N` (see the table in
/// the module docs).
///
/// A rule never returns any other shape for a primal of type `Self`. The forward value
/// always holds the primal.
pub trait Dual<const N: usize> {
    /// The forward value: holds the primal and N tangent directions.
    type Value: ForwardValue;
}

/// A type that can be the element of a lifted array: it chooses the forward values of
/// `Vec<Self>`, `&[Self]` and `&mut [Self]`.
///
/// Scalars (`f64`, `f32`, nested `NDual`s) choose the element-major
/// [`NDualArray`] and its views, whose primal stays a genuine `&[S]`. Every other element
/// type chooses an array of its forward values (`Vec<Self::Value>`, `&[Self::Value]`,
/// `&mut [Self::Value]`); a user type with a generated dual struct implements it the same
/// way to be usable in a `Vec`.
pub trait DualElem<const N: usize>: Dual<N> {
    /// The forward value of `Vec<Self>`.
    type Vec: ForwardValue;
    /// The forward value of `&'a [Self]`.
    type Ref<'a>: ForwardValue
    where
        Self: 'a;
    /// The forward value of `&'a mut [Self]`.
    type Mut<'a>: ForwardValue
    where
        Self: 'a;
}

/// What every forward value offers: its primal, its tangent, one lane of the tangent.
/// Rules read slots through these (or the free functions [`primal`], [`tangent`],
/// [`tangent_lane`]), never through a layout, so layouts can change.
///
/// | forward value | `primal` | `tangent` | `tangent_lane(k)` |
/// |---|---|---|---|
/// | `NDual<S, N>` | `S` | `&[S; N]` | `S` |
/// | `NDualArray`, `NDualRef`, `NDualMut` | `&[S]` (the primal buffer, no copy) | `&[S]` (the element-major block) | [`LaneRef`] (stride-N view) |
/// | `[V; K]`, tuples, `Option`, `Result` | element-wise, no allocation | element-wise | element-wise |
/// | `Vec<V>`, `&[V]`, `&mut [V]` | `Vec` of the elements' | `Vec` of the elements' | `Vec` of the elements' |
/// | values without derivatives | `&Self` | [`NoDual`] | [`NoDual`] |
pub trait ForwardValue {
    /// The primal, as read from the value (a copy for scalars, a view for arrays).
    type Primal<'a>
    where
        Self: 'a;
    /// All N tangent directions (a reference or view where the data is large).
    type Tangent<'a>
    where
        Self: 'a;
    /// One tangent direction.
    type Lane<'a>
    where
        Self: 'a;
    /// The primal.
    fn primal(&self) -> Self::Primal<'_>;
    /// All tangent directions.
    fn tangent(&self) -> Self::Tangent<'_>;
    /// Tangent direction `lane`. Panics when `lane` is not below the width.
    fn tangent_lane(&self, lane: usize) -> Self::Lane<'_>;
}

/// Forward values that can be built from a primal with a zero tangent.
pub trait ZeroLift: ForwardValue + Sized {
    /// The primal type this is the forward value of.
    type From;
    /// The primal with every tangent direction zero.
    fn zero_lift(primal: Self::From) -> Self;
}

/// A forward-mode slot: primal type `P`, chunk width `N`, forward value `V` (always the
/// canonical `<P as Dual<N>>::Value`).
///
/// `Lifted` is a transparent wrapper: `size_of::<Lifted<f64, N>>()` is
/// `size_of::<[f64; N + 1]>()`.
///
/// ```
/// use lifted::{Lifted, primal, tangent_lane};
/// let x = Lifted::<f64, 2>::from_parts(1.5, [1.0, 0.0]);
/// assert_eq!(primal(&x), 1.5);
/// assert_eq!(tangent_lane(&x, 0), 1.0);
/// ```
#[repr(transparent)]
pub struct Lifted<P: ?Sized + Dual<N>, const N: usize, V = <P as Dual<N>>::Value> {
    value: V,
    primal_type: PhantomData<fn() -> P>,
}

impl<P: ?Sized + Dual<N>, const N: usize, V> Lifted<P, N, V> {
    /// Wraps a forward value.
    #[inline(always)]
    pub fn new(value: V) -> Self {
        Self {
            value,
            primal_type: PhantomData,
        }
    }
    /// The forward value.
    #[inline(always)]
    pub fn value(&self) -> &V {
        &self.value
    }
    /// The forward value, mutably.
    #[inline(always)]
    pub fn value_mut(&mut self) -> &mut V {
        &mut self.value
    }
    /// Unwraps the forward value.
    #[inline(always)]
    pub fn into_value(self) -> V {
        self.value
    }
}

impl<P: Dual<N>, const N: usize> Lifted<P, N>
where
    P::Value: ZeroLift<From = P>,
{
    /// The primal with a zero tangent in every direction.
    #[inline(always)]
    pub fn zero_lifted(primal: P) -> Self {
        Self::new(<P::Value as ZeroLift>::zero_lift(primal))
    }
}

impl<S: Real, const N: usize> Lifted<S, N>
where
    S: Dual<N, Value = NDual<S, N>>,
{
    /// A scalar slot from its primal and its N tangent directions.
    #[inline(always)]
    pub fn from_parts(primal: S, tangent: [S; N]) -> Self {
        Self::new(NDual::new(primal, tangent))
    }
}

impl<P: ?Sized + Dual<N>, const N: usize, V: Clone> Clone for Lifted<P, N, V> {
    fn clone(&self) -> Self {
        Self::new(self.value.clone())
    }
}
impl<P: ?Sized + Dual<N>, const N: usize, V: Copy> Copy for Lifted<P, N, V> {}

impl<P: ?Sized + Dual<N>, const N: usize, V: fmt::Debug> fmt::Debug for Lifted<P, N, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Lifted").field(&self.value).finish()
    }
}

/// The primal held by a slot.
#[inline(always)]
pub fn primal<P: ?Sized + Dual<N>, const N: usize, V: ForwardValue>(
    slot: &Lifted<P, N, V>,
) -> V::Primal<'_> {
    slot.value.primal()
}

/// All N tangent directions of a slot.
#[inline(always)]
pub fn tangent<P: ?Sized + Dual<N>, const N: usize, V: ForwardValue>(
    slot: &Lifted<P, N, V>,
) -> V::Tangent<'_> {
    slot.value.tangent()
}

/// Tangent direction `lane` of a slot.
#[inline(always)]
#[track_caller]
pub fn tangent_lane<P: ?Sized + Dual<N>, const N: usize, V: ForwardValue>(
    slot: &Lifted<P, N, V>,
    lane: usize,
) -> V::Lane<'_> {
    slot.value.tangent_lane(lane)
}

/// A zero-lifted slot: `primal` with every tangent direction zero.
#[inline(always)]
pub fn zero_lifted<P: Dual<N>, const N: usize>(primal: P) -> Lifted<P, N>
where
    P::Value: ZeroLift<From = P>,
{
    Lifted::zero_lifted(primal)
}

impl<S: Real, const N: usize> ForwardValue for NDual<S, N> {
    type Primal<'a> = S;
    type Tangent<'a> = &'a [S; N];
    type Lane<'a> = S;
    #[inline(always)]
    fn primal(&self) -> S {
        self.value()
    }
    #[inline(always)]
    fn tangent(&self) -> &[S; N] {
        self.partials()
    }
    #[inline(always)]
    #[track_caller]
    fn tangent_lane(&self, lane: usize) -> S {
        self.partial(lane)
    }
}

impl<S: Real, const N: usize> ZeroLift for NDual<S, N> {
    type From = S;
    #[inline(always)]
    fn zero_lift(primal: S) -> Self {
        NDual::constant(primal)
    }
}

/// Scalars: the forward value is an `NDual`, arrays of them are element-major.
macro_rules! scalar_dual {
    ([$($g:tt)*] $t:ty) => {
        impl<$($g)* const N: usize> Dual<N> for $t {
            type Value = NDual<$t, N>;
        }
        impl<$($g)* const N: usize> DualElem<N> for $t {
            type Vec = NDualArray<$t, N>;
            type Ref<'a> = NDualRef<'a, $t, N>;
            type Mut<'a> = NDualMut<'a, $t, N>;
        }
    };
}

scalar_dual!([] f64);
scalar_dual!([] f32);
scalar_dual!([S: Real, const M: usize,] NDual<S, M>);

impl<T: DualElem<N>, const N: usize> Dual<N> for Vec<T> {
    type Value = T::Vec;
}
impl<'a, T: DualElem<N>, const N: usize> Dual<N> for &'a [T] {
    type Value = T::Ref<'a>;
}
impl<'a, T: DualElem<N>, const N: usize> Dual<N> for &'a mut [T] {
    type Value = T::Mut<'a>;
}

/// The accessors of the element-major arrays: the primal buffer, the block, a lane.
macro_rules! array_forward_value {
    ($($ty:ty),*) => {$(
        impl<S: Real, const N: usize> ForwardValue for $ty {
            type Primal<'s>
                = &'s [S]
            where
                Self: 's;
            type Tangent<'s>
                = &'s [S]
            where
                Self: 's;
            type Lane<'s>
                = LaneRef<'s, S, N>
            where
                Self: 's;
            #[inline(always)]
            fn primal(&self) -> &[S] {
                self.as_primal_slice()
            }
            #[inline(always)]
            fn tangent(&self) -> &[S] {
                self.partials_block()
            }
            #[inline(always)]
            #[track_caller]
            fn tangent_lane(&self, lane: usize) -> LaneRef<'_, S, N> {
                self.lane(lane)
            }
        }
    )*};
}

array_forward_value!(NDualArray<S, N>, NDualRef<'_, S, N>, NDualMut<'_, S, N>);

impl<S: Real, const N: usize> ZeroLift for NDualArray<S, N> {
    type From = Vec<S>;
    #[inline]
    fn zero_lift(primal: Vec<S>) -> Self {
        NDualArray::constant(primal)
    }
}

/// Element types other than scalars: arrays of them are arrays of forward values.
macro_rules! elementwise_elem {
    ([$($g:tt)*] $t:ty) => {
        impl<$($g)* const N: usize> DualElem<N> for $t {
            type Vec = Vec<<$t as Dual<N>>::Value>;
            type Ref<'a>
                = &'a [<$t as Dual<N>>::Value]
            where
                Self: 'a;
            type Mut<'a>
                = &'a mut [<$t as Dual<N>>::Value]
            where
                Self: 'a;
        }
    };
}

/// Arrays of forward values: element-wise accessors, collected.
macro_rules! elementwise_array_forward_value {
    ($([$($g:tt)*] $ty:ty),*) => {$(
        impl<$($g)* V: ForwardValue> ForwardValue for $ty {
            type Primal<'s>
                = Vec<V::Primal<'s>>
            where
                Self: 's;
            type Tangent<'s>
                = Vec<V::Tangent<'s>>
            where
                Self: 's;
            type Lane<'s>
                = Vec<V::Lane<'s>>
            where
                Self: 's;
            fn primal(&self) -> Self::Primal<'_> {
                self.iter().map(V::primal).collect()
            }
            fn tangent(&self) -> Self::Tangent<'_> {
                self.iter().map(V::tangent).collect()
            }
            #[track_caller]
            fn tangent_lane(&self, lane: usize) -> Self::Lane<'_> {
                self.iter().map(|v| v.tangent_lane(lane)).collect()
            }
        }
    )*};
}

elementwise_array_forward_value!([] Vec<V>, ['a,] &'a [V], ['a,] &'a mut [V]);

impl<V: ZeroLift> ZeroLift for Vec<V> {
    type From = Vec<V::From>;
    fn zero_lift(primal: Vec<V::From>) -> Self {
        primal.into_iter().map(V::zero_lift).collect()
    }
}

elementwise_elem!([T: DualElem<N>,] Vec<T>);

impl<T: Dual<N>, const K: usize, const N: usize> Dual<N> for [T; K] {
    type Value = [T::Value; K];
}
elementwise_elem!([T: Dual<N>, const K: usize,] [T; K]);

impl<V: ForwardValue, const K: usize> ForwardValue for [V; K] {
    type Primal<'s>
        = [V::Primal<'s>; K]
    where
        Self: 's;
    type Tangent<'s>
        = [V::Tangent<'s>; K]
    where
        Self: 's;
    type Lane<'s>
        = [V::Lane<'s>; K]
    where
        Self: 's;
    #[inline]
    fn primal(&self) -> Self::Primal<'_> {
        core::array::from_fn(|i| self[i].primal())
    }
    #[inline]
    fn tangent(&self) -> Self::Tangent<'_> {
        core::array::from_fn(|i| self[i].tangent())
    }
    #[inline]
    #[track_caller]
    fn tangent_lane(&self, lane: usize) -> Self::Lane<'_> {
        core::array::from_fn(|i| self[i].tangent_lane(lane))
    }
}

impl<V: ZeroLift, const K: usize> ZeroLift for [V; K] {
    type From = [V::From; K];
    #[inline]
    fn zero_lift(primal: [V::From; K]) -> Self {
        primal.map(V::zero_lift)
    }
}

impl<T: Dual<N>, const N: usize> Dual<N> for Option<T> {
    type Value = Option<T::Value>;
}
elementwise_elem!([T: Dual<N>,] Option<T>);

impl<V: ForwardValue> ForwardValue for Option<V> {
    type Primal<'s>
        = Option<V::Primal<'s>>
    where
        Self: 's;
    type Tangent<'s>
        = Option<V::Tangent<'s>>
    where
        Self: 's;
    type Lane<'s>
        = Option<V::Lane<'s>>
    where
        Self: 's;
    #[inline]
    fn primal(&self) -> Self::Primal<'_> {
        self.as_ref().map(V::primal)
    }
    #[inline]
    fn tangent(&self) -> Self::Tangent<'_> {
        self.as_ref().map(V::tangent)
    }
    #[inline]
    #[track_caller]
    fn tangent_lane(&self, lane: usize) -> Self::Lane<'_> {
        self.as_ref().map(|v| v.tangent_lane(lane))
    }
}

impl<V: ZeroLift> ZeroLift for Option<V> {
    type From = Option<V::From>;
    #[inline]
    fn zero_lift(primal: Option<V::From>) -> Self {
        primal.map(V::zero_lift)
    }
}

impl<T: Dual<N>, E: Dual<N>, const N: usize> Dual<N> for Result<T, E> {
    type Value = Result<T::Value, E::Value>;
}
elementwise_elem!([T: Dual<N>, E: Dual<N>,] Result<T, E>);

impl<V: ForwardValue, W: ForwardValue> ForwardValue for Result<V, W> {
    type Primal<'s>
        = Result<V::Primal<'s>, W::Primal<'s>>
    where
        Self: 's;
    type Tangent<'s>
        = Result<V::Tangent<'s>, W::Tangent<'s>>
    where
        Self: 's;
    type Lane<'s>
        = Result<V::Lane<'s>, W::Lane<'s>>
    where
        Self: 's;
    #[inline]
    fn primal(&self) -> Self::Primal<'_> {
        self.as_ref().map(V::primal).map_err(W::primal)
    }
    #[inline]
    fn tangent(&self) -> Self::Tangent<'_> {
        self.as_ref().map(V::tangent).map_err(W::tangent)
    }
    #[inline]
    #[track_caller]
    fn tangent_lane(&self, lane: usize) -> Self::Lane<'_> {
        self.as_ref()
            .map(|v| v.tangent_lane(lane))
            .map_err(|w| w.tangent_lane(lane))
    }
}

impl<V: ZeroLift, W: ZeroLift> ZeroLift for Result<V, W> {
    type From = Result<V::From, W::From>;
    #[inline]
    fn zero_lift(primal: Result<V::From, W::From>) -> Self {
        primal.map(V::zero_lift).map_err(W::zero_lift)
    }
}

/// Tuples: element-wise, up to 12 elements.
macro_rules! tuple_dual {
    ($($T:ident $i:tt),*) => {
        impl<const N: usize, $($T: Dual<N>),*> Dual<N> for ($($T,)*) {
            type Value = ($($T::Value,)*);
        }
        elementwise_elem!([$($T: Dual<N>,)*] ($($T,)*));

        impl<$($T: ForwardValue),*> ForwardValue for ($($T,)*) {
            type Primal<'s>
                = ($($T::Primal<'s>,)*)
            where
                Self: 's;
            type Tangent<'s>
                = ($($T::Tangent<'s>,)*)
            where
                Self: 's;
            type Lane<'s>
                = ($($T::Lane<'s>,)*)
            where
                Self: 's;
            #[inline]
            fn primal(&self) -> Self::Primal<'_> {
                ($(self.$i.primal(),)*)
            }
            #[inline]
            fn tangent(&self) -> Self::Tangent<'_> {
                ($(self.$i.tangent(),)*)
            }
            #[inline]
            #[track_caller]
            fn tangent_lane(&self, lane: usize) -> Self::Lane<'_> {
                ($(self.$i.tangent_lane(lane),)*)
            }
        }

        impl<$($T: ZeroLift),*> ZeroLift for ($($T,)*) {
            type From = ($($T::From,)*);
            #[inline]
            fn zero_lift(primal: Self::From) -> Self {
                ($($T::zero_lift(primal.$i),)*)
            }
        }
    };
}

tuple_dual!(A 0);
tuple_dual!(A 0, B 1);
tuple_dual!(A 0, B 1, C 2);
tuple_dual!(A 0, B 1, C 2, E 3);
tuple_dual!(A 0, B 1, C 2, E 3, G 4);
tuple_dual!(A 0, B 1, C 2, E 3, G 4, H 5);
tuple_dual!(A 0, B 1, C 2, E 3, G 4, H 5, I 6);
tuple_dual!(A 0, B 1, C 2, E 3, G 4, H 5, I 6, J 7);
tuple_dual!(A 0, B 1, C 2, E 3, G 4, H 5, I 6, J 7, K 8);
tuple_dual!(A 0, B 1, C 2, E 3, G 4, H 5, I 6, J 7, K 8, L 9);
tuple_dual!(A 0, B 1, C 2, E 3, G 4, H 5, I 6, J 7, K 8, L 9, M 10);
tuple_dual!(A 0, B 1, C 2, E 3, G 4, H 5, I 6, J 7, K 8, L 9, M 10, O 11);

/// Types without derivatives are their own forward value, with a [`NoDual`] tangent.
macro_rules! inert {
    ($([$($g:tt)*] $t:ty),* $(,)?) => {$(
        impl<$($g)* const N: usize> Dual<N> for $t {
            type Value = $t;
        }
        elementwise_elem!([$($g)*] $t);
        impl<$($g)*> ForwardValue for $t {
            type Primal<'s>
                = &'s $t
            where
                Self: 's;
            type Tangent<'s>
                = NoDual
            where
                Self: 's;
            type Lane<'s>
                = NoDual
            where
                Self: 's;
            #[inline(always)]
            fn primal(&self) -> &$t {
                self
            }
            #[inline(always)]
            fn tangent(&self) -> NoDual {
                NoDual
            }
            #[inline(always)]
            fn tangent_lane(&self, _lane: usize) -> NoDual {
                NoDual
            }
        }
        impl<$($g)*> ZeroLift for $t {
            type From = $t;
            #[inline(always)]
            fn zero_lift(primal: $t) -> $t {
                primal
            }
        }
    )*};
}

inert!(
    [] i8,
    [] i16,
    [] i32,
    [] i64,
    [] i128,
    [] isize,
    [] u8,
    [] u16,
    [] u32,
    [] u64,
    [] u128,
    [] usize,
    [] bool,
    [] char,
    [] (),
    [] String,
    ['t,] &'t str,
);
