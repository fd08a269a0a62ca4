use lifted::autodiff;

#[autodiff(forward)]
fn f(x: f64, n: usize) -> f64 {
    x * n as f64 + (x as i64) as f64
}

fn main() {
    let _ = f::frule::<f64>(2.5, 3);
}
