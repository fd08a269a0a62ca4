use lifted::autodiff;

#[autodiff(forward)]
fn f(x: f64) -> f64 {
    let k = x * 2.0;
    let g = |t: f64| t * k;
    g(x) + g(1.0)
}

fn main() {
    let _ = f::frule::<f64>(2.0);
}
