use lifted::autodiff;

#[autodiff(forward)]
fn f(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for w in x.windows(2) {
        s += w[1] - w[0];
    }
    s
}

fn main() {
    let _ = f::frule::<f64>(&[1.0, 2.0, 4.0]);
}
