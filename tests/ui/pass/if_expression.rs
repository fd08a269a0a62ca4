use lifted::autodiff;

#[autodiff(forward)]
fn f(x: f64) -> f64 {
    let y = if x > 0.0 { x } else { 0.0 };
    y
}

fn main() {
    let _ = f::frule::<f64>(2.0);
}
