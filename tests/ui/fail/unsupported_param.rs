use lifted::autodiff;

#[autodiff(forward)]
fn f(x: f64, scale: Box<f64>) -> f64 {
    x * *scale
}

fn main() {}
