use lifted::autodiff;

/// The largest entry, by `max_by` with `partial_cmp`.
#[autodiff(forward)]
pub fn max_by_partial_cmp(x: &[f64]) -> f64 {
    *x.iter().max_by(|a, b| a.partial_cmp(b).unwrap()).unwrap()
}

fn main() {}
