use lifted::autodiff;

#[autodiff(forward)]
fn twice(x: &[f64]) -> Vec<f64> {
    x.iter().map(|v| v * 2.0).collect::<Vec<f64>>()
}

#[autodiff(forward)]
fn f(x: &[f64]) -> f64 {
    let v = twice(x);
    v[0] + twice(x)[1]
}

fn main() {
    let _ = f::frule::<f64>(&[0.3, -0.7]);
}
