use lifted::autodiff;

#[autodiff(forward)]
fn f(x: f64) -> f64 {
    -(x - 1.0) * -(2.0) + (-x)
}

fn main() {
    let _ = f::frule::<f64>(2.5);
}
