//! The transformation behind `#[autodiff]`, as a plain library: `syn` in, `syn` out.
//!
//! This crate has no `proc_macro` dependency so that every step is unit-tested with
//! `parse_quote!`. The procedural macro crate `lifted-macros` is a thin wrapper.
#![forbid(unsafe_code)]
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
