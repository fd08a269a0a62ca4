use lifted::autodiff;

#[autodiff(forward)]
fn f<T: Copy>(x: f64, _t: T) -> f64 {
    x * x
}

fn main() {}
