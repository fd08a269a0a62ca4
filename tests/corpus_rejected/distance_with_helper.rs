use lifted::autodiff;

/// A square, not annotated.
fn sq(x: f64) -> f64 {
    x * x
}

/// A distance through an unannotated helper.
#[autodiff(forward)]
pub fn distance_with_helper(x: f64, y: f64) -> f64 {
    (sq(x) + sq(y)).sqrt()
}

fn main() {}
