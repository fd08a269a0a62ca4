use lifted::autodiff;
use std::f64::consts::PI;

// benches/benchmark.rs: `HSContribution::helmholtz_energy`, the hard-sphere
// (BMCSL) Helmholtz energy of a two-component mixture.
/// The hard-sphere Helmholtz energy.
#[autodiff(forward)]
pub fn hard_sphere_helmholtz(temperature: f64, volume: f64, moles: [f64; 2]) -> f64 {
    let m = [1.0, 2.5];
    let sigma = [3.2, 3.5];
    let epsilon_k = [150.0, 220.0];
    let vi = volume.recip();
    let density = [moles[0] * vi, moles[1] * vi];
    let ti = temperature.recip() * -3.0;
    let d = [
        -((ti * epsilon_k[0]).exp() * 0.12 - 1.0) * sigma[0],
        -((ti * epsilon_k[1]).exp() * 0.12 - 1.0) * sigma[1],
    ];
    let mut zeta = [0.0; 4];
    let mut m_rho = 0.0;
    for i in 0..2 {
        for (k, z) in zeta.iter_mut().enumerate() {
            *z += density[i] * d[i].powi(k as i32) * (PI / 6.0 * m[i]);
        }
        m_rho += density[i] * m[i];
    }
    let frac_1mz3 = -(zeta[3] - 1.0).recip();
    let frac_z3 = zeta[3].recip();
    volume
        * m_rho
        * zeta[0].recip()
        * (zeta[1] * zeta[2] * frac_z3 * 3.0
            + zeta[2].powi(3) * frac_1mz3.powi(2) * frac_z3
            + (zeta[2].powi(3) * frac_z3.powi(2) - zeta[0]) * (-zeta[3]).ln_1p())
}

fn main() {}
