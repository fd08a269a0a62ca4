use lifted::autodiff;

#[autodiff(forward)]
fn g(y: &mut [f64], x: f64) {
    y[0] = x;
}
#[autodiff(forward)]
fn f(x: f64) -> f64 {
    let mut y = vec![0.0; 2];
    g(&mut y, x);
    g(&mut y, x * 2.0);
    y[0] + y[1]
}

fn main() {
    let _ = f::frule::<f64>(2.5);
}
