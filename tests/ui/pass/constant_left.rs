use lifted::autodiff;

#[autodiff(forward)]
fn f(x: f64) -> f64 {
    1.0 - x + 2.0 * x + 3.0 / x + 4.0 % x
}

fn main() {
    let _ = f::frule::<f64>(2.0);
}
