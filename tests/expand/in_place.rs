#[autodiff(forward)]
fn axpy(a: f64, x: &[f64], y: &mut [f64]) {
    for i in 0..y.len() {
        y[i] += a * x[i];
    }
}
