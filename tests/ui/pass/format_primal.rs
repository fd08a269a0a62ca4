use lifted::{NDual, autodiff};

#[autodiff(forward)]
fn f(x: f64) -> f64 {
    let y = x * 2.0;
    let s = format!("{} {y} {:?} {z}", x, (x, 1), z = y);
    assert_eq!(s, "0.5 1 (0.5, 1) 1");
    println!("{x} {s}");
    y
}

fn main() {
    let _ = f::frule::<f64>(0.5);
    let _ = f::frule::<NDual<f64, 2>>(NDual::variable(0.5, 0));
}
