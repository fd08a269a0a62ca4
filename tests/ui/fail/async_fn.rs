use lifted::autodiff;

#[autodiff(forward)]
async fn f(x: f64) -> f64 {
    x * x
}

fn main() {}
