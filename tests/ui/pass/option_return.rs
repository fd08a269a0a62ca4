use lifted::autodiff;

#[autodiff(forward)]
fn f(x: f64) -> Option<f64> {
    if x > 0.0 { Some(x.ln()) } else { None }
}

fn main() {
    let _ = f::frule::<f64>(2.5);
}
