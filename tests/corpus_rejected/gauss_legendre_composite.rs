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

/// Composite 5-point Gauss–Legendre of a polynomial-times-exponential over
/// `panels` panels, nodes and weights zipped.
#[autodiff(forward)]
pub fn gauss_legendre_composite(a: f64, b: f64, lambda: f64, panels: usize) -> f64 {
    let width = (b - a) / panels as f64;
    let mut total = 0.0;
    for p in 0..panels {
        let lo = a + p as f64 * width;
        let mid = lo + 0.5 * width;
        for (&t, &w) in GL5_NODES.iter().zip(GL5_WEIGHTS.iter()) {
            let x = mid + 0.5 * width * t;
            total += w * x * x * (-lambda * x).exp();
        }
    }
    0.5 * width * total
}

fn main() {}
