use lifted::autodiff;

#[autodiff(forward)]
fn f(x: f64, k: i32) -> f64 {
    match k {
        0 | 1 => x,
        n if n > 5 => x * 2.0,
        2..=4 => -x,
        _ => 0.0,
    }
}

fn main() {
    let _ = f::frule::<f64>(2.0, 3);
}
