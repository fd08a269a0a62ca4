//! Arrays of a reading: [`NDualArray<S, N>`] (element-major; its docs state the layout
//! contract) with its views [`NDualRef`] / [`NDualMut`], lane views, iterators, and the
//! traits generated code reads and writes arrays through, whatever the reading.

mod impls;
mod iter;
mod lane;
mod layout;
mod methods;
mod owned;
mod primal;
mod traits;
mod views;

pub use iter::{Chunks, ChunksMut, ElemMut, IntoIter, Iter, IterMut, Windows};
pub use lane::{LaneIter, LaneIterMut, LaneMut, LaneRef};
pub use layout::LayoutError;
pub use owned::NDualArray;
pub use traits::{ArrayMut, ArrayOwned, ArrayRead, ArrayRef, ArrayView, ArrayViewMut, ArrayWrite};
pub use views::{NDualMut, NDualRef};
