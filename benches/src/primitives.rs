//! A local function declared a primitive because its hand-written rule beats the
//! derived one: the logistic function `1 / (1 + e⁻ˣ)` inside a small layer, once through
//! the primitive (`logistic` with its rule module: one `exp`, the derivative
//! `s(1 − s)` from the value) and once written inline, so the macro derives it (an `exp`
//! and a dual division). `runtime/examples/primitives.rs` shows and checks the same
//! primitive.

use lifted::autodiff;

/// The logistic function.
pub fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The rule of [`logistic`]: the value once, the derivatives from it.
#[allow(non_snake_case)]
pub mod logistic {
    use lifted::Reading;

    /// Runs at readings up to second order.
    #[inline]
    pub fn frule<D: Reading<f64>>(x: D) -> D {
        const { assert!(D::ORDER <= 2, "logistic's rule knows two derivatives") };
        let s = super::logistic(x.primal_scalar());
        let d1 = s * (1.0 - s);
        x.compose(&[s, d1, d1 * (1.0 - 2.0 * s)])
    }
}

/// Σᵢ logistic(wᵢ · x + bᵢ) through the primitive.
#[autodiff(forward, chunk = 8)]
pub fn layer_primitive(x: f64, #[constant] w: &[f64], #[constant] b: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..w.len() {
        s += logistic(x * w[i] + b[i]);
    }
    s
}

/// The same with the logistic function written inline: the macro derives it.
#[autodiff(forward, chunk = 8)]
pub fn layer_derived(x: f64, #[constant] w: &[f64], #[constant] b: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..w.len() {
        s += 1.0 / (1.0 + (-(x * w[i] + b[i])).exp());
    }
    s
}
