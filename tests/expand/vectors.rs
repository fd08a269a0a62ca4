#[autodiff(forward)]
fn vectors(x: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; x.len()];
    for (i, v) in x.iter().enumerate() {
        out[i] = v * i as f64;
    }
    for v in out.iter_mut() {
        *v = v.exp();
    }
    out
}
