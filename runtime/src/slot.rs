//! `Lifted<P, N, V>` slots, the canonical forward value of each primal type, and the
//! accessors rules read slots through.
//!
//! The forward value `V` of a primal type `P` at width `N` is `<P as Dual<N>>::Value`
//! (the reference's `dual_type(N, P)`): `NDual<f64, N>` for `f64`, the type itself for
//! integers and other values without derivatives (they hold their primal and a
//! [`NoDual`] tangent), element-wise for tuples and fixed arrays. A `Lifted` slot wraps
//! exactly that value and nothing else, so the primal is never stored twice.

use core::fmt;
use core::marker::PhantomData;

use crate::{NDual, Real};

/// The tangent of a value that has no derivative (integers, `bool`, strings, …): no
/// storage at all.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct NoDual;

/// Maps a primal type to its canonical forward value at chunk width `N`.
///
/// A rule never returns any other shape for a primal of type `Self`.
pub trait Dual<const N: usize> {
    /// The forward value: holds the primal and N tangent directions.
    type Value: ForwardValue;
}

/// What every forward value offers: its primal, its tangent, one lane of the tangent.
/// Rules read slots through these (or the free functions [`primal`], [`tangent`],
/// [`tangent_lane`]), never through a layout, so layouts can change.
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

impl<const N: usize> Dual<N> for f64 {
    type Value = NDual<f64, N>;
}
impl<const N: usize> Dual<N> for f32 {
    type Value = NDual<f32, N>;
}
impl<S: Real, const M: usize, const N: usize> Dual<N> for NDual<S, M> {
    type Value = NDual<NDual<S, M>, N>;
}

/// Types without derivatives are their own forward value, with a [`NoDual`] tangent.
macro_rules! inert {
    ($($t:ty),* $(,)?) => {$(
        impl<const N: usize> Dual<N> for $t {
            type Value = $t;
        }
        impl ForwardValue for $t {
            type Primal<'a> = &'a $t;
            type Tangent<'a> = NoDual;
            type Lane<'a> = NoDual;
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
        impl ZeroLift for $t {
            type From = $t;
            #[inline(always)]
            fn zero_lift(primal: $t) -> $t {
                primal
            }
        }
    )*};
}

inert!(
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
    &'static str
);
