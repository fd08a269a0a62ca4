use lifted::autodiff;

#[autodiff(forward)]
fn f(x: f64) -> f64 {
    x * 1. + 1.0 + 1e-3 * x + 10.31_f64 + 2f64
}

fn main() {
    let _ = f::frule::<f64>(2.0);
}
