use lifted::autodiff;

/// A product through reference parameters.
#[autodiff(forward)]
pub fn scaled_by_ref(x: &f64, k: &f64) -> f64 {
    x * k + 1.0
}

fn main() {}
