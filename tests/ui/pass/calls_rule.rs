use lifted::autodiff;

#[autodiff(forward)]
fn g(x: f64) -> f64 {
    x * x
}
#[autodiff(forward)]
fn f(x: f64) -> f64 {
    g(x) + g(2.0)
}

fn main() {
    let _ = f::frule::<f64>(2.5);
}
