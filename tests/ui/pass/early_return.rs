use lifted::autodiff;

#[autodiff(forward)]
fn f(x: f64) -> f64 {
    if x < 0.0 {
        return 0.0;
    }
    x.sqrt()
}

fn main() {
    let _ = f::frule::<f64>(5.0);
}
