//! The array layer: the arrays of every reading, and what the array primitives
//! ([`crate::linalg`], [`crate::elementwise`]) accept and may run elsewhere.
//!
//! It sits on the scalar layer ([`Real`]) and below everything that handles arrays. Its
//! root is [`ArrayReading`] (each reading's array types); the operand traits
//! ([`Operand`], [`OwnedOperand`]) say what a primitive takes, [`Placement`] where an
//! operand lives, and [`ArrayOp`] is a whole-array operation a reading may run
//! elsewhere (the CUDA reading runs it on the device). These refer to each other, so
//! they are one module, split into files by responsibility.
//!
//! Generated code names array types only through [`ArrayReading`]`::{Vec, Ref, Mut}` and these traits,
//! never a concrete array type, so a new reading (a device array, say) brings its own
//! arrays without macro changes. Every operation a derived rule performs on an array is a
//! method of one of these traits, implemented both for the primal reading (`Vec<f64>`,
//! `&[f64]`, `&mut [f64]`, and the same for `f32`) and for
//! [`NDual<S, N>`](crate::NDual) ([`NDualArray`],
//! [`NDualRef`], [`NDualMut`]).
//!
//! The array vocabulary:
//!
//! | trait | implemented by | what it adds |
//! |---|---|---|
//! | [`ArrayRead<D>`] | anything holding `D`s, views, owned arrays, `[D]`, `[D; K]`, `&T` | `len`, `is_empty`, `get` (gather), `first`, `last` |
//! | [`ArrayWrite<D>`] | mutable views, owned arrays, `[D]`, `&mut T` | `set` (scatter), `swap` |
//! | [`ArrayView<D>`] | `D::Ref`, `D::Mut`, `D::Vec` | `view`, `iter`, `slice`, `split_at`, `to_vec`, `windows`, `chunks`, `chunks_exact`, `as_chunks` |
//! | [`ArrayViewMut<D>`] | `D::Mut`, `D::Vec` | `view_mut` (reborrow), `elem_mut`, `iter_mut`, `for_each_mut`, `slice_mut`, `split_at_mut`, `chunks_mut`, `as_chunks_mut`, `copy_from_slice`, `fill`, `reverse`, `sort_by` |
//! | [`ArrayRef<'a, D>`] | `D::Ref<'a>` | by-value sub-views that keep the lifetime `'a` |
//! | [`ArrayMut<'a, D>`] | `D::Mut<'a>` | by-value conversions that keep the lifetime `'a` |
//! | [`ArrayOwned<D>`] | `D::Vec` | `from_elem`, `with_capacity`, `push`, `pop`, `extend_from_slice`, `resize`, `truncate`, `clear`, `insert`, `remove`, `reserve` |
//!
//! Element access is by value: an element of an [`NDualArray`] is
//! gathered from two buffers, so no `&D` into an array exists. Writes scatter: through
//! [`ArrayWrite::set`], or through the guard [`ArrayViewMut::elem_mut`] /
//! [`ArrayViewMut::iter_mut`] hand out (a `DerefMut<Target = D>` that writes the element
//! back when dropped; `&mut f64` for the primal reading), so `*v = …` and `*v += …` on the
//! items of `iter_mut()` mean the same on every reading.
//!
//! Method names follow `[T]` and `Vec<T>` where the meaning is the same; on a concrete
//! `&[f64]`, inherent slice methods win method resolution (`x.get(i)` is then
//! `Option<&f64>`), so generic code should call these through a generic reading or by
//! their trait path.

mod access;
#[macro_use]
mod args;
mod chunked;
mod impls;
mod iter;
mod lane;
mod layout;
mod methods;
mod offload;
mod operand;
mod owned;
mod pages;
mod primal;
mod traits;

pub use access::{ArrayRead, ArrayWrite};
pub(crate) use args::held_by_copy;
pub use args::{
    HeldSlice, HeldSliceMut, NDualFixed, NDualFixedMut, OwnedCopy, OwnedCopyBack, SliceArg,
    SliceArgMut,
};
pub use chunked::{ArrayChunks, ArrayChunksMut, IntoChunks};
pub use iter::{ElemMut, IntoIter, Iter, IterMut};
pub use lane::{LaneIter, LaneIterMut, LaneMut, LaneRef};
pub use layout::LayoutError;
pub use offload::{ArrayOp, ArrayOut, Erased, MatArg};
pub(crate) use offload::{from_flat, offload_array, offload_scalar, scalar_from_flat};
pub use operand::{
    Array, Field, Flat, Operand, OwnedArray, OwnedOperand, Placement, ResidentField,
};
pub use owned::{NDualArray, NDualMut, NDualRef};
pub use primal::SliceReading;
pub use traits::{
    ArrayMut, ArrayOwned, ArrayRef, ArrayView, ArrayViewMut, Chunks, ChunksMut, Windows, concat,
};

use crate::Real;

/// The arrays of a reading: the forward values of `Vec<f64>`, `&[f64]` and `&mut [f64]`,
/// and how the array primitives ([`crate::linalg`], [`crate::elementwise`]) reach them.
///
/// The scalar trait [`Real`] knows nothing of arrays; this trait, one layer up, gives
/// each reading its array types. Readings whose values are one contiguous `Copy` value
/// (`f64`, `Taylor`, `DiagJet`, `ZDual`) use `Vec<Self>`, `&[Self]` and `&mut [Self]`;
/// `NDual` uses its element-major [`NDualArray`] and views; the CUDA
/// reading its device arrays.
///
/// The provided methods are how a primitive asks a reading for more than element-wise
/// arithmetic: a *flat view* (the primal slice and an element-major tangent block, which
/// BLAS-like kernels take whole) for the primal reading and first-order `NDual`s of the
/// primal field, and [`array_op`](Self::array_op) to run a whole-array operation
/// somewhere else (on a device). The defaults decline both, which is always correct: the
/// primitives then run element-wise on the reading.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no arrays lifted rules can use",
    note = "every reading brings its arrays: `f64`, `f32`, `lifted::NDual<S, N>`, `Taylor<S, K>`, `DiagJet<S, N>`, `HyperDual<S>`, `ZDual<S, N>` and `lifted::cuda::DeviceDual<S, N>` do"
)]
pub trait ArrayReading: Real {
    /// The owned array of this reading: `Vec<f64>` for the primal reading,
    /// [`NDualArray<S, N>`](crate::NDualArray) for `NDual<S, N>`.
    type Vec: ArrayOwned<Self> + OwnedOperand<Self>;
    /// A shared view of an array of this reading (the forward value of `&[f64]`).
    type Ref<'a>: ArrayRef<'a, Self> + Operand<Self> + SliceArg<Self>;
    /// A mutable view of an array of this reading (the forward value of `&mut [f64]`).
    type Mut<'a>: ArrayMut<'a, Self> + SliceArg<Self> + SliceArgMut<Self>;
    /// How a `&[Self; K]` is held where a rule takes a `&[f64]` ([`SliceArg`]): the
    /// array itself as a slice for slice-backed readings, a copy in the reading's layout
    /// otherwise.
    type FixedRef<'a, const K: usize>: HeldSlice<Self>;
    /// How a `&mut [Self; K]` is held where a rule takes a `&mut [f64]`
    /// ([`SliceArgMut`]); a copy is written back when the holder is dropped.
    type FixedMut<'a, const K: usize>: HeldSliceMut<Self>;

    /// How a `&[Self]` is held where a rule takes a `&[f64]`: the slice itself for
    /// slice-backed readings, a copy in the reading's layout otherwise.
    type SliceHeld<'a>: HeldSlice<Self>;
    /// How a `&mut [Self]` is held where a rule takes a `&mut [f64]`.
    type SliceHeldMut<'a>: HeldSliceMut<Self>;

    /// Holds a slice of values passed where a rule takes a slice.
    fn hold_slice(a: &[Self]) -> Self::SliceHeld<'_>;
    /// Holds a mutable slice of values passed where a rule takes a mutable slice.
    fn hold_slice_mut(a: &mut [Self]) -> Self::SliceHeldMut<'_>;
    /// Holds a fixed array passed where a rule takes a slice.
    fn hold_fixed<const K: usize>(a: &[Self; K]) -> Self::FixedRef<'_, K>;
    /// Holds a fixed array passed where a rule takes a mutable slice.
    fn hold_fixed_mut<const K: usize>(a: &mut [Self; K]) -> Self::FixedMut<'_, K>;

    /// The tangent width of the flat view: `Some(0)` for the primal reading, `Some(N)`
    /// for `NDual<F, N>`, `None` when arrays of this reading have no flat view.
    fn flat_width() -> Option<usize> {
        None
    }
    /// `Some(s)` when `Self` is the primal field itself.
    fn as_flat(s: &[Self]) -> Option<&[Self::Field]> {
        let _ = s;
        None
    }
    /// `Some(v)` when `Self` is the primal field itself.
    fn vec_from_flat(v: Vec<Self::Field>) -> Option<Vec<Self>> {
        let _ = v;
        None
    }
    /// The primal slice and the element-major tangent block of a view.
    #[allow(clippy::type_complexity)]
    fn flat_ref<'a>(r: Self::Ref<'a>) -> Option<(&'a [Self::Field], &'a [Self::Field])> {
        let _ = r;
        None
    }
    /// The primal slice and the element-major tangent block of an owned array.
    #[allow(clippy::type_complexity)]
    fn flat_vec(v: &Self::Vec) -> Option<(&[Self::Field], &[Self::Field])> {
        let _ = v;
        None
    }
    /// A value of this reading from its primal and `flat_width()` tangent components.
    fn scalar_from_flat(primal: Self::Field, tangent: &[Self::Field]) -> Option<Self> {
        let _ = (primal, tangent);
        None
    }
    /// An owned array from a primal and an element-major tangent block of
    /// `flat_width()` values per element.
    fn from_flat(primal: Vec<Self::Field>, block: Vec<Self::Field>) -> Option<Self::Vec> {
        let _ = (primal, block);
        None
    }
    /// Runs a whole-array operation elsewhere (on a device) and returns its result, or
    /// `None` to let the primitive run it on the host (see [`ArrayOp`]).
    fn array_op(op: ArrayOp<'_, Self>) -> Option<ArrayOut<Self::Vec, Self>> {
        let _ = op;
        None
    }
}
