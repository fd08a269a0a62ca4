use lifted::autodiff;

#[autodiff(forward)]
fn f(x: &[f64]) -> f64 {
    let mut s = 0.0;
    x.iter().for_each(|v| s += v);
    s
}

fn main() {
    let _ = f::frule::<f64>(&[0.3, -0.7, 1.2]);
}
