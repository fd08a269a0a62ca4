use lifted::autodiff;

#[autodiff(forward)]
fn f(x: f64, o: Option<usize>) -> f64 {
    if let Some(k) = o { x * k as f64 } else { x }
}

fn main() {
    let _ = f::frule::<f64>(2.0, Some(2));
}
