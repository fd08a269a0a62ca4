use lifted::{NDual, autodiff};

#[autodiff(forward)]
fn f(x: f64) -> f64 {
    let mut a = [0.0; 2];
    a[0] = x;
    a[1] += x * x;
    a[0] + a[1]
}

fn main() {
    let _ = f::frule::<f64>(0.7);
    let _ = f::frule::<NDual<f64, 2>>(NDual::variable(0.7, 0));
}
