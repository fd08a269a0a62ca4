use lifted::autodiff;

/// log Σ exp(xᵢ), shifted by the maximum.
#[autodiff(forward)]
pub fn log_sum_exp(x: &[f64]) -> f64 {
    let m = x.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    m + x.iter().map(|v| (v - m).exp()).sum::<f64>().ln()
}

/// The log-softmax, by a loop writing into a preallocated vector.
#[autodiff(forward)]
pub fn log_softmax(x: &[f64]) -> Vec<f64> {
    let lse = log_sum_exp(x);
    let mut out = vec![0.0; x.len()];
    for i in 0..x.len() {
        out[i] = x[i] - lse;
    }
    out
}

fn main() {}
