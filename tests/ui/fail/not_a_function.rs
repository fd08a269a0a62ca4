use lifted::autodiff;

#[autodiff(forward)]
struct Point {
    x: f64,
}

fn main() {}
