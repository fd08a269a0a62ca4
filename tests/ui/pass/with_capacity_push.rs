use lifted::autodiff;

#[autodiff(forward)]
fn f(x: &[f64]) -> Vec<f64> {
    let mut v: Vec<f64> = Vec::with_capacity(x.len());
    for i in 0..x.len() {
        v.push(x[i].exp());
    }
    v
}

fn main() {
    let _ = f::frule::<f64>(&[1.0]);
}
