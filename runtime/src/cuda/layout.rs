//! Element-major ↔ lane-major conversion of tangent blocks.
//!
//! On the host, element `i`'s N partials are contiguous (`i * N + k`): scalar code
//! touches one element at a time. On the device every lane is contiguous (`k * len + i`):
//! a warp reads 32 consecutive elements of one lane (coalesced), and the N lanes of a
//! vector form one column-major `len × N` matrix for cuBLAS. Both are the same `len × N`
//! matrix, row-major on the host and column-major on the device, so a conversion is a
//! transpose; it is done in cache-sized tiles so neither side is walked with a large
//! stride.

use super::CudaError;

/// Tile edge of the blocked transpose: 32 × 32 `f64` is 8 KiB per side, within L1.
const TILE: usize = 32;

/// Checks that `block` and `out` both hold `len × lanes` values.
fn check(
    op: &'static str,
    block: usize,
    out: usize,
    len: usize,
    lanes: usize,
) -> Result<(), CudaError> {
    let want = len.checked_mul(lanes).ok_or_else(|| {
        CudaError::shape(op, format!("len {len} × lanes {lanes} overflows usize"))
    })?;
    if block != want || out != want {
        return Err(CudaError::shape(
            op,
            format!("len {len} × lanes {lanes} needs {want} values; got {block} in and {out} out"),
        ));
    }
    Ok(())
}

/// Transposes the row-major `rows × cols` matrix `src` into `dst` (`cols × rows`).
fn transpose<S: Copy>(src: &[S], rows: usize, cols: usize, dst: &mut [S]) {
    for r0 in (0..rows).step_by(TILE) {
        for c0 in (0..cols).step_by(TILE) {
            for r in r0..(r0 + TILE).min(rows) {
                for c in c0..(c0 + TILE).min(cols) {
                    dst[c * rows + r] = src[r * cols + c];
                }
            }
        }
    }
}

/// Writes the element-major block `block` (`len` elements × `lanes` partials, partial
/// `k` of element `i` at `i * lanes + k`) into `out` lane-major (at `k * len + i`).
///
/// ```
/// use lifted::cuda::element_to_lane_major;
/// // Two elements, three lanes: [e0: 1 2 3, e1: 4 5 6].
/// let mut out = [0.0; 6];
/// element_to_lane_major(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], 2, 3, &mut out).unwrap();
/// assert_eq!(out, [1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);
/// ```
///
/// # Errors
/// [`CudaError::Shape`] unless both buffers hold `len * lanes` values.
pub fn element_to_lane_major<S: Copy>(
    block: &[S],
    len: usize,
    lanes: usize,
    out: &mut [S],
) -> Result<(), CudaError> {
    check("element_to_lane_major", block.len(), out.len(), len, lanes)?;
    transpose(block, len, lanes, out);
    Ok(())
}

/// Writes the lane-major block `block` (lane `k` of element `i` at `k * len + i`) into
/// `out` element-major (at `i * lanes + k`); the inverse of [`element_to_lane_major`].
///
/// # Errors
/// [`CudaError::Shape`] unless both buffers hold `len * lanes` values.
pub fn lane_to_element_major<S: Copy>(
    block: &[S],
    len: usize,
    lanes: usize,
    out: &mut [S],
) -> Result<(), CudaError> {
    check("lane_to_element_major", block.len(), out.len(), len, lanes)?;
    transpose(block, lanes, len, out);
    Ok(())
}
