use lifted::autodiff;

/// Standard gravity.
const G: f64 = 9.81;

/// A particle of the plane.
#[derive(Clone, Debug, lifted::Lift)]
pub struct Particle {
    pub x: f64,
    pub y: f64,
    pub vx: f64,
    pub vy: f64,
    #[constant]
    pub mass: f64,
}

#[autodiff(forward)]
impl Particle {
    /// The kinetic energy.
    pub fn kinetic_energy(&self) -> f64 {
        0.5 * self.mass * (self.vx * self.vx + self.vy * self.vy)
    }

    /// The potential energy in uniform gravity.
    pub fn potential_energy(&self) -> f64 {
        self.mass * G * self.y
    }

    /// One explicit Euler step under gravity with linear drag.
    pub fn step(&mut self, drag: f64, dt: f64) {
        let ax = -drag * self.vx / self.mass;
        let ay = -G - drag * self.vy / self.mass;
        self.x += self.vx * dt;
        self.y += self.vy * dt;
        self.vx += ax * dt;
        self.vy += ay * dt;
    }
}

/// The kinetic energy of a particle, through its method.
#[autodiff(forward)]
pub fn kinetic_energy(p: &Particle) -> f64 {
    p.kinetic_energy()
}

/// The total energy after `n` steps with drag.
#[autodiff(forward)]
pub fn energy_after_steps(p: &Particle, drag: f64, n: usize) -> f64 {
    let mut q = p.clone();
    for _ in 0..n {
        q.step(drag, 0.01);
    }
    q.kinetic_energy() + q.potential_energy()
}

fn main() {}
