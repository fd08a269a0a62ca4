use lifted::autodiff;

/// The q-quantile by linear interpolation between order statistics.
#[autodiff(forward)]
pub fn quantile(x: &[f64], q: f64) -> f64 {
    let mut sorted = x.to_vec();
    sorted.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let pos = q * (sorted.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = (lo + 1).min(sorted.len() - 1);
    let frac = pos - lo as f64;
    sorted[lo] * (1.0 - frac) + sorted[hi] * frac
}

fn main() {}
