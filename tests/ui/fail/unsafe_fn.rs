use lifted::autodiff;

#[autodiff(forward)]
unsafe fn f(x: f64) -> f64 {
    x * x
}

fn main() {}
