use lifted::autodiff;

#[autodiff(forward)]
fn f(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in (0..x.len()).rev() {
        s += x[i];
    }
    for i in (0..x.len()).step_by(2) {
        s += x[i];
    }
    s
}

fn main() {
    let _ = f::frule::<f64>(&[1.0, 2.0, 3.0]);
}
