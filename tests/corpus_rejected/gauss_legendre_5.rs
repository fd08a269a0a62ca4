use lifted::autodiff;

/// Nodes of the 5-point Gauss–Legendre rule on [-1, 1].
const GL5_NODES: [f64; 5] = [
    -0.906_179_845_938_664,
    -0.538_469_310_105_683,
    0.0,
    0.538_469_310_105_683,
    0.906_179_845_938_664,
];

/// Weights of the 5-point Gauss–Legendre rule.
const GL5_WEIGHTS: [f64; 5] = [
    0.236_926_885_056_189,
    0.478_628_670_499_366,
    0.568_888_888_888_889,
    0.478_628_670_499_366,
    0.236_926_885_056_189,
];

/// ∫ₐᵇ sin(ωx)/(1 + x²) dx by 5-point Gauss–Legendre.
#[autodiff(forward)]
pub fn gauss_legendre_5(a: f64, b: f64, omega: f64) -> f64 {
    let half = 0.5 * (b - a);
    let mid = 0.5 * (a + b);
    let mut s = 0.0;
    for i in 0..5 {
        let x = mid + half * GL5_NODES[i];
        s += GL5_WEIGHTS[i] * (omega * x).sin() / (1.0 + x * x);
    }
    half * s
}

fn main() {}
