//! Arrays of a reading: `NDualArray<S, N>` (element-major) and its borrowed views, and
//! the traits generated code reads and writes arrays through, whatever the reading.

mod element_major;
mod traits;

pub use element_major::{NDualArray, NDualMut, NDualRef};
pub use traits::{ArrayOwned, ArrayRead, ArrayWrite};
