use lifted::autodiff;

#[derive(Clone, Copy, Debug, lifted::Lift)]
pub struct V2(pub f64, pub f64);

#[derive(Clone, Debug, lifted::Lift)]
pub struct Segment {
    pub a: V2,
    pub b: V2,
    #[constant]
    pub weight: f64,
}

#[autodiff(forward)]
fn length(s: &Segment) -> f64 {
    let dx = s.b.0 - s.a.0;
    let dy = s.b.1 - s.a.1;
    s.weight * (dx * dx + dy * dy).sqrt()
}

fn main() {
    let s = Segment { a: V2(0.0, 0.0), b: V2(3.0, 4.0), weight: 2.0 };
    assert_eq!(length::frule::<f64>(&SegmentDual::constant(&s)), 10.0);
}
