//! Arrays of a reading: [`NDualArray<S, N>`] (element-major; its docs state the layout
//! contract) with its views [`NDualRef`] / [`NDualMut`], lane views, iterators, and the
//! traits generated code reads and writes arrays through, whatever the reading.

mod element_major;
mod iter;
mod lane;
mod primal;
mod traits;

pub use element_major::{LayoutError, NDualArray, NDualMut, NDualRef};
pub use iter::{Chunks, ChunksMut, ElemMut, IntoIter, Iter, IterMut, Windows};
pub use lane::{LaneIter, LaneIterMut, LaneMut, LaneRef};
pub use traits::{ArrayMut, ArrayOwned, ArrayRead, ArrayRef, ArrayView, ArrayViewMut, ArrayWrite};
