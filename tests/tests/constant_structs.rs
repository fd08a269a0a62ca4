//! A struct whose floats are all `#[constant]`: a parameter with no columns, and an
//! `#[autodiff]` `impl` block whose rules differentiate in the other arguments.

use lifted::autodiff;

/// A spring's constants.
#[derive(Clone, Debug, lifted::Lift)]
pub struct Spring {
    /// Stiffness.
    #[constant]
    pub k: f64,
    /// Rest length.
    #[constant]
    pub rest: f64,
}

#[autodiff(forward)]
impl Spring {
    /// The energy at extension `x`.
    pub fn energy(&self, x: f64) -> f64 {
        let d = x - self.rest;
        0.5 * self.k * d * d
    }
}

/// The energy of a chain of springs through the positions `x`.
#[autodiff(forward)]
pub fn chain_energy(s: &Spring, x: &[f64]) -> f64 {
    let mut e = 0.0;
    for i in 0..x.len() - 1 {
        e += s.energy(x[i + 1] - x[i]);
    }
    e
}

#[test]
fn methods_of_a_struct_with_only_constant_floats() {
    let s = Spring { k: 3.0, rest: 1.0 };
    let x = 1.5;
    let (value, grad) = lifted::gradient(Spring::energy_rule(), (s.clone(), x)).expect("gradient");
    assert_eq!(value, s.energy(x));
    // The struct has no columns: ∂E/∂x = k (x − rest) only.
    assert_eq!(grad, vec![3.0 * 0.5]);
}

#[test]
fn a_constant_struct_as_a_parameter() {
    let s = Spring { k: 2.0, rest: 0.5 };
    let x = [0.0, 1.0, 2.5];
    let (value, grad) = lifted::gradient(chain_energy::Rule, (&s, &x[..])).expect("gradient");
    assert_eq!(value, chain_energy(&s, &x));
    // dᵢ = xᵢ₊₁ − xᵢ − rest: ∂E/∂xⱼ = k (dⱼ₋₁ − dⱼ).
    let d = [x[1] - x[0] - 0.5, x[2] - x[1] - 0.5];
    let want = [-2.0 * d[0], 2.0 * (d[0] - d[1]), 2.0 * d[1]];
    assert_eq!(grad.len(), 3);
    for (g, w) in grad.iter().zip(want) {
        assert!((g - w).abs() < 1e-14, "{g} vs {w}");
    }
}
