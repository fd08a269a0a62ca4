use lifted::autodiff;

#[autodiff(forward)]
fn f(x: &[f64]) -> f64 {
    x[0][1]
}

fn main() {}
