use lifted::{NDual, autodiff};

#[derive(Clone, Debug, PartialEq, lifted::Lift)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

#[autodiff(forward)]
fn polar(r: f64, t: f64) -> Point {
    let x = r * t.cos();
    Point { x, y: r * t.sin() }
}

#[autodiff(forward)]
fn origin(s: f64) -> Point {
    Point { x: 0.0, y: s }
}

fn main() {
    let p = polar::frule(NDual::<f64, 1>::new(2.0, [1.0]), NDual::constant(0.5));
    assert_eq!(p.primal(), polar(2.0, 0.5));
    let o = origin::frule::<f64>(1.5);
    assert_eq!((o.x, o.y), (0.0, 1.5));
}
