//! The dense [`Jacobian`] every Jacobian driver returns (below the drivers, which
//! build it, and the passes, which fill it).

use core::ops::Index;

/// A dense Jacobian matrix, row-major: row `i` holds the derivatives of the result's
/// degree of freedom `i`, column `j` those with respect to input `j` (both flattened
/// in `Param` order), entry `(i, j)` at `data[i * cols + j]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Jacobian<F> {
    rows: usize,
    cols: usize,
    data: Vec<F>,
}

impl<F: Copy> Jacobian<F> {
    pub(crate) fn new(rows: usize, cols: usize, data: Vec<F>) -> Self {
        debug_assert_eq!(data.len(), rows * cols);
        Self { rows, cols, data }
    }

    /// The number of rows (the result's degrees of freedom).
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The number of columns (the inputs' degrees of freedom).
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// `(rows, cols)`.
    pub fn shape(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    /// The entries, row-major.
    pub fn data(&self) -> &[F] {
        &self.data
    }

    /// The entries, row-major, by value.
    pub fn into_data(self) -> Vec<F> {
        self.data
    }

    /// Entry `(i, j)`, `None` out of range.
    pub fn get(&self, i: usize, j: usize) -> Option<F> {
        (i < self.rows && j < self.cols).then(|| self.data[i * self.cols + j])
    }

    /// Row `i` (the gradient of the result's degree of freedom `i`), `None` out of
    /// range.
    pub fn row(&self, i: usize) -> Option<&[F]> {
        (i < self.rows).then(|| &self.data[i * self.cols..(i + 1) * self.cols])
    }

    /// Column `j` (the derivative of the result along input `j`), copied; `None` out
    /// of range.
    pub fn column(&self, j: usize) -> Option<Vec<F>> {
        (j < self.cols).then(|| {
            (0..self.rows)
                .map(|i| self.data[i * self.cols + j])
                .collect()
        })
    }
}

/// Entry `(i, j)`. Panics out of range, as indexing does; [`Jacobian::get`] does not.
impl<F: Copy> Index<(usize, usize)> for Jacobian<F> {
    type Output = F;
    #[track_caller]
    fn index(&self, (i, j): (usize, usize)) -> &F {
        assert!(
            i < self.rows && j < self.cols,
            "index ({i}, {j}) out of range for a {}×{} Jacobian",
            self.rows,
            self.cols
        );
        &self.data[i * self.cols + j]
    }
}
