use lifted::autodiff;

#[autodiff(forward)]
fn f(y: &mut [f64], x: &[f64]) -> f64 {
    let s = x[1..].iter().sum::<f64>();
    y[1..].fill(s);
    s + x[..2].len() as f64
}

fn main() {
    let mut y = [0.0; 3];
    let _ = f::frule::<f64>(&mut y, &[0.3, -0.7, 1.2]);
}
