use lifted::autodiff;

#[autodiff(forward)]
fn f(x: f64) -> f64 {
    let p = &raw const x;
    x * 2.0
}

fn main() {}
