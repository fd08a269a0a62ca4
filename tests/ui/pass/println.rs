use lifted::autodiff;

#[autodiff(forward)]
fn f(x: &[f64]) -> f64 {
    println!("{} {}", x[0], x.len());
    x[0]
}

fn main() {
    let _ = f::frule::<f64>(&[2.5]);
}
