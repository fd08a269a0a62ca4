//! Computations written once for every width (or order) and run at one chosen later.
//!
//! A chunk width is a const generic (`NDual<F, N>`), so a width chosen by a value
//! (a driver's setting, a width `check_rule` is asked for) is matched against the
//! widths instantiated ahead of time, and a computation written once for every `N` —
//! a visitor — is called at it. The visitors are here, below the rules, because a
//! rule names one of them: [`FRule::at_chunk`](crate::FRule::at_chunk) runs a visitor
//! at the rule's own width, which only the code that knows the literal can
//! instantiate.
//!
//! Each visitor's bound lists the readings a computation at that width may use;
//! they are the readings the drivers run at.

use crate::{DiagJet, NDual, Reading, Scalar, Taylor, ZDual};

/// A computation generic over the chunk width: the first-order passes of gradients,
/// Jacobians and directional derivatives.
pub trait AtWidth<F: Scalar> {
    /// The result.
    type Output;
    /// Runs at width `N`.
    fn run<const N: usize>(self) -> Self::Output
    where
        NDual<F, N>: Reading<F>,
        ZDual<F, N>: Reading<F>;
}

/// A second-order computation generic over the chunk width: its readings nest
/// `NDual`s (forward over forward).
pub trait AtNestedWidth<F: Scalar> {
    /// The result.
    type Output;
    /// Runs at width `N`.
    fn run<const N: usize>(self) -> Self::Output
    where
        NDual<NDual<F, 1>, N>: Reading<F>,
        NDual<NDual<F, N>, N>: Reading<F>;
}

/// A computation generic over the width of a diagonal jet.
pub trait AtJetWidth<F: Scalar> {
    /// The result.
    type Output;
    /// Runs at width `N`.
    fn run<const N: usize>(self) -> Self::Output
    where
        DiagJet<F, N>: Reading<F>;
}

/// A computation generic over the truncation order of a Taylor polynomial.
pub trait AtOrder<F: Scalar> {
    /// The result.
    type Output;
    /// Runs at order `K`.
    fn run<const K: usize>(self) -> Self::Output
    where
        Taylor<F, K>: Reading<F>;
}
