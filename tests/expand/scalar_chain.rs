#[autodiff(forward)]
fn scalar_chain(x: f64) -> f64 {
    x.sin().powi(2) / x.cos().powi(2) + (x * x * x).sqrt() + 10.31_f64.powf(2.0 * x)
        + 1.0 / (1.0 + (-x).exp())
}
