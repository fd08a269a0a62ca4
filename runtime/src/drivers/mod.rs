//! Drivers: derivatives of a rule at a point — [`jvp`], [`derivative`], [`gradient`],
//! [`jacobian`], [`value_jacobian_hessian_diag`], [`derivatives_1d`] and their variants.
//!
//! Every driver takes a rule marker (`f::Rule` for an `#[autodiff]` function, or a
//! hand-written [`FRule`](crate::FRule)) and the point, and returns the value with
//! the derivative. Arguments are given as the rule's own argument tuple, borrowed
//! (`&R::Args`, nothing copied), or as what the function itself is called with
//! (`(&x, 2.0)`, copied once per call): see [`IntoArgs`]. Tangents have the type
//! and shape of the arguments.
//!
//! | driver | returns | passes |
//! |---|---|---|
//! | [`jvp`] | result, its tangent along one direction | 1, width 1 |
//! | [`jvp_mut`] | same; updates `&mut` arguments and their tangents | 1, width 1 |
//! | [`jvp_many`] | result, its tangents along k directions | ⌈k / CHUNK⌉ |
//! | [`jvp_chunk`] | result, `[tangent; N]` | 1, width N |
//! | [`derivative`] | f(x), f′(x) for one scalar argument | 1, width 1 |
//! | [`gradient`], [`gradient_with_chunk`], [`gradient_into`], [`gradient_wrt`] | value, gradient | ⌈n / N⌉, N the rule's `chunk` |
//! | [`jacobian`], [`jacobian_with_chunk`], [`jacobian_wrt`] | result, [`Jacobian`] | ⌈n / N⌉, N the rule's `chunk` |
//! | [`jacobian_mut`] | result, [`Jacobian`] of what it writes to `&mut` arguments | as [`jacobian`] |
//! | [`value_and_jacfwd`] | result, [`Jacobian`] over chosen arguments | 1 (≤ 64 columns) |
//! | [`nested_derivative`] | inside a rule: f(x), f′(x) at any reading | 1, one level deeper |
//! | [`hessian`] | value, gradient, Hessian | ⌈n / N⌉ (⌈n / N⌉ + 1) / 2, nested width N ≤ 8 |
//! | [`hvp`] | value, Hessian-vector product | ⌈n / N⌉, nested |
//! | [`hessian_diag`] | result, pure second derivatives of every output | n, nested width 1 |
//! | [`value_jacobian_hessian_diag`] | result, [`Jacobian`], pure second derivatives over chosen arguments | 1 (≤ 16 columns), [`DiagJet`](crate::DiagJet) |
//! | [`derivatives_1d`] | `[f, f′, …, f⁽ᵏ⁾]` along one direction | 1, [`Taylor`](crate::Taylor) of order k |
//!
//! [`Driver`] holds a chunk width and an argument selection (JAX's `argnums`) for
//! repeated calls; a [`GradientPlan`] made from it also keeps the lifted arguments
//! from call to call, so an optimiser's loop lifts into the same buffers. Drivers
//! never panic on bad input: shape mismatches, a width that cannot be chosen at run
//! time, a non-scalar result for a gradient, a bad selection are an [`Error`].
//!
//! Chunk widths are const generics. Passes run at the rule's `chunk` (the attribute's
//! literal, instantiated for that width alone) unless the driver is given another:
//! [`Driver::chunk::<K>()`](Driver::chunk) fixes any `K` in `1..=64` at compile time,
//! [`Driver::width`] takes one of [`DRIVER_WIDTHS`] chosen at run time (all of them
//! instantiated) and any other width is [`Error::UnsupportedWidth`] — see
//! [`PassWidth`]. Results do not depend on the width: lanes are independent, so a
//! gradient computed 64 columns at a time equals one computed a column at a time, bit
//! for bit, for rules whose lanes are computed by the same operations (all derived
//! rules).
//!
//! Gradients and Jacobians choose the reading of their passes too ([`PassReading`]):
//! dense [`NDual`](crate::NDual)s for few inputs, the zero-skipping
//! [`ZDual`](crate::ZDual) for many, where a value computed from unseeded inputs only
//! costs one primal operation. Both give the same entries (zeros as `+0.0` with the
//! zero-skipping reading); [`Driver::plan`] states the choice of reading and width.
//!
//! ```
//! use lifted::autodiff;
//!
//! #[autodiff(forward, chunk = 8)]
//! pub fn rosenbrock(x: &[f64]) -> f64 {
//!     let mut s = 0.0;
//!     for i in 0..x.len() - 1 {
//!         s += (1.0 - x[i]).powi(2) + 100.0 * (x[i + 1] - x[i] * x[i]).powi(2);
//!     }
//!     s
//! }
//!
//! # fn main() -> Result<(), lifted::Error> {
//! let x = vec![0.5; 100];
//! let y = rosenbrock(&x); // the primal is untouched
//! let (value, grad) = lifted::gradient(rosenbrock::Rule, &x)?; // 13 zero-skipping passes of 8
//! assert_eq!(value, y);
//! assert_eq!(grad.len(), 100);
//! let dx = vec![1.0; 100];
//! let (_, slope) = lifted::jvp(rosenbrock::Rule, &x, &dx)?; // one direction
//! let dot: f64 = grad.iter().zip(&dx).map(|(g, d)| g * d).sum();
//! assert!((slope - dot).abs() <= 1e-12 * dot.abs());
//! # Ok(())
//! # }
//! ```

mod args;
mod driver;
pub(crate) mod engine;
mod error;
mod gradient;
mod jacobian;
mod jet;
mod jvp;
mod matrix;
mod nested;
mod plan;
mod prepared;
mod second;
mod taylor;
pub(crate) mod width;

pub use args::{Arguments, IntoArg, IntoArgs};
pub use driver::Driver;
pub use error::Error;
pub use gradient::{gradient, gradient_into, gradient_shaped, gradient_with_chunk, gradient_wrt};
pub use jacobian::{jacobian, jacobian_mut, jacobian_with_chunk, jacobian_wrt, value_and_jacfwd};
pub use jet::{ValueJacobianHessianDiag, value_jacobian_hessian_diag};
pub use jvp::{derivative, jvp, jvp_chunk, jvp_many, jvp_mut};
pub use matrix::Jacobian;
pub use nested::nested_derivative;
pub use plan::{PassPlan, PassReading, ZERO_SKIP_MIN_COLUMNS};
pub use prepared::GradientPlan;
pub use second::{ValueGradientHessian, hessian, hessian_diag, hvp};
pub use taylor::derivatives_1d;
pub use width::{
    Chunk, ChunkScalar, DRIVER_WIDTHS, JET_WIDTHS, MAX_CHUNK, MAX_TAYLOR_ORDER, NESTED_WIDTHS,
    PassWidth, RuleChunk, RunTimeWidth,
};
