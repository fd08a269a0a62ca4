use lifted::autodiff;

#[autodiff(forward)]
fn f(x: &[f64]) -> f64 {
    x.iter().filter(|&&v| v > 0.0).sum::<f64>()
}

fn main() {
    let _ = f::frule::<f64>(&[0.3, -0.7, 1.2]);
}
