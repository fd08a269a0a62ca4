use lifted::autodiff;

/// The mean absolute deviation from the median, sorting with `sort_unstable_by`
/// and `total_cmp`.
#[autodiff(forward)]
pub fn median_abs_deviation(x: &[f64]) -> f64 {
    let mut v: Vec<f64> = x.to_vec();
    v.sort_unstable_by(|a, b| a.total_cmp(b));
    let med = v[v.len() / 2];
    x.iter().map(|&a| (a - med).abs()).sum::<f64>() / x.len() as f64
}

fn main() {}
