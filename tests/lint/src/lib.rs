//! Annotated functions under the strictest lint levels: the generated rules must not
//! add a single warning, in rustc or in clippy (pedantic included).
#![deny(warnings, clippy::all, clippy::pedantic)]
#![deny(missing_docs)]

use lifted::autodiff;

/// W2's Rosenbrock function.
#[autodiff(forward, chunk = 8)]
#[must_use]
pub fn rosenbrock(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        s += (1.0 - x[i]).powi(2) + 100.0 * (x[i + 1] - x[i] * x[i]).powi(2);
    }
    s
}

/// An in-place update.
#[autodiff(forward)]
pub fn axpy(a: f64, x: &[f64], y: &mut [f64]) {
    for (i, v) in y.iter_mut().enumerate() {
        *v += a * x[i];
    }
}

/// Constants, branches and a call to another rule.
#[autodiff(forward)]
#[must_use]
pub fn mixed(x: &[f64], #[constant] weights: &[f64], steps: u32) -> f64 {
    let scale = 0.5;
    let base = rosenbrock(x);
    let mut total = 0.0;
    for (i, v) in x.iter().enumerate() {
        total += weights[i] * v;
    }
    if steps > 2 {
        scale * total + base
    } else {
        total.exp() - 1.0
    }
}

/// Vectors and iterator chains.
#[autodiff(forward)]
#[must_use]
pub fn vectors(x: &[f64]) -> Vec<f64> {
    let total: f64 = x.iter().map(|v| v * v).sum();
    let mut out = vec![0.0; x.len()];
    for i in 0..x.len() {
        out[i] = x[i] / total.sqrt();
    }
    out
}

/// A point mass: position and velocity differentiated, the mass not.
#[derive(Clone, Debug, PartialEq, lifted::Lift)]
pub struct Particle {
    /// Position.
    pub x: f64,
    /// Velocity.
    pub v: f64,
    /// Mass.
    #[constant]
    pub m: f64,
}

#[autodiff(forward)]
impl Particle {
    /// Kinetic energy.
    #[must_use]
    pub fn kinetic(&self) -> f64 {
        0.5 * self.m * self.v * self.v
    }

    /// One explicit Euler step of a spring of stiffness `k`.
    pub fn step(&mut self, k: f64, dt: f64) {
        self.v -= k * self.x / self.m * dt;
        self.x += self.v * dt;
    }
}

/// A struct result built from a struct argument.
#[autodiff(forward)]
#[must_use]
pub fn advanced(p: &Particle, k: f64, dt: f64) -> Particle {
    let mut q = p.clone();
    q.step(k, dt);
    Particle {
        x: q.x,
        v: q.v * 0.5,
        m: p.m,
    }
}

/// Forms the macro lowers by looking at their surroundings: `zip` with a slice, an
/// unannotated vector, a tuple of constants given a lifted field, `break` values, a
/// push reading its vector, a literal slice argument, a printed lifted value.
#[autodiff(forward)]
#[must_use]
pub fn surroundings(x: &[f64], y: &[f64]) -> Vec<f64> {
    let mut out = Vec::with_capacity(x.len() + 2);
    for (xi, yi) in x.iter().zip(y) {
        out.push(xi * yi);
    }
    let mut pair = (0.0, 1.0);
    pair.0 = rosenbrock(&[x[0], 1.0]);
    let mut step = 0.0;
    let limit = loop {
        step += 1.0;
        if step > 3.0 {
            break 0.0;
        }
        if pair.0 * step > 1.0 {
            break pair.0;
        }
    };
    println!("{limit}");
    out.push(out[0] * limit + pair.1);
    out
}
