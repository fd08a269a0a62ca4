use lifted::{NDual, autodiff};

#[autodiff(forward)]
fn f(x: f32) -> f32 {
    x * x + 1.0
}

fn main() {
    let _ = f::frule::<NDual<f32, 2>>(NDual::variable(1.0, 0));
}
