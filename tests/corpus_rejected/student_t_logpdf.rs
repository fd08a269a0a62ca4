use lifted::autodiff;
use std::f64::consts::PI;

/// Lanczos coefficients (g = 7, n = 9).
const LANCZOS: [f64; 9] = [
    0.999_999_999_999_809_9,
    676.520_368_121_885_1,
    -1_259.139_216_722_402_8,
    771.323_428_777_653_1,
    -176.615_029_162_140_6,
    12.507_343_278_686_905,
    -0.138_571_095_265_720_12,
    9.984_369_578_019_572e-6,
    1.505_632_735_149_311_6e-7,
];

/// ln Γ(x) for x > 0.5 by the Lanczos approximation.
#[autodiff(forward)]
pub fn ln_gamma(x: f64) -> f64 {
    let x = x - 1.0;
    let mut a = LANCZOS[0];
    let t = x + 7.5;
    for i in 1..9 {
        a += LANCZOS[i] / (x + i as f64);
    }
    0.5 * (2.0 * PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// The Student-t log-density with its normalising constant.
#[autodiff(forward)]
pub fn student_t_logpdf(x: f64, mu: f64, sigma: f64, nu: f64) -> f64 {
    let z = (x - mu) / sigma;
    ln_gamma((nu + 1.0) / 2.0)
        - ln_gamma(nu / 2.0)
        - 0.5 * (nu * PI).ln()
        - sigma.ln()
        - (nu + 1.0) / 2.0 * (1.0 + z * z / nu).ln()
}

fn main() {}
