//! What the array primitives accept: plain slices (constants of the computation) and the
//! arrays of a reading (`NDualRef`, `&NDualArray`, slices of `Taylor`, …), with row-major
//! matrix views over either, and how results are built back into the reading's arrays.

use crate::linalg::LinalgError;
use crate::{Real, Scalar, Taylor};

/// The primal field (`f64` or `f32`) of a reading.
pub type Field<D> = <D as Real>::Field;

/// A one-dimensional array argument of a primitive: its length and element type.
pub trait Array {
    /// The element type: the primal field for plain slices, the reading for lifted
    /// arrays. The primal functions of [`crate::linalg`] run at this reading.
    type Elem;
    /// Number of elements.
    fn len(&self) -> usize;
    /// `true` when there are no elements.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// An array argument of a primitive running at reading `D`: a plain slice (a constant:
/// zero tangent, never materialised) or an array of the reading.
pub trait Operand<D: Real>: Array + Copy {
    /// Element `i` as a value of the reading (constants zero-lifted).
    fn get(&self, i: usize) -> D;
    /// The primal slice and, for arrays of a flat reading, the element-major tangent
    /// block (`None`: the operand is a constant). `None` altogether when the reading has
    /// no flat view (nested duals, Taylor): the primitive then runs element-wise.
    #[doc(hidden)]
    fn flat(&self) -> Option<Flat<'_, Field<D>>>;
    /// The operand as `Any`, for readings that recognise their own arrays (see
    /// `crate::offload`).
    #[doc(hidden)]
    fn __any(&self) -> Option<&dyn core::any::Any> {
        None
    }
}

/// The flat view of an operand: its primal values and, unless it is a constant, its
/// element-major tangent block.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Flat<'a, F> {
    pub primal: &'a [F],
    pub tangent: Option<&'a [F]>,
}

macro_rules! constant_operands {
    ($f:ty) => {
        impl Array for &[$f] {
            type Elem = $f;
            fn len(&self) -> usize {
                <[$f]>::len(self)
            }
        }
        impl<D: Real<Field = $f>> Operand<D> for &[$f] {
            #[inline]
            fn get(&self, i: usize) -> D {
                D::cst(Scalar::to_f64(self[i]))
            }
            fn flat(&self) -> Option<Flat<'_, $f>> {
                Some(Flat {
                    primal: self,
                    tangent: None,
                })
            }
        }
        impl OwnedArray for Vec<$f> {
            type Elem = $f;
            fn len(&self) -> usize {
                Vec::len(self)
            }
        }
        impl<D: Real<Field = $f>> OwnedOperand<D> for Vec<$f> {
            #[inline]
            fn get(&self, i: usize) -> D {
                D::cst(Scalar::to_f64(self[i]))
            }
            fn flat(&self) -> Option<Flat<'_, $f>> {
                Some(Flat {
                    primal: self,
                    tangent: None,
                })
            }
        }
    };
}

constant_operands!(f64);
constant_operands!(f32);

/// Readings whose arrays are plain slices of values (`Taylor`): operands element-wise.
#[doc(hidden)]
pub trait SliceReading: Real {}

impl<S: Real, const K: usize> SliceReading for Taylor<S, K> {}

impl<S: Real, const N: usize> SliceReading for crate::DiagJet<S, N> {}

impl<S: Real> SliceReading for crate::HyperDual<S> {}

impl<S: Real, const N: usize> SliceReading for crate::ZDual<S, N> {}

impl<T: SliceReading> Array for &[T] {
    type Elem = T;
    fn len(&self) -> usize {
        <[T]>::len(self)
    }
}

impl<T: SliceReading> Operand<T> for &[T] {
    #[inline]
    fn get(&self, i: usize) -> T {
        self[i]
    }
    fn flat(&self) -> Option<Flat<'_, Field<T>>> {
        None
    }
}

impl<T: SliceReading> OwnedArray for Vec<T> {
    type Elem = T;
    fn len(&self) -> usize {
        Vec::len(self)
    }
}

impl<T: SliceReading> OwnedOperand<T> for Vec<T> {
    #[inline]
    fn get(&self, i: usize) -> T {
        self[i]
    }
    fn flat(&self) -> Option<Flat<'_, Field<T>>> {
        None
    }
}

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

impl<D: Real> OwnedOperand<D> for ConstVec<D::Field> {
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

/// An owned array type (`Vec<f64>`, `NDualArray`, …): a reference to it is an
/// [`Array`].
pub trait OwnedArray {
    /// The element type.
    type Elem;
    /// Number of elements.
    fn len(&self) -> usize;
    /// `true` when there are no elements.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// An owned array whose references are [`Operand`]s at reading `D`: every reading's
/// owned array is one, so `&v` of a lifted local `Vec` is an operand in any rule.
pub trait OwnedOperand<D: Real>: OwnedArray {
    /// Element `i` as a value of the reading.
    fn get(&self, i: usize) -> D;
    /// See [`Operand::flat`].
    #[doc(hidden)]
    fn flat(&self) -> Option<Flat<'_, Field<D>>>;
    /// See [`Operand::__any`].
    #[doc(hidden)]
    fn __any(&self) -> Option<&dyn core::any::Any> {
        None
    }
}

impl<A: OwnedArray> Array for &A {
    type Elem = A::Elem;
    fn len(&self) -> usize {
        A::len(self)
    }
}

impl<D: Real, A: OwnedOperand<D>> Operand<D> for &A {
    #[inline]
    fn get(&self, i: usize) -> D {
        A::get(self, i)
    }
    fn flat(&self) -> Option<Flat<'_, Field<D>>> {
        A::flat(self)
    }
    fn __any(&self) -> Option<&dyn core::any::Any> {
        A::__any(self)
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
    pub(crate) fn at<D: Real>(&self, i: usize, j: usize) -> D
    where
        A: Operand<D>,
    {
        self.data.get(self.offset(i, j))
    }

    /// All elements, logical row-major, as values of the reading.
    pub(crate) fn elems<D: Real>(&self) -> Vec<D>
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
