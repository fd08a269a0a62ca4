use lifted::autodiff;

/// Trid: Σ (xᵢ − 1)² − Σ xᵢ xᵢ₋₁.
#[autodiff(forward)]
pub fn trid(x: &[f64]) -> f64 {
    let a: f64 = x.iter().map(|&v| (v - 1.0).powi(2)).sum();
    let b: f64 = x.windows(2).map(|w| w[0] * w[1]).sum();
    a - b
}

fn main() {}
