use lifted::autodiff;

#[autodiff(forward)]
fn f(y: &mut [f64], x: &[f64]) {
    for (v, a) in y.iter_mut().zip(x.iter()) {
        *v = *v * a;
    }
    for (i, v) in y.iter_mut().enumerate() {
        *v += i as f64;
    }
}

fn main() {
    let mut y = [0.3, -0.7];
    f::frule::<f64>(&mut y, &[1.2, 0.5]);
}
