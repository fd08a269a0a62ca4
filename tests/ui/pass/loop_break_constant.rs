use lifted::{NDual, autodiff};

#[autodiff(forward)]
fn f(x: f64) -> f64 {
    let mut y = x;
    loop {
        if y > 2.0 {
            break y;
        }
        if y < 0.0 {
            break 0.0;
        }
        y = y * 2.0;
    }
}

fn main() {
    let _ = f::frule::<f64>(0.7);
    let _ = f::frule::<NDual<f64, 2>>(NDual::variable(0.7, 0));
}
