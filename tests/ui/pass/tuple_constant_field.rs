use lifted::{NDual, autodiff};

#[autodiff(forward)]
fn f(x: f64) -> f64 {
    let mut t = (0.0, 1.0);
    t.0 = x;
    t.1 *= x;
    t.0 * t.1
}

fn main() {
    let _ = f::frule::<f64>(0.7);
    let _ = f::frule::<NDual<f64, 2>>(NDual::variable(0.7, 0));
}
