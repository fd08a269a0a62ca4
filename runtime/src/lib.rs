//! # lifted
//!
//! Forward-mode automatic differentiation for Rust by source transformation.
//!
//! Write ordinary `f64` Rust; `#[autodiff(forward, chunk = N)]` adds a derived rule,
//! generic over its [reading](Reading), that carries N tangent directions at once.
//! This crate holds the forward-mode data model ([`NDual`], the map [`Lifted`] from primal
//! types to forward values, arrays),
//! the [`FRule`] contract, hand-written rules, drivers and [`testing::check_rule`].
//!
//! ```
//! use lifted::autodiff;
//!
//! /// Rosenbrock's valley, written as plain Rust.
//! #[autodiff(forward, chunk = 8)]
//! fn rosenbrock(x: &[f64]) -> f64 {
//!     x.windows(2)
//!         .map(|w| 100.0 * (w[1] - w[0] * w[0]).powi(2) + (1.0 - w[0]).powi(2))
//!         .sum()
//! }
//!
//! # fn main() -> Result<(), lifted::Error> {
//! let x = vec![0.5, 1.5, -0.25];
//! let (value, grad) = lifted::gradient(rosenbrock::Rule, &x)?;
//! assert_eq!(value, rosenbrock(&x));
//! // ∂/∂x₂ = 200 (x₂ − x₁²), by hand.
//! assert!((grad[2] - 200.0 * (-0.25 - 1.5 * 1.5)).abs() < 1e-12);
//! # Ok(())
//! # }
//! ```
//!
//! Underneath, a rule runs at a reading: at `f64` it is the primal function, at
//! [`NDual<f64, N>`](NDual) it carries N directions:
//!
//! ```
//! use lifted::{NDual, Real};
//! // Two directions at once through f(x, y) = x·sin(y).
//! let x = NDual::<f64, 2>::variable(2.0, 0);
//! let y = NDual::<f64, 2>::variable(0.5, 1);
//! let f = x * y.sin();
//! assert_eq!(f.partials(), &[0.5f64.sin(), 2.0 * 0.5f64.cos()]);
//! ```
#![deny(unsafe_code)]

#[macro_use]
mod reading;
#[doc(hidden)]
#[macro_use]
mod shared_impls;
#[doc(hidden)]
pub mod __private;
pub mod array;
mod bound;
#[cfg(feature = "cuda")]
#[allow(unsafe_code)]
pub mod cuda;
mod diag_jet;
pub mod drivers;
pub mod elementwise;
mod forward;
mod hyper_dual;
#[doc(hidden)]
pub mod instantiate;
pub mod linalg;
mod lowering;
mod ndual;
pub mod ops;
mod param;
#[doc(hidden)]
pub mod pinn;
mod real;
pub mod rule;
mod scalar;
pub mod sparse;
mod taylor;
pub mod testing;
pub mod vmath;
mod zdual;

pub use array::{NDualArray, NDualMut, NDualRef};
pub use bound::Reading;
pub use diag_jet::DiagJet;
pub use drivers::{
    Error, derivative, derivatives_1d, gradient, gradient_into, gradient_shaped,
    gradient_with_chunk, gradient_wrt, hessian, hessian_diag, hvp, jacobian, jacobian_mut,
    jacobian_with_chunk, jacobian_wrt, jvp, jvp_chunk, jvp_many, jvp_mut, value_and_jacfwd,
    value_jacobian_hessian_diag,
};
pub use forward::{ForwardValue, NoDual, primal, tangent, tangent_lane};
pub use hyper_dual::HyperDual;
pub use lifted_macros::{Lift, autodiff, constant};
pub use ndual::NDual;
pub use param::{Lifted, Param, ParamElem, zero_lifted};
pub use reading::convert::{IntoReading, ToPrimal};
pub use real::Real;
pub use rule::{Constant, FRule};
pub use scalar::Scalar;
pub use taylor::Taylor;
pub use zdual::ZDual;
