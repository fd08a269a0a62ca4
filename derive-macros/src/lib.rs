//! Procedural macros of `lifted`. Use them through the `lifted` crate, which re-exports
//! them; this crate only parses and forwards to `lifted-derive-core`.
#![forbid(unsafe_code)]
