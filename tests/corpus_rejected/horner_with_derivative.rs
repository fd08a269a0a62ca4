use lifted::autodiff;

/// A polynomial and its derivative by Horner's rule at once.
#[autodiff(forward)]
pub fn horner_with_derivative(coeffs: &[f64], x: f64) -> (f64, f64) {
    let mut p = coeffs[0];
    let mut dp = 0.0;
    for &c in &coeffs[1..] {
        dp = dp * x + p;
        p = p * x + c;
    }
    (p, dp)
}

fn main() {}
