use lifted::autodiff;

#[autodiff(forward)]
fn f(x: f64) -> f64 {
    let y = x;
    let y = y * 2.0;
    let y = y + 1.0;
    y
}

fn main() {
    let _ = f::frule::<f64>(2.0);
}
