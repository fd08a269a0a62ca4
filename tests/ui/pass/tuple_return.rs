use lifted::{NDual, autodiff};

#[autodiff(forward)]
fn f(x: f64) -> (f64, f64) {
    (x.sin(), x.cos())
}

fn main() {
    let _ = f::frule::<NDual<f64, 1>>(NDual::variable(1.0, 0));
}
