use lifted::autodiff;

#[autodiff(forward)]
fn f(x: f64, o: Option<usize>) -> Option<f64> {
    let k = o?;
    Some(x * k as f64)
}

fn main() {
    let _ = f::frule::<f64>(5.0, Some(1));
}
