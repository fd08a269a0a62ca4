use lifted::autodiff;

#[autodiff(forward)]
fn f(x: f64) -> f64 {
    let mut y = x;
    y += 1.0;
    y -= x;
    y *= 3.0;
    y /= 2.0;
    y %= 5.0;
    y
}

fn main() {
    let _ = f::frule::<f64>(2.0);
}
