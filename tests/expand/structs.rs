// A lifted struct, an annotated impl block and a function taking and returning the
// struct.

#[derive(Clone, Debug, lifted::Lift)]
pub struct Particle {
    pub x: f64,
    pub v: f64,
    #[constant]
    pub m: f64,
}

#[autodiff(forward)]
impl Particle {
    pub fn kinetic(&self) -> f64 {
        0.5 * self.m * self.v * self.v
    }

    pub fn advance(&mut self, dt: f64) {
        self.x += self.v * dt;
    }
}

#[autodiff(forward)]
pub fn step(p: &Particle, k: f64, dt: f64) -> Particle {
    let v = p.v - k * p.x / p.m * dt;
    Particle {
        x: p.x + v * dt,
        v,
        m: p.m,
    }
}
