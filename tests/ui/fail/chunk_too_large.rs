use lifted::autodiff;

#[autodiff(forward, chunk = 65)]
fn f(x: f64) -> f64 {
    x * x
}

fn main() {}
