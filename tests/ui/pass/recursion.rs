use lifted::autodiff;

#[autodiff(forward)]
fn f(x: f64, n: u32) -> f64 {
    if n == 0 { 1.0 } else { x * f(x, n - 1) }
}

fn main() {
    let _ = f::frule::<f64>(2.5, 3);
}
