use lifted::autodiff;

#[autodiff(forward)]
fn pairs(x: &[f64]) -> f64 {
    let (_, pairs) = x.as_rchunks::<2>();
    pairs.iter().map(|p| p[0] * p[1]).sum()
}

#[autodiff(forward)]
fn has_one(x: &[f64]) -> f64 {
    if x.contains(&1.0) { x[0] } else { 0.0 }
}

#[autodiff(forward)]
fn rotated(x: Vec<f64>) -> f64 {
    let mut y = x.clone();
    y.rotate_left(1);
    y.dedup();
    y[0] * x[0]
}

fn main() {}
