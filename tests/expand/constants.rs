#[autodiff(forward)]
fn weighted(x: &[f64], #[constant] w: &[f64], #[constant] scale: f64) -> f64 {
    let h = 0.5;
    let mut s = 0.0;
    for i in 0..x.len() {
        s += w[i] * x[i];
    }
    scale * s + 2.0 * h
}
