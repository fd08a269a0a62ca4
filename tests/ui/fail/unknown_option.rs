use lifted::autodiff;

#[autodiff(forward, width = 4)]
fn f(x: f64) -> f64 {
    x * x
}

fn main() {}
