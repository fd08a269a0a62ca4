use lifted::autodiff;

#[autodiff(forward)]
fn f(x: f64, #[constant] w: &[f64], #[constant] c: f64) -> f64 {
    x * w[0] + c * x
}

fn main() {
    let _ = f::frule::<f64>(2.5, &[1.0], 2.0);
}
