use lifted::autodiff;

#[autodiff(forward)]
fn f(x: &[f64]) -> f64 {
    let mut v = x.to_vec();
    if !v.is_empty() {
        v.swap(0, 1);
    }
    v[0] * v.len() as f64
}

fn main() {
    let _ = f::frule::<f64>(&[1.0, 2.0]);
}
