use lifted::autodiff;

/// Rosenbrock's valley over neighbouring pairs, `x.iter().zip(&x[1..])`.
#[autodiff(forward)]
pub fn rosenbrock_zip(x: &[f64]) -> f64 {
    x.iter()
        .zip(&x[1..])
        .map(|(&a, &b)| 100.0 * (b - a * a).powi(2) + (1.0 - a).powi(2))
        .sum()
}

fn main() {}
