//! Physics: energies and potentials, lifted structs with annotated methods.

use lifted::autodiff;
use std::f64::consts::PI;

/// Standard gravity.
const G: f64 = 9.81;
/// The gravitational constant, in units of the tests.
static GRAV: f64 = 1.0;
/// Speed of light, in units of the tests.
const C: f64 = 1.0;

/// A rigid body moving in the plane.
#[derive(Clone, Debug, lifted::Lift)]
pub struct Body {
    pub position: [f64; 2],
    pub velocity: [f64; 2],
    pub angular_velocity: f64,
    #[constant]
    pub mass: f64,
    #[constant]
    pub inertia: f64,
}

#[autodiff(forward)]
impl Body {
    /// Translational plus rotational kinetic energy.
    pub fn kinetic_energy(&self) -> f64 {
        let v2 = self.velocity[0] * self.velocity[0] + self.velocity[1] * self.velocity[1];
        0.5 * self.mass * v2 + 0.5 * self.inertia * self.angular_velocity * self.angular_velocity
    }

    /// The momentum.
    pub fn momentum(&self) -> [f64; 2] {
        [self.mass * self.velocity[0], self.mass * self.velocity[1]]
    }

    /// Moves the body for `dt` at constant velocity.
    pub fn drift(&mut self, dt: f64) {
        self.position[0] += self.velocity[0] * dt;
        self.position[1] += self.velocity[1] * dt;
    }
}

/// The kinetic energy of a body, through its method.
#[autodiff(forward)]
pub fn body_kinetic_energy(b: &Body) -> f64 {
    b.kinetic_energy()
}

/// The distance a body drifts from the origin, and its momentum.
#[autodiff(forward)]
pub fn body_after_drift(b: &Body, dt: f64) -> (f64, [f64; 2]) {
    let mut moved = b.clone();
    moved.drift(dt);
    let r = (moved.position[0].powi(2) + moved.position[1].powi(2)).sqrt();
    (r, moved.momentum())
}

/// A spring's elastic energy ½k(L − L₀)² between two points.
#[autodiff(forward)]
pub fn spring_energy(k: f64, rest: f64, a: [f64; 3], b: [f64; 3]) -> f64 {
    let d = ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt();
    0.5 * k * (d - rest).powi(2)
}

/// The energy of a chain of springs through consecutive positions.
#[autodiff(forward)]
pub fn spring_chain_energy(x: &[f64], k: f64, rest: f64) -> f64 {
    let mut e = 0.0;
    for w in x.windows(2) {
        let stretch = w[1] - w[0] - rest;
        e += 0.5 * k * stretch * stretch;
    }
    e
}

/// The energy of a pendulum at angle θ and angular velocity ω.
#[autodiff(forward)]
pub fn pendulum_energy(theta: f64, omega: f64, length: f64, mass: f64) -> f64 {
    0.5 * mass * length * length * omega * omega + mass * G * length * (1.0 - theta.cos())
}

/// The period of a pendulum of amplitude θ₀ by the series in sin²(θ₀/2).
#[autodiff(forward)]
pub fn pendulum_period(length: f64, theta0: f64) -> f64 {
    let k2 = (theta0 / 2.0).sin().powi(2);
    let mut series = 1.0;
    let mut coeff = 1.0;
    for n in 1..8 {
        let r = (2 * n - 1) as f64 / (2 * n) as f64;
        coeff *= r * r;
        series += coeff * k2.powi(n);
    }
    2.0 * PI * (length / G).sqrt() * series
}

/// The Lennard-Jones energy of particles with coordinates interleaved x y z.
#[autodiff(forward)]
pub fn lennard_jones(pos: &[f64], epsilon: f64, sigma: f64) -> f64 {
    let n = pos.len() / 3;
    let mut energy = 0.0;
    for i in 0..n {
        for j in (i + 1)..n {
            let dx = pos[3 * i] - pos[3 * j];
            let dy = pos[3 * i + 1] - pos[3 * j + 1];
            let dz = pos[3 * i + 2] - pos[3 * j + 2];
            let r2 = dx * dx + dy * dy + dz * dz;
            let s6 = (sigma * sigma / r2).powi(3);
            energy += 4.0 * epsilon * (s6 * s6 - s6);
        }
    }
    energy
}

/// The gravitational potential energy of point masses in the plane.
#[autodiff(forward)]
pub fn gravitational_potential(x: &[f64], y: &[f64], m: &[f64]) -> f64 {
    let mut u = 0.0;
    for i in 0..x.len() {
        for j in 0..i {
            let r = ((x[i] - x[j]).powi(2) + (y[i] - y[j]).powi(2)).sqrt();
            u -= GRAV * m[i] * m[j] / r;
        }
    }
    u
}

/// The Coulomb energy of charges on a line.
#[autodiff(forward)]
pub fn coulomb_energy(q: &[f64], x: &[f64]) -> f64 {
    let k = 8.99;
    let mut e = 0.0;
    for i in 0..q.len() {
        for j in i + 1..q.len() {
            e += k * q[i] * q[j] / (x[i] - x[j]).abs();
        }
    }
    e
}

/// The Morse potential.
#[autodiff(forward)]
pub fn morse(r: f64, de: f64, a: f64, re: f64) -> f64 {
    de * (1.0 - (-a * (r - re)).exp()).powi(2)
}

/// The range of a projectile on flat ground.
#[autodiff(forward)]
pub fn projectile_range(v0: f64, angle: f64) -> f64 {
    v0 * v0 * (2.0 * angle).sin() / G
}

/// The maximum height of a projectile launched from height h₀.
#[autodiff(forward)]
pub fn projectile_apex(v0: f64, angle: f64, h0: f64) -> f64 {
    let vy = v0 * angle.sin();
    h0 + vy * vy / (2.0 * G)
}

/// The relativistic kinetic energy (γ − 1)mc².
#[autodiff(forward)]
pub fn relativistic_kinetic(m: f64, v: f64) -> f64 {
    let gamma = 1.0 / (1.0 - v * v / (C * C)).sqrt();
    (gamma - 1.0) * m * C * C
}

/// The van der Waals pressure.
#[autodiff(forward)]
pub fn van_der_waals_pressure(n: f64, volume: f64, temperature: f64, a: f64, b: f64) -> f64 {
    let r = 8.314;
    n * r * temperature / (volume - n * b) - a * n * n / (volume * volume)
}

/// The refraction angle by Snell's law.
#[autodiff(forward)]
pub fn snell(theta_in: f64, n1: f64, n2: f64) -> f64 {
    (n1 / n2 * theta_in.sin()).asin()
}

/// The centre of mass of weighted points on a line.
#[autodiff(forward)]
pub fn center_of_mass(x: &[f64], m: &[f64]) -> f64 {
    let total: f64 = m.iter().sum();
    x.iter().zip(m.iter()).map(|(xi, mi)| xi * mi).sum::<f64>() / total
}

/// The moment of inertia about the centroid of point masses in the plane.
#[autodiff(forward)]
pub fn moment_of_inertia(x: &[f64], y: &[f64], m: &[f64]) -> f64 {
    let total: f64 = m.iter().sum();
    let cx = x.iter().zip(m).map(|(a, b)| a * b).sum::<f64>() / total;
    let cy = y.iter().zip(m).map(|(a, b)| a * b).sum::<f64>() / total;
    let mut inertia = 0.0;
    for i in 0..m.len() {
        inertia += m[i] * ((x[i] - cx).powi(2) + (y[i] - cy).powi(2));
    }
    inertia
}

/// The orbital period from Kepler's third law.
#[autodiff(forward)]
pub fn kepler_period(semi_major: f64, mass: f64) -> f64 {
    2.0 * PI * (semi_major.powi(3) / (GRAV * mass)).sqrt()
}

/// The Doppler-shifted frequency for a moving source and observer.
#[autodiff(forward)]
pub fn doppler(f0: f64, v_obs: f64, v_src: f64) -> f64 {
    let c = 343.0;
    f0 * (c + v_obs) / (c - v_src)
}

/// The energy of a harmonic chain with periodic boundaries.
#[autodiff(forward)]
pub fn harmonic_ring_energy(q: &[f64], p: &[f64], k: f64) -> f64 {
    let n = q.len();
    let mut e = 0.0;
    for i in 0..n {
        let next = q[(i + 1) % n];
        e += 0.5 * p[i] * p[i] + 0.5 * k * (next - q[i]).powi(2);
    }
    e
}

crate::cases! {
    body_kinetic_energy(Body {
        position: [0.1, 2.0],
        velocity: [1.3, -0.4],
        angular_velocity: 0.7,
        mass: 2.5,
        inertia: 0.4,
    }),
    body_after_drift(
        Body {
            position: [0.1, 2.0],
            velocity: [1.3, -0.4],
            angular_velocity: 0.7,
            mass: 2.5,
            inertia: 0.4,
        },
        0.3,
    ),
    spring_energy(3.5, 1.1, [0.1, 0.2, 0.3], [1.0, -0.4, 0.9]),
    spring_chain_energy(&[0.0, 1.2, 2.1, 3.5, 4.4], 2.0, 1.0),
    pendulum_energy(0.4, 1.3, 0.8, 1.5),
    pendulum_period(1.2, 0.6),
    lennard_jones(&[0.0, 0.0, 0.0, 1.1, 0.1, 0.0, 0.3, 1.2, -0.2, 0.9, 0.8, 0.9], 1.0, 1.0),
    gravitational_potential(&[0.0, 1.0, 0.4], &[0.0, 0.2, 1.1], &[1.0, 2.0, 0.5]),
    coulomb_energy(&[1.0, -0.5, 0.8], &[0.0, 1.3, 2.9]),
    morse(1.4, 4.7, 1.9, 1.1),
    projectile_range(12.0, 0.6),
    projectile_apex(12.0, 0.6, 1.5),
    relativistic_kinetic(2.0, 0.6),
    van_der_waals_pressure(1.5, 0.03, 300.0, 0.14, 3.2e-5),
    snell(0.5, 1.0, 1.33),
    center_of_mass(&[0.0, 1.2, 2.1, 3.5], &[1.0, 2.0, 0.5, 1.5]),
    moment_of_inertia(&[0.0, 1.2, 2.1], &[0.3, -0.4, 1.0], &[1.0, 2.0, 0.5]),
    kepler_period(1.5, 2.0),
    doppler(440.0, 12.0, -7.0),
    harmonic_ring_energy(&[0.1, -0.3, 0.4, 0.2], &[0.5, 0.1, -0.2, 0.3], 1.7),
}
