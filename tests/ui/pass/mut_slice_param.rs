use lifted::autodiff;

#[autodiff(forward)]
fn f(y: &mut [f64]) {
    y[0] = y[1] * 2.0;
}

fn main() {
    let _ = {
        let mut v = vec![1.0, 2.0];
        f::frule::<f64>(&mut v);
    };
}
