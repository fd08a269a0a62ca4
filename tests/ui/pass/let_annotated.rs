use lifted::autodiff;

#[autodiff(forward)]
fn f(x: f64) -> f64 {
    let t: f64 = 1.0;
    let u: f64 = x * t;
    u
}

fn main() {
    let _ = f::frule::<f64>(2.0);
}
