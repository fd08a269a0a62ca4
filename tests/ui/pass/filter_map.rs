use lifted::autodiff;

#[autodiff(forward)]
fn f(x: &[f64]) -> f64 {
    x.iter().filter(|v| **v > 0.0).map(|v| v.exp()).sum::<f64>()
}

fn main() {
    let _ = f::frule::<f64>(&[1.0, -2.0]);
}
