use lifted::{NDual, autodiff};

#[autodiff(forward)]
fn f(x: f64) -> f64 {
    x * x * x
}

fn main() {
    let _ = f::frule::<NDual<NDual<f64, 1>, 1>>(NDual::variable(NDual::variable(2.0, 0), 0));
}
