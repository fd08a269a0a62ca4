use lifted::autodiff;

#[autodiff(forward)]
fn f(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for v in x {
        s += v * 2.0;
    }
    for &v in x {
        s += v;
    }
    s
}

fn main() {
    let _ = f::frule::<f64>(&[1.0, 2.0]);
}
