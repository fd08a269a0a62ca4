use lifted::autodiff;

#[autodiff(forward)]
fn sumsq(x: &[f64]) -> f64 {
    x.iter().map(|v| v * v).sum::<f64>()
}

#[autodiff(forward)]
fn f(x: f64) -> f64 {
    x * sumsq(&[1.0, 2.0]) + sumsq(&[x, x]) + sumsq(&vec![x, 2.0]) + sumsq(&[x; 2])
}

fn main() {
    let _ = f::frule::<f64>(0.7);
}
