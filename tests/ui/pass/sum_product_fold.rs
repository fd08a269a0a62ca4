use lifted::autodiff;

#[autodiff(forward)]
fn f(x: &[f64]) -> f64 {
    let s: f64 = x.iter().sum();
    let p: f64 = x.iter().product();
    let q = x.iter().fold(0.0, |a, v| a + v * v);
    s + p + q
}

fn main() {
    let _ = f::frule::<f64>(&[1.0, 2.0]);
}
