use lifted::autodiff;

#[autodiff(forward)]
fn f(x: f64) -> f64 {
    x * std::f64::consts::PI + f64::EPSILON + std::f64::consts::E * x
}

fn main() {
    let _ = f::frule::<f64>(2.5);
}
