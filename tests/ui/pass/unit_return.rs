use lifted::autodiff;

#[autodiff(forward)]
fn f(y: &mut [f64], x: f64) {
    y[0] = x * 2.0;
}

fn main() {
    let _ = {
        let mut v = vec![0.0];
        f::frule::<f64>(&mut v, 1.0);
    };
}
