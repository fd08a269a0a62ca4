//! Shared inputs and primal baselines of the benchmarks: the seeded generator and the
//! workloads W1–W3 of `shared/benchmarks/WORKLOADS.md`.
//!
//! Every implementation compared in a benchmark — ours and the baselines — reads its
//! inputs from [`SplitMix64`], so all of them see bit-identical data without data
//! files. This crate holds the inputs and the baselines that need no derivatives:
//!
//! * [`w1`]: the PINN network (Glorot-normal MLP 3 → 128 → 128 → 128 → 128 → 3), its 8192 collocation
//!   points, the batched primal (one GEMM per layer and block) and the point-by-point
//!   primal;
//! * [`w1_hand`]: W1's hand-written baselines as the anchor implementations write them
//!   (the batched primal `R` and the six-stream residual pass), with the GEMM and the
//!   tanh chosen per run;
//! * [`w2`]: the Rosenbrock input, the function and its hand-written analytic gradient;
//! * [`w3`]: the dense tanh chain's matrices, point and tangents, and the primal
//!   GEMV chain;
//! * [`jvp`]: Rosenbrock, Ackley and a scalar chain as `#[autodiff]` functions, written
//!   by hand over `NDual`, and their seeded tangents (the derived-rule benchmark);
//! * [`primitives`]: a logistic layer through a hand-written primitive rule and through
//!   the derived one (the user-primitive benchmark);
//! * [`layout`]: the element-major block against parallel arrays (the layout
//!   ablation) and the LU system of the linear-algebra benchmark;
//! * [`brusselator`]: the 2-D Brusselator residual of the sparse-Jacobian benchmark;
//! * [`coercion`]: a slice rule called through the coercions rustc applies at a call
//!   (fixed arrays, sub-slices, `&mut`), against passing a view on;
//! * [`interleave`]: interleaved timing rounds behind every printed ratio table.
//!
//! The derivative side (derived rules, `num-dual` comparisons, the W1 residual pass) is
//! added by later issues, next to these baselines.

pub mod brusselator;
pub mod coercion;
pub mod interleave;
pub mod jvp;
pub mod layout;
pub mod primitives;
mod splitmix;
mod vector_state;
pub mod w1;
pub mod w1_hand;
pub mod w2;
pub mod w3;

pub use splitmix::SplitMix64;
pub use vector_state::clear_upper_vector_state;
