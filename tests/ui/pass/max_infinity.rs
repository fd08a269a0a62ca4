use lifted::autodiff;

#[autodiff(forward)]
fn f(x: f64) -> f64 {
    let mut m = f64::NEG_INFINITY;
    if x > m {
        m = x;
    }
    m.min(f64::MAX)
}

fn main() {
    let _ = f::frule::<f64>(2.5);
}
