//! Sparse Jacobians in other crates' CSR types: sprs's [`CsMat`](sprs::CsMat) (feature
//! `sprs`) and nalgebra-sparse's [`CsrMatrix`](nalgebra_sparse::CsrMatrix) (feature
//! `nalgebra-sparse`). Both hold the same three arrays as faer's CSR, compact and with
//! each row's columns in increasing order; a plan's matrices are that way already, and
//! any other faer matrix is brought to it.

use faer::sparse::SparseRowMatRef;

use crate::drivers::Error;

/// Compact CSR arrays: `(row_ptr, col_idx, values)`, each row's columns increasing.
type Parts<T> = (Vec<usize>, Vec<usize>, Vec<T>);

/// The CSR arrays of `m`, compacted (faer allows rows with room to spare) and each
/// row's columns sorted, its values following.
///
/// # Errors
///
/// [`Error::InvalidInput`] for a row that names one column twice, which neither
/// crate admits.
fn parts<T: Copy>(
    function: &'static str,
    m: SparseRowMatRef<'_, usize, T>,
) -> Result<Parts<T>, Error> {
    let symbolic = m.symbolic();
    let mut row_ptr = Vec::with_capacity(m.nrows() + 1);
    let mut col_idx = Vec::with_capacity(m.compute_nnz());
    let mut values = Vec::with_capacity(m.compute_nnz());
    row_ptr.push(0);
    let mut row: Vec<(usize, T)> = Vec::new();
    for i in 0..m.nrows() {
        let cols = symbolic.col_idx_of_row_raw(i);
        let vals = m.val_of_row(i);
        if cols.windows(2).all(|w| w[0] < w[1]) {
            col_idx.extend_from_slice(cols);
            values.extend_from_slice(vals);
        } else {
            row.clear();
            row.extend(cols.iter().copied().zip(vals.iter().copied()));
            row.sort_unstable_by_key(|&(j, _)| j);
            if let Some(w) = row.windows(2).find(|w| w[0].0 == w[1].0) {
                return Err(Error::InvalidInput {
                    function,
                    reason: format!("row {i} holds column {} twice", w[0].0),
                });
            }
            col_idx.extend(row.iter().map(|&(j, _)| j));
            values.extend(row.iter().map(|&(_, v)| v));
        }
        row_ptr.push(col_idx.len());
    }
    Ok((row_ptr, col_idx, values))
}

/// A CSR matrix the target crate refused although [`parts`] made it valid.
fn refused(function: &'static str, why: impl core::fmt::Display) -> Error {
    Error::InvalidInput {
        function,
        reason: format!("the CSR arrays were refused: {why}"),
    }
}

/// The matrix (a sparse Jacobian) as sprs's CSR matrix, values copied.
///
/// ```
/// use lifted::autodiff;
/// use lifted::sparse::{sparse_jacobian, to_sprs};
///
/// #[autodiff(forward)]
/// fn diff(x: &[f64]) -> Vec<f64> {
///     x.windows(2).map(|w| w[1] * w[1] - w[0]).collect()
/// }
///
/// # fn main() -> Result<(), lifted::Error> {
/// let (_, jac) = sparse_jacobian(diff::Rule, &[1.0, 2.0, 3.0])?;
/// let csr = to_sprs(jac.as_ref())?;
/// assert_eq!(csr.shape(), (2, 3));
/// assert_eq!(csr.get(0, 1), Some(&4.0));
/// assert_eq!(csr.get(0, 2), None);
/// # Ok(())
/// # }
/// ```
///
/// # Errors
///
/// [`Error::InvalidInput`] for a faer matrix whose row names a column twice.
#[cfg(feature = "sprs")]
pub fn to_sprs<T: Copy>(m: SparseRowMatRef<'_, usize, T>) -> Result<sprs::CsMat<T>, Error> {
    const NAME: &str = "lifted::sparse::to_sprs";
    let (row_ptr, col_idx, values) = parts(NAME, m)?;
    sprs::CsMat::try_new((m.nrows(), m.ncols()), row_ptr, col_idx, values)
        .map_err(|(.., e)| refused(NAME, e))
}

/// The matrix (a sparse Jacobian) as nalgebra-sparse's CSR matrix, values copied.
///
/// ```
/// use lifted::autodiff;
/// use lifted::sparse::{sparse_jacobian, to_nalgebra};
///
/// #[autodiff(forward)]
/// fn diff(x: &[f64]) -> Vec<f64> {
///     x.windows(2).map(|w| w[1] * w[1] - w[0]).collect()
/// }
///
/// # fn main() -> Result<(), lifted::Error> {
/// let (_, jac) = sparse_jacobian(diff::Rule, &[1.0, 2.0, 3.0])?;
/// let csr = to_nalgebra(jac.as_ref())?;
/// assert_eq!((csr.nrows(), csr.ncols(), csr.nnz()), (2, 3, 4));
/// assert_eq!(csr.row(1).col_indices(), [1, 2]);
/// assert_eq!(csr.row(1).values(), [-1.0, 6.0]);
/// # Ok(())
/// # }
/// ```
///
/// # Errors
///
/// [`Error::InvalidInput`] for a faer matrix whose row names a column twice.
#[cfg(feature = "nalgebra-sparse")]
pub fn to_nalgebra<T: Copy + nalgebra_sparse::na::Scalar>(
    m: SparseRowMatRef<'_, usize, T>,
) -> Result<nalgebra_sparse::CsrMatrix<T>, Error> {
    const NAME: &str = "lifted::sparse::to_nalgebra";
    let (row_ptr, col_idx, values) = parts(NAME, m)?;
    nalgebra_sparse::CsrMatrix::try_from_csr_data(m.nrows(), m.ncols(), row_ptr, col_idx, values)
        .map_err(|e| refused(NAME, e))
}
