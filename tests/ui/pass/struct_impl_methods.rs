use lifted::{NDual, autodiff};

#[derive(Clone, Debug, lifted::Lift)]
pub struct Oscillator {
    pub q: f64,
    pub p: f64,
    #[constant]
    pub omega: f64,
}

#[autodiff(forward)]
impl Oscillator {
    /// The energy.
    pub fn energy(&self) -> f64 {
        0.5 * (self.p * self.p + self.omega * self.omega * self.q * self.q)
    }

    /// A symplectic Euler step.
    pub fn step(&mut self, dt: f64) {
        self.p -= self.omega * self.omega * self.q * dt;
        self.q += self.p * dt;
    }

    /// A copy with a different momentum.
    pub fn with_momentum(&self, p: f64) -> Self {
        Self { q: self.q, p, omega: self.omega }
    }
}

#[autodiff(forward)]
fn energy_after(o: &Oscillator, dt: f64) -> f64 {
    let mut s = o.with_momentum(o.p * 2.0);
    s.step(dt);
    s.energy()
}

fn main() {
    let o = Oscillator { q: 1.0, p: 0.5, omega: 2.0 };
    let d = OscillatorDual::<NDual<f64, 1>> { q: NDual::new(1.0, [1.0]), p: NDual::constant(0.5), omega: 2.0 };
    let e = energy_after::frule(&d, NDual::constant(0.1));
    assert_eq!(e.value(), energy_after(&o, 0.1));
}
