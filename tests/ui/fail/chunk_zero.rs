use lifted::autodiff;

#[autodiff(forward, chunk = 0)]
fn f(x: f64) -> f64 {
    x
}

fn main() {}
