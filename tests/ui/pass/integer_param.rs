use lifted::autodiff;

#[autodiff(forward)]
fn f(x: f64, n: i32) -> f64 {
    x.powi(n)
}

fn main() {
    let _ = f::frule::<f64>(2.0, 3);
}
