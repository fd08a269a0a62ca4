use lifted::autodiff;

#[autodiff(forward)]
fn f(x: f64, y: f64) -> f64 {
    f64::max(x, y) + f64::sqrt(x) + f64::powi(y, 2)
}

fn main() {
    let _ = f::frule::<f64>(2.5, 1.0);
}
