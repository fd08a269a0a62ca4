//! Row-major matrix views ([`Mat`]) over any array operand, the constant arrays an
//! ndarray is gathered into ([`ConstVec`]), and the primitives' shape checks. The operand
//! traits themselves are the array layer's ([`crate::array::Operand`]).

use crate::Scalar;
use crate::array::{Array, ArrayReading, Field, Flat, MatArg, Operand, OwnedArray, OwnedOperand};
use crate::linalg::LinalgError;

/// Plain values of the field `F` held as a constant of any reading whose field is `F`
/// (what a constant ndarray is gathered into).
#[derive(Clone, Debug, PartialEq)]
pub struct ConstVec<F>(pub Vec<F>);

impl<F> OwnedArray for ConstVec<F> {
    type Elem = F;
    fn len(&self) -> usize {
        self.0.len()
    }
}

impl<D: ArrayReading> OwnedOperand<D> for ConstVec<D::Field> {
    #[inline]
    fn get(&self, i: usize) -> D {
        D::cst(Scalar::to_f64(self.0[i]))
    }
    fn flat(&self) -> Option<Flat<'_, Field<D>>> {
        Some(Flat {
            primal: &self.0,
            tangent: None,
        })
    }
}

/// A row-major matrix view with its shape, over any [`Array`]: a plain slice, an array
/// of a reading, a `Vec`. [`t`](Self::t) views the transpose without copying.
///
/// ```
/// use lifted::linalg::{Mat, matvec};
/// let a = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]; // 2 × 3
/// let y = matvec(Mat::new(&a[..], 2, 3), &[1.0, 0.0, -1.0][..]);
/// assert_eq!(y, vec![-2.0, -2.0]);
/// let z = matvec(Mat::new(&a[..], 2, 3).t(), &[1.0, 1.0][..]);
/// assert_eq!(z, vec![5.0, 7.0, 9.0]);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Mat<A> {
    data: A,
    rows: usize,
    cols: usize,
    transposed: bool,
}

impl<A: Array> Mat<A> {
    /// The `rows × cols` matrix whose row `i` is `data[i * cols .. (i + 1) * cols]`.
    ///
    /// # Panics
    /// When `data.len() != rows * cols` (see [`try_new`](Self::try_new)).
    #[track_caller]
    pub fn new(data: A, rows: usize, cols: usize) -> Self {
        match Self::try_new(data, rows, cols) {
            Ok(m) => m,
            Err(e) => panic!("{e}"),
        }
    }

    /// As [`new`](Self::new), with an error instead of a panic on a length mismatch.
    ///
    /// # Errors
    /// [`LinalgError::Shape`] when `data.len() != rows * cols`.
    pub fn try_new(data: A, rows: usize, cols: usize) -> Result<Self, LinalgError> {
        if rows.checked_mul(cols) != Some(data.len()) {
            return Err(LinalgError::Shape {
                op: "Mat::new",
                detail: format!(
                    "{} elements cannot be viewed as {rows} × {cols}",
                    data.len()
                ),
            });
        }
        Ok(Self {
            data,
            rows,
            cols,
            transposed: false,
        })
    }
}

impl<A> Mat<A> {
    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// `(rows, cols)`.
    pub fn shape(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    /// The transpose, as a view of the same data.
    #[must_use]
    pub fn t(self) -> Self {
        Self {
            data: self.data,
            rows: self.cols,
            cols: self.rows,
            transposed: !self.transposed,
        }
    }

    /// Whether this view is the transpose of its row-major data.
    pub fn is_transposed(&self) -> bool {
        self.transposed
    }

    /// The viewed data.
    pub fn data(&self) -> &A {
        &self.data
    }

    /// `(row stride, column stride)` of element `(i, j)` in the data.
    pub(crate) fn strides(&self) -> (usize, usize) {
        if self.transposed {
            (1, self.rows)
        } else {
            (self.cols, 1)
        }
    }

    /// The data offset of element `(i, j)`.
    #[inline]
    pub(crate) fn offset(&self, i: usize, j: usize) -> usize {
        let (rs, cs) = self.strides();
        i * rs + j * cs
    }

    /// Element `(i, j)` as a value of the reading.
    #[inline]
    pub(crate) fn at<D: ArrayReading>(&self, i: usize, j: usize) -> D
    where
        A: Operand<D>,
    {
        self.data.get(self.offset(i, j))
    }

    /// All elements, logical row-major, as values of the reading.
    pub(crate) fn elems<D: ArrayReading>(&self) -> Vec<D>
    where
        A: Operand<D>,
    {
        let mut out = Vec::with_capacity(self.rows * self.cols);
        for i in 0..self.rows {
            for j in 0..self.cols {
                out.push(self.at(i, j));
            }
        }
        out
    }
}

impl<'a, D: ArrayReading> MatArg<'a, D> {
    /// The erased view of a [`Mat`].
    pub fn of<A: Operand<D>>(m: &'a Mat<A>) -> Self {
        let (rows, cols) = m.shape();
        Self {
            data: m.data(),
            rows,
            cols,
            transposed: m.is_transposed(),
        }
    }
}

/// Panics with a shape message (the primitives' documented behaviour on mismatched
/// dimensions, as for slice indexing).
#[track_caller]
pub(crate) fn shape_check(ok: bool, op: &'static str, detail: impl FnOnce() -> String) {
    if !ok {
        panic!(
            "{}",
            LinalgError::Shape {
                op,
                detail: detail()
            }
        );
    }
}
