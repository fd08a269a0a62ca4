//! Grid and block sizes for the kernels of [`kernels`](super::kernels): pure host
//! arithmetic, so it is tested without a GPU.

use super::kernels::BLOCK;

/// The most blocks a reduction's first pass uses: few enough that the finish pass
/// sums the partials in one block (a handful of strided loads per thread), many enough
/// to fill a large GPU (an H200 has 132 SMs).
pub const MAX_REDUCTION_GRID: u32 = 1024;

// The finish pass stays a few loads per thread.
const _: () = assert!(MAX_REDUCTION_GRID <= 8 * BLOCK);

/// A launch configuration: `grid` blocks of `block` threads, one dimension each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaunchShape {
    /// Blocks in the grid (`gridDim.x`), at least 1.
    pub grid: u32,
    /// Threads per block (`blockDim.x`): [`BLOCK`].
    pub block: u32,
}

impl LaunchShape {
    /// An element-wise launch over `len` elements: one thread per element up to
    /// `max_grid` blocks (the kernels loop over the rest, grid-stride), at least one
    /// block so an empty launch is still a valid one.
    ///
    /// ```
    /// use lifted::cuda::launch::LaunchShape;
    /// assert_eq!(LaunchShape::for_elements(1000, 65_535), LaunchShape { grid: 4, block: 256 });
    /// assert_eq!(LaunchShape::for_elements(0, 65_535).grid, 1);
    /// ```
    pub fn for_elements(len: usize, max_grid: u32) -> Self {
        let blocks = len.div_ceil(BLOCK as usize);
        // Compared in usize before narrowing, so lengths past u32::MAX cap cleanly.
        let grid = blocks.min(max_grid.max(1) as usize).max(1);
        Self {
            grid: u32::try_from(grid).unwrap_or(u32::MAX),
            block: BLOCK,
        }
    }

    /// The first pass of a reduction over `len` elements; at most
    /// [`MAX_REDUCTION_GRID`] blocks, so [`finish`](Self::finish) is one block. The
    /// partial buffer holds `grid * (1 + lanes)` values.
    pub fn for_reduction(len: usize) -> Self {
        Self::for_elements(len, MAX_REDUCTION_GRID)
    }

    /// The finishing pass of a reduction: one block.
    pub fn finish() -> Self {
        Self {
            grid: 1,
            block: BLOCK,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn element_shapes() {
        let shape = |len| LaunchShape::for_elements(len, 65_535);
        assert_eq!(
            shape(0),
            LaunchShape {
                grid: 1,
                block: 256
            }
        );
        assert_eq!(shape(1).grid, 1);
        assert_eq!(shape(255).grid, 1);
        assert_eq!(shape(256).grid, 1);
        assert_eq!(shape(257).grid, 2);
        assert_eq!(shape(usize::MAX).grid, 65_535);
        assert_eq!(LaunchShape::for_elements(10, 0).grid, 1);
    }
}
