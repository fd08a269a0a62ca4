use lifted::autodiff;

#[autodiff(forward)]
fn f(x: &[f64], y: &[f64]) -> f64 {
    let mut s = 0.0;
    for (i, v) in x.iter().enumerate() {
        s += v * (i as f64);
    }
    for (a, b) in x.iter().zip(y.iter()) {
        s += a * b;
    }
    s
}

fn main() {
    let _ = f::frule::<f64>(&[1.0, 2.0], &[3.0, 4.0]);
}
