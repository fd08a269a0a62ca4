use lifted::autodiff;

#[autodiff(forward)]
fn f(x: f64, y: f64) -> f64 {
    if x < y && 1.0 < x || x >= 2.0 || x == y || x != 0.5 {
        x
    } else {
        y
    }
}

fn main() {
    let _ = f::frule::<f64>(1.0, 2.0);
}
