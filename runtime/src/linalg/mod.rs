//! Array and matrix primitives with hand-written rules: `dot`, `axpy`, `scale`, `sum`,
//! `norm2`, `matvec`, `matmul` (with transposes), triangular solves, LU (solve, inverse,
//! determinant, log-determinant) and Cholesky (solve, log-determinant), for `f64` and
//! `f32`.
//!
//! Each is an ordinary function next to a module of the same name holding its rule
//! (`frule`), so a call inside an `#[autodiff]` function dispatches to the rule like any
//! call:
//!
//! ```
//! use lifted::autodiff;
//! use lifted::linalg::{Mat, dot, matvec};
//!
//! /// ½ xᵀ A x for a constant row-major `n × n` matrix `a`.
//! #[autodiff(forward, chunk = 4)]
//! fn quadratic(#[constant] a: &[f64], x: &[f64]) -> f64 {
//!     let ax: Vec<f64> = matvec(Mat::new(a, x.len(), x.len()), x);
//!     0.5 * dot(x, &ax)
//! }
//!
//! fn main() {
//!     let a = vec![2.0, 1.0, 1.0, 3.0];
//!     let x = vec![1.0, -1.0];
//!     let (value, grad) = lifted::gradient(quadratic::Rule, (lifted::Constant(a), x)).unwrap();
//!     assert_eq!(value, 1.5);
//!     // ∇ = ½ (A + Aᵀ) x = (1, −2)
//!     assert_eq!(grad, vec![1.0, -2.0]);
//! }
//! ```
//!
//! # How the rules run
//!
//! At the primal reading and at `NDual<f64, N>` / `NDual<f32, N>` an operand is a primal
//! slice plus one element-major `(len, N)` tangent block. The rules compute the primal
//! once, then apply each lane-invariant linear map to **all N lanes in one GEMM** over
//! that block (`Ẏ = A Ẋ` is one `m × n × N` product), reuse factorizations for every
//! lane (the N tangent right-hand sides of a solve go through one multi-right-hand-side
//! substitution), and never materialise a constant's zero tangent. At other readings
//! (nested duals, Taylor polynomials) the same functions run element-wise on the
//! reading's arithmetic — correct at every order, without the GEMM.
//!
//! Plain slices and `Vec`s are constants of the computation; the arrays of the reading
//! (a lifted `&[f64]` parameter, a lifted local `Vec<f64>`) are active. Matrices are
//! row-major [`Mat`] views with a shape; `m.t()` is the transpose without a copy.
//!
//! # Errors and panics
//!
//! Dimension mismatches panic with a message naming the operation and the shapes, as
//! slice indexing does (they are programming errors). Data-dependent failures — an
//! exactly singular matrix, a matrix that is not positive definite — are
//! [`LinalgError`]s. Ill-conditioned but non-singular matrices factor and solve; their
//! derivatives are as large as the problem's sensitivity.

mod factor;
pub(crate) mod kernel;
#[cfg(feature = "ndarray")]
pub mod nd;
mod operand;
mod product;
mod triangular;
mod vector;

pub use factor::{Cholesky, Lu, cholesky, inverse, lu, solve};
pub use operand::{ConstVec, Mat};
pub use product::{matmul, matvec};
pub use triangular::{solve_lower, solve_upper};
pub use vector::{axpy, dot, norm2, scale, sum};

/// What can go wrong in a linear-algebra primitive.
#[derive(Clone, Debug, PartialEq)]
pub enum LinalgError {
    /// Operands whose dimensions do not fit together.
    Shape {
        /// The operation.
        op: &'static str,
        /// The dimensions that do not fit.
        detail: String,
    },
    /// A matrix with an exactly zero pivot: no solve, inverse or factorization exists.
    Singular {
        /// The operation.
        op: &'static str,
        /// The elimination step (row) whose pivot is zero.
        pivot: usize,
    },
    /// A Cholesky factorization met a non-positive pivot: the matrix is not symmetric
    /// positive definite.
    NotPositiveDefinite {
        /// The column whose pivot is not positive.
        pivot: usize,
    },
}

impl core::fmt::Display for LinalgError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::Shape { op, detail } => write!(f, "{op}: {detail}"),
            Self::Singular { op, pivot } => write!(
                f,
                "{op}: the matrix is singular (zero pivot at step {pivot})"
            ),
            Self::NotPositiveDefinite { pivot } => write!(
                f,
                "cholesky: the matrix is not positive definite (pivot {pivot} is not positive)"
            ),
        }
    }
}

impl std::error::Error for LinalgError {}
