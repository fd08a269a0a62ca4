use lifted::autodiff;

#[autodiff(forward)]
fn f(x: f64) -> f64 {
    fn square(v: f64) -> f64 {
        v * v
    }
    square(x)
}

fn main() {}
