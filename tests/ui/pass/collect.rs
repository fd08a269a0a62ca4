use lifted::autodiff;

#[autodiff(forward)]
fn f(x: &[f64]) -> Vec<f64> {
    x.iter().map(|v| v * 2.0).collect::<Vec<f64>>()
}

fn main() {
    let _ = f::frule::<f64>(&[1.0]);
}
