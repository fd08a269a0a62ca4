use lifted::{NDual, autodiff};

#[derive(Clone, Debug, lifted::Lift)]
pub struct Particle {
    pub x: f64,
    pub v: f64,
    #[constant]
    pub m: f64,
    #[constant]
    pub label: String,
}

#[autodiff(forward)]
fn energy(p: &Particle, k: f64) -> f64 {
    let m = p.m;
    m * p.v * p.v / 2.0 + 0.5 * k * p.x * p.x + p.label.len() as f64 * p.x
}

fn main() {
    let p = Particle { x: 1.0, v: 2.0, m: 3.0, label: "a".into() };
    let _ = energy::frule::<f64>(&ParticleDual::constant(&p), 2.0);
    let d = ParticleDual::<NDual<f64, 2>> {
        x: NDual::new(1.0, [1.0, 0.0]),
        v: NDual::new(2.0, [0.0, 1.0]),
        m: 3.0,
        label: "a".into(),
    };
    let e = energy::frule(&d, NDual::constant(2.0));
    assert_eq!(e.value(), energy(&p, 2.0));
}
