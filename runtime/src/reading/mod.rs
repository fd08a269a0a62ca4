//! The reading layer's knowledge that every reading shares: the derivative table.
//!
//! A reading adds only its own algebra (the first-order chain rule of `NDual`, the
//! second-order one of `DiagJet`, the zero-skipping of `ZDual`) and reads every float
//! function's derivatives from [`table`].

#[macro_use]
pub(crate) mod table;
