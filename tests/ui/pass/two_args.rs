use lifted::{NDual, autodiff};

#[autodiff(forward)]
fn f(x: f64, y: f64) -> f64 {
    x * y - y / x
}

fn main() {
    let _ = f::frule::<NDual<f64, 2>>(NDual::variable(1.0, 0), NDual::variable(2.0, 1));
}
