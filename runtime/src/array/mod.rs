//! Arrays of a reading: [`NDualArray<S, N>`] (element-major; its docs state the layout
//! contract) with its views [`NDualRef`] / [`NDualMut`], lane views, iterators, and the
//! traits generated code reads and writes arrays through, whatever the reading.

mod access;
mod impls;
mod iter;
mod lane;
mod layout;
mod methods;
mod owned;
mod primal;
mod traits;

pub use access::{ArrayRead, ArrayWrite};
pub use iter::{ElemMut, IntoIter, Iter, IterMut};
pub use lane::{LaneIter, LaneIterMut, LaneMut, LaneRef};
pub use layout::LayoutError;
pub use owned::{NDualArray, NDualMut, NDualRef};
pub use traits::{
    ArrayMut, ArrayOwned, ArrayReading, ArrayRef, ArrayView, ArrayViewMut, Chunks, ChunksMut,
    Windows,
};
pub(crate) use traits::{from_flat, offload_array, offload_scalar, scalar_from_flat};
