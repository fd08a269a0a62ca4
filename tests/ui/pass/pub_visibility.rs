use lifted::autodiff;

#[autodiff(forward)]
pub fn f(x: f64) -> f64 {
    x
}

fn main() {
    let _ = f::frule::<f64>(2.5);
}
