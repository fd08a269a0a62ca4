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

mod containers;
mod inert;
mod scalar;

use core::fmt;
use core::marker::PhantomData;

use crate::{NDual, Real};

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
/// [`NDualArray`](crate::NDualArray) and its views, whose primal stays a genuine `&[S]`. Every other element
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
/// | `NDualArray`, `NDualRef`, `NDualMut` | `&[S]` (the primal buffer, no copy) | `&[S]` (the element-major block) | [`LaneRef`](crate::array::LaneRef) (stride-N view) |
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
