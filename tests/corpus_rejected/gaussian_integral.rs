use lifted::autodiff;

/// The composite trapezoid rule for any integrand.
#[autodiff(forward)]
pub fn trapezoid_generic(f: impl Fn(f64) -> f64, a: f64, b: f64, n: usize) -> f64 {
    let h = (b - a) / n as f64;
    let mut s = 0.5 * (f(a) + f(b));
    for i in 1..n {
        s += f(a + i as f64 * h);
    }
    s * h
}

/// ∫ exp(-k x²) through the generic trapezoid rule.
#[autodiff(forward)]
pub fn gaussian_integral(k: f64) -> f64 {
    trapezoid_generic(|x| (-k * x * x).exp(), -2.0, 2.0, 64)
}

fn main() {}
