use lifted::autodiff;

fn helper(x: f64) -> f64 {
    x * 3.0
}

#[autodiff(forward)]
fn f(x: f64) -> f64 {
    helper(x) + 1.0
}

fn main() {}
