//! Reading the parts of a forward value at an `NDual` reading: [`ForwardValue`] gives
//! the primal, the N tangent directions and one direction of any
//! [`Lifted<P, NDual<F, N>>`](crate::Lifted) (scalars, arrays, containers), without
//! naming its layout.
//!
//! ```
//! use lifted::{NDual, Param, primal, tangent_lane};
//! let v = vec![[1.0, 2.0], [3.0, 4.0]];
//! let mut k = 0.0;
//! // Seed every degree of freedom with its index in lane 0.
//! let x = v.lift::<NDual<f64, 1>>(&mut |p| {
//!     k += 1.0;
//!     NDual::new(p, [k])
//! });
//! assert_eq!(primal(&x), vec![[1.0, 2.0], [3.0, 4.0]]);
//! assert_eq!(tangent_lane(&x, 0), vec![[1.0, 2.0], [3.0, 4.0]]);
//! ```

mod containers;
mod inert;
mod scalar;

/// The tangent of a value that has no derivative (integers, `bool`, strings, …): no
/// storage at all.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct NoDual;

/// What every forward value at an `NDual` reading offers: its primal, its tangent, one
/// lane of the tangent. Read forward values through these (or the free functions
/// [`primal`], [`tangent`], [`tangent_lane`]), never through a layout, so layouts can
/// change.
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

/// The primal of a forward value.
#[inline(always)]
pub fn primal<V: ForwardValue>(value: &V) -> V::Primal<'_> {
    value.primal()
}

/// All N tangent directions of a forward value.
#[inline(always)]
pub fn tangent<V: ForwardValue>(value: &V) -> V::Tangent<'_> {
    value.tangent()
}

/// Tangent direction `lane` of a forward value.
#[inline(always)]
#[track_caller]
pub fn tangent_lane<V: ForwardValue>(value: &V, lane: usize) -> V::Lane<'_> {
    value.tangent_lane(lane)
}
