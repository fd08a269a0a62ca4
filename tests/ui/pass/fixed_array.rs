use lifted::{NDual, autodiff};

#[autodiff(forward)]
fn f(p: [f64; 2]) -> f64 {
    let [a, b] = p;
    a * b
}

fn main() {
    let _ = f::frule::<NDual<f64, 1>>([NDual::variable(1.0, 0), NDual::constant(2.0)]);
}
