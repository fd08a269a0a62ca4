use lifted::{NDual, autodiff};

#[autodiff(forward)]
fn f(x: f64) -> f64 {
    let mut v = vec![x, x * x];
    let mut s = 0.0;
    while let Some(t) = v.pop() {
        s += t;
    }
    s
}

fn main() {
    let _ = f::frule::<f64>(0.7);
    let _ = f::frule::<NDual<f64, 2>>(NDual::variable(0.7, 0));
}
