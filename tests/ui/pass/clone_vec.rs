use lifted::autodiff;

#[autodiff(forward)]
fn f(x: Vec<f64>) -> f64 {
    let y = x.clone();
    y[0] + x[1]
}

fn main() {
    let _ = f::frule::<f64>(vec![1.0, 2.0]);
}
