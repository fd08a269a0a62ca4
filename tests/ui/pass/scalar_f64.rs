use lifted::{NDual, autodiff};

#[autodiff(forward)]
fn f(x: f64) -> f64 {
    x * x + 1.0
}

fn main() {
    let _ = f::frule::<NDual<f64, 2>>(NDual::variable(1.0, 0));
}
