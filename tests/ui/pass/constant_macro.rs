use lifted::autodiff;

#[autodiff(forward)]
fn f(x: f64, n: usize) -> f64 {
    x * lifted::constant!((n as f64).sqrt())
}

fn main() {
    let _ = f::frule::<f64>(2.5, 4);
}
