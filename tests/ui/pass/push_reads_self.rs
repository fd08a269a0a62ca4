use lifted::autodiff;

#[autodiff(forward)]
fn f(x: f64) -> Vec<f64> {
    let mut v = vec![x];
    v.push(v[0] * x);
    v
}

fn main() {
    let _ = f::frule::<f64>(0.7);
}
