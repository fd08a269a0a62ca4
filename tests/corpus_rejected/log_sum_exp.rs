use lifted::autodiff;

/// log Σ exp(xᵢ), shifted by the maximum.
#[autodiff(forward)]
pub fn log_sum_exp(x: &[f64]) -> f64 {
    let m = x.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    m + x.iter().map(|v| (v - m).exp()).sum::<f64>().ln()
}

fn main() {}
