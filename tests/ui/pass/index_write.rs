use lifted::autodiff;

#[autodiff(forward)]
fn f(x: &[f64]) -> Vec<f64> {
    let mut y = vec![0.0; x.len()];
    for i in 0..x.len() {
        y[i] = x[i] * 2.0;
        y[i] += 1.0;
    }
    y
}

fn main() {
    let _ = f::frule::<f64>(&[1.0, 2.0]);
}
