use lifted::autodiff;

#[autodiff(forward)]
fn f(x: f64, flag: bool) -> f64 {
    if flag && !(x > 3.0) { x } else { -x }
}

fn main() {
    let _ = f::frule::<f64>(2.5, true);
}
