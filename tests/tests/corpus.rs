//! A corpus of ordinary numerical functions, each annotated with
//! `#[autodiff(forward)]` and checked by one harness against its primal function:
//! gradients or Jacobians at several chunk widths, a directional derivative and
//! `check_rule`, all against finite differences of the primal.
//!
//! The functions are written as people write them (index loops, `a = a + b`, a
//! counter beside a range), not as clippy would have them.
#![allow(
    clippy::needless_range_loop,
    clippy::assign_op_pattern,
    clippy::explicit_counter_loop,
    clippy::useless_vec,
    clippy::manual_is_multiple_of
)]

#[path = "corpus/harness.rs"]
mod harness;

#[path = "corpus/argmin.rs"]
mod argmin;
#[path = "corpus/difftests.rs"]
mod difftests;
#[path = "corpus/finance.rs"]
mod finance;
#[path = "corpus/geometry.rs"]
mod geometry;
#[path = "corpus/idioms.rs"]
mod idioms;
#[path = "corpus/interpolation.rs"]
mod interpolation;
#[path = "corpus/linalg.rs"]
mod linalg;
#[path = "corpus/ml.rs"]
mod ml;
#[path = "corpus/num_dual.rs"]
mod num_dual;
#[path = "corpus/ode.rs"]
mod ode;
#[path = "corpus/optim.rs"]
mod optim;
#[path = "corpus/physics.rs"]
mod physics;
#[path = "corpus/quadrature.rs"]
mod quadrature;
#[path = "corpus/recovered.rs"]
mod recovered;
#[path = "corpus/recovered_calls.rs"]
mod recovered_calls;
#[path = "corpus/roots.rs"]
mod roots;
#[path = "corpus/rustc_autodiff.rs"]
mod rustc_autodiff;
#[path = "corpus/statistics.rs"]
mod statistics;
