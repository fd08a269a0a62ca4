use lifted::autodiff;

#[autodiff(forward)]
fn f(x: f64) -> Vec<f64> {
    let mut v = Vec::with_capacity(2);
    v.push(x);
    v.push(1.0);
    let mut w = Vec::new();
    w.push(x * 2.0);
    v.push(w[0]);
    v
}

fn main() {
    let _ = f::frule::<f64>(0.7);
}
