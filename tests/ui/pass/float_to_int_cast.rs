use lifted::autodiff;

#[autodiff(forward)]
fn f(x: f64) -> f64 {
    let k = (x * 10.0) as usize;
    x * k as f64
}

fn main() {
    let _ = f::frule::<f64>(2.5);
}
