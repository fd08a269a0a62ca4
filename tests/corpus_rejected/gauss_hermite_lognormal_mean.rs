use lifted::autodiff;
use std::f64::consts::PI;

/// Nodes of the 3-point Gauss–Hermite rule (weight e^{-x²}).
static GH3_NODES: [f64; 3] = [-1.224_744_871_391_589, 0.0, 1.224_744_871_391_589];

/// Weights of the 3-point Gauss–Hermite rule.
static GH3_WEIGHTS: [f64; 3] = [
    0.295_408_975_150_919,
    1.181_635_900_603_677,
    0.295_408_975_150_919,
];

/// E[exp(X)] for X ~ N(μ, σ²) by 3-point Gauss–Hermite (static tables).
#[autodiff(forward)]
pub fn gauss_hermite_lognormal_mean(mu: f64, sigma: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..3 {
        let x = mu + std::f64::consts::SQRT_2 * sigma * GH3_NODES[i];
        s += GH3_WEIGHTS[i] * x.exp();
    }
    s / PI.sqrt()
}

fn main() {}
