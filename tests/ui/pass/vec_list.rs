use lifted::autodiff;

#[autodiff(forward)]
fn f(x: f64) -> Vec<f64> {
    vec![x, 2.0, x * x]
}

fn main() {
    let _ = f::frule::<f64>(2.0);
}
