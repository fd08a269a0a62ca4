//! Physics-informed residuals: networks written as plain `#[autodiff]` Rust over
//! constant weights, and the residuals of the PDEs they are trained on, evaluated
//! point by point with the drivers.
//!
//! - [`Network`]: a multilayer perceptron with `tanh` hidden layers and a linear output,
//!   optionally behind a Fourier-feature embedding ([`FourierFeatures`]). The `tanh` is
//!   [`vmath::tanh`](fn@crate::vmath::tanh), vectorised over the rows of the batched
//!   engine and the same bits point by point.
//! - [`forward`](fn@forward) evaluates it; its derived rule is what the residuals
//!   differentiate, the weights held `#[constant]` (no tangents, no cost).
//! - [`navier_stokes`], [`burgers`], [`allen_cahn`], [`kdv`] (third order, Taylor
//!   mode): residuals at one point;
//!   [`navier_stokes_all`] over many.
//! - [`navier_stokes_batched`], [`burgers_batched`], [`allen_cahn_batched`],
//!   [`kdv_batched`] (a third-order stream along x) and [`forward_batched`]: many
//!   points at once, each layer one GEMM over a block of points and every derivative
//!   stream, blocks in parallel ([`Batching`]).
//!
//! Derivatives with respect to the coordinates come from
//! [`value_and_jacfwd`](crate::value_and_jacfwd) (values and all first derivatives in
//! one pass) and [`hessian_diag`](crate::hessian_diag) (the pure second derivatives the
//! viscous terms need, no cross terms).

mod batched;
mod jets;
mod network;
mod residuals;

pub use batched::{
    Batching, allen_cahn_batched, burgers_batched, forward_batched, kdv_batched,
    navier_stokes_batched,
};
pub use network::{Dense, FourierFeatures, Network, forward};
pub use residuals::{
    NavierStokes, allen_cahn, burgers, fields3, kdv, navier_stokes, navier_stokes_all, scalar_field,
};
