use lifted::autodiff;

#[autodiff(forward)]
fn f(x: &[f64]) -> f64 {
    x[0] * x[1]
}

fn main() {
    let _ = f::frule::<f64>(&[1.0, 2.0]);
}
