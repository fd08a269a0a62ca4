#[autodiff(forward)]
fn iterators(x: &[f64]) -> f64 {
    let s: f64 = x.iter().map(|v| v * v).sum::<f64>();
    let p = x.iter().fold(1.0, |acc, v| acc * (1.0 + v));
    let mut w = 0.0;
    for win in x.windows(2) {
        w += win[1] - win[0];
    }
    s + p + w
}
