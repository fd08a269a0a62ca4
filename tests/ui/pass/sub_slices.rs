use lifted::autodiff;

#[autodiff(forward)]
fn g(x: &[f64]) -> f64 {
    x[0]
}

#[autodiff(forward)]
fn f(x: &[f64]) -> f64 {
    let a = &x[1..];
    let b = &x[..x.len() - 1];
    a[0] + b[0]
}

fn main() {
    let _ = f::frule::<f64>(&[1.0, 2.0, 3.0]);
}
