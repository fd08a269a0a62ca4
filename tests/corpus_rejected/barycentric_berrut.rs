use lifted::autodiff;

/// Berrut's barycentric rational interpolant.
#[autodiff(forward)]
pub fn barycentric_berrut(xs: &[f64], ys: &[f64], x: f64) -> f64 {
    let mut num = 0.0;
    let mut den = 0.0;
    let mut sign = 1.0;
    for i in 0..xs.len() {
        let w = sign / (x - xs[i]);
        num += w * ys[i];
        den += w;
        sign = -sign;
    }
    num / den
}

fn main() {}
