use lifted::autodiff;

/// The Poisson log-likelihood with counts stored as floats, the data constant.
#[autodiff(forward)]
pub fn poisson_float_counts(#[constant] counts: &[f64], rate: f64) -> f64 {
    counts
        .iter()
        .map(|&k| k * rate.ln() - rate - (1..=k as usize).map(|j| (j as f64).ln()).sum::<f64>())
        .sum()
}

fn main() {}
