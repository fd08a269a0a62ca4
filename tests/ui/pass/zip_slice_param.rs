use lifted::autodiff;

#[autodiff(forward)]
fn f(x: &[f64], y: &[f64]) -> f64 {
    let mut s = 0.0;
    for (a, b) in x.iter().zip(y) {
        s += a * b;
    }
    s + x.iter().chain(y).sum::<f64>()
}

fn main() {
    let _ = f::frule::<f64>(&[1.0, 2.0], &[3.0, 4.0]);
}
