//! Methods as rules for drivers: every method of an annotated `impl` block gets a
//! marker named by `Type::method_rule()`, whose arguments are the receiver followed by
//! the method's. Checked against closed forms and by `check_rule` (finite differences,
//! the primal reading bit for bit) for `&self`, `&mut self`, `self`, associated
//! functions and methods calling methods.

use lifted::autodiff;

#[path = "support/check.rs"]
mod check;

/// A point mass on a spring.
#[derive(Clone, Debug, PartialEq, lifted::Lift)]
pub struct Oscillator {
    /// Position.
    pub q: f64,
    /// Momentum.
    pub p: f64,
    /// Angular frequency, not differentiated.
    #[constant]
    pub omega: f64,
}

#[autodiff(forward)]
impl Oscillator {
    const HALF: f64 = 0.5;

    /// An oscillator at rest at `q`.
    pub fn at_rest(q: f64, #[constant] omega: f64) -> Oscillator {
        Oscillator { q, p: 0.0, omega }
    }

    /// ½ (p² + ω² q²).
    pub fn energy(&self) -> f64 {
        Self::HALF * (self.p * self.p + self.omega * self.omega * self.q * self.q)
    }

    /// The energy scaled by `k`.
    pub fn scaled_energy(&self, k: f64) -> f64 {
        k * self.energy()
    }

    /// One symplectic Euler step, in place.
    pub fn step(&mut self, dt: f64) {
        self.p -= self.omega * self.omega * self.q * dt;
        self.q += self.p * dt;
    }

    /// The state after `n` steps, by value.
    pub fn advanced(mut self, dt: f64, n: usize) -> Oscillator {
        for _ in 0..n {
            self.step(dt);
        }
        self
    }
}

#[test]
fn a_method_is_a_rule_in_one_expression() {
    let o = Oscillator {
        q: 0.7,
        p: -0.3,
        omega: 1.5,
    };
    let (e, g) = lifted::gradient(Oscillator::energy_rule(), (o.clone(),)).unwrap();
    assert_eq!(e, o.energy());
    // ∂E/∂q = ω² q, ∂E/∂p = p; ω is a constant field.
    assert_eq!(g.len(), 2);
    assert!((g[0] - 1.5 * 1.5 * 0.7).abs() < 1e-15);
    assert!((g[1] + 0.3).abs() < 1e-15);

    let (_, g) = lifted::gradient(Oscillator::scaled_energy_rule(), (o.clone(), 2.0)).unwrap();
    assert!((g[0] - 2.0 * 1.5 * 1.5 * 0.7).abs() < 1e-14);
    assert!((g[2] - o.energy()).abs() < 1e-15, "∂/∂k is the energy");

    for chunk in [1, 2, 3, 8] {
        let (_, narrow) =
            lifted::gradient_with_chunk(Oscillator::scaled_energy_rule(), (o.clone(), 2.0), chunk)
                .unwrap();
        assert_eq!(narrow.len(), 3);
    }
}

#[test]
fn receivers_by_reference_mutable_reference_and_value() {
    let o = Oscillator {
        q: 0.4,
        p: 0.9,
        omega: 2.0,
    };
    check::check(Oscillator::energy_rule(), (o.clone(),));
    check::check(Oscillator::scaled_energy_rule(), (o.clone(), 0.8));
    check::check(Oscillator::step_rule(), (o.clone(), 0.1));
    check::check(Oscillator::advanced_rule(), (o.clone(), 0.05, 4));
    check::check(Oscillator::at_rest_rule(), (0.3, lifted::Constant(2.0)));

    // The state after one step, against the step written out: q' = q + (p − ω² q dt) dt.
    let (out, jac) =
        lifted::value_and_jacfwd(Oscillator::advanced_rule(), (o.clone(), 0.1, 1), &[0]).unwrap();
    let dt = 0.1;
    let w2 = 4.0;
    assert!((out.q - (o.q + (o.p - w2 * o.q * dt) * dt)).abs() < 1e-15);
    // Rows: q', p' (ω is constant); columns: q, p.
    assert!((jac[(0, 0)] - (1.0 - w2 * dt * dt)).abs() < 1e-15);
    assert!((jac[(0, 1)] - dt).abs() < 1e-15);
    assert!((jac[(1, 0)] + w2 * dt).abs() < 1e-15);
    assert!((jac[(1, 1)] - 1.0).abs() < 1e-15);
}
