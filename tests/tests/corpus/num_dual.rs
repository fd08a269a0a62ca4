//! Functions from the examples, documentation and benchmarks of the `num-dual`
//! crate (itt-ustutt/num-dual), written there generically over `D: DualNum<f64>`
//! (and in Python for the notebook); here as plain `f64`. The file each comes from
//! is named above it.

use lifted::autodiff;
use std::f64::consts::SQRT_2;

/// The gas constant, J/(mol K), as the notebook computes it.
const RGAS: f64 = 1.380_649e-23 * 6.022_140_76e23;

// README.md (Rust example): `fn f<D: DualNum<f64>>(x: D, y: D) -> D { x.powi(3) * y.powi(2) }`
/// x³y².
#[autodiff(forward)]
pub fn readme_f(x: f64, y: f64) -> f64 {
    x.powi(3) * y.powi(2)
}

// README.md (Rust example): `third_derivative(|t| f(t.cos(), t.sin()), 1.0)`
/// x³y² along the unit circle.
#[autodiff(forward)]
pub fn readme_f_on_circle(t: f64) -> f64 {
    readme_f(t.cos(), t.sin())
}

// README.md (Python example): `np.exp(x) / np.sqrt(np.sin(x)**3 + np.cos(x)**3)`
/// eˣ / √(sin³x + cos³x).
#[autodiff(forward)]
pub fn readme_python_f(x: f64) -> f64 {
    x.exp() / (x.sin().powi(3) + x.cos().powi(3)).sqrt()
}

// src/lib.rs (crate docs): `fn foo<D: DualNum<f64>>(x: D) -> D { x.powi(3) }`,
// differentiated as `|t| foo(t.cos())`.
/// cos³ t.
#[autodiff(forward)]
pub fn foo_of_cos(t: f64) -> f64 {
    let x = t.cos();
    x.powi(3)
}

// src/lib.rs (crate docs): `fn bar(x: SVector<D, N>) -> D { x.dot(&x).sqrt() }`
/// The norm as √(x·x).
#[autodiff(forward)]
pub fn bar(x: &[f64; 2]) -> f64 {
    let dot = x[0] * x[0] + x[1] * x[1];
    dot.sqrt()
}

// src/explicit.rs (`gradient` docs): `v.iter().map(|v| v * v).sum::<DualDVec64>().sqrt()`
/// The norm of a vector of any length.
#[autodiff(forward)]
pub fn gradient_doc_norm(v: &[f64]) -> f64 {
    v.iter().map(|v| v * v).sum::<f64>().sqrt()
}

// src/explicit.rs (`jacobian` docs): `[xy[0] * xy[1].powi(3) * xy[2], xy[0].powi(2) * xy[1] * xy[2].powi(2)]`
/// [x y³ z, x² y z²].
#[autodiff(forward)]
pub fn jacobian_doc(xy: [f64; 3]) -> [f64; 2] {
    [
        xy[0] * xy[1].powi(3) * xy[2],
        xy[0].powi(2) * xy[1] * xy[2].powi(2),
    ]
}

// src/explicit.rs (`partial_hessian` docs): `y[0] / (x[0].powi(2) + x[1].powi(2)).sqrt()`
/// y₀ / ‖x‖, two vector arguments.
#[autodiff(forward)]
pub fn partial_hessian_doc(x: &[f64], y: &[f64]) -> f64 {
    y[0] / (x[0].powi(2) + x[1].powi(2)).sqrt()
}

// src/explicit.rs (`third_partial_derivative` docs): `(x.powi(2) + y.powi(2) + z.powi(2)).powi(3)`
/// (x² + y² + z²)³.
#[autodiff(forward)]
pub fn third_partial_doc(x: f64, y: f64, z: f64) -> f64 {
    (x.powi(2) + y.powi(2) + z.powi(2)).powi(3)
}

// src/explicit.rs (`third_partial_derivative_vec` docs): `x[0].powi(3)*x[1].powi(2)`
/// x₀³x₁² on a slice.
#[autodiff(forward)]
pub fn third_partial_vec_doc(x: &[f64]) -> f64 {
    x[0].powi(3) * x[1].powi(2)
}

/// The parameters of the Peng–Robinson equation of state.
#[derive(Clone, Debug, lifted::Lift)]
pub struct PengRobinson {
    #[constant]
    pub tc: Vec<f64>,
    #[constant]
    pub a_r: Vec<f64>,
    #[constant]
    pub b: Vec<f64>,
    #[constant]
    pub kappa: Vec<f64>,
}

// examples/peng_robinson.ipynb: `PengRobinson.helmholtz_energy(temperature, volume, moles)`
/// The residual Helmholtz energy of the Peng–Robinson equation of state.
#[autodiff(forward)]
pub fn peng_robinson_helmholtz(
    eos: &PengRobinson,
    temperature: f64,
    volume: f64,
    moles: &[f64],
) -> f64 {
    let ncomp = moles.len();
    let n: f64 = moles.iter().sum();
    let mut ak = vec![0.0; ncomp];
    for i in 0..ncomp {
        let tr = temperature / eos.tc[i];
        ak[i] = ((1.0 - tr.sqrt()) * eos.kappa[i] + 1.0).powi(2) * eos.a_r[i];
    }
    let mut ak_mix = 0.0;
    for i in 0..ncomp {
        for j in 0..ncomp {
            ak_mix += (ak[i] * ak[j]).sqrt() * (moles[i] / n * moles[j] / n);
        }
    }
    let mut b = 0.0;
    for i in 0..ncomp {
        b += moles[i] / n * eos.b[i];
    }
    let v = volume;
    RGAS * temperature
        * n
        * ((v / (v - b * n)).ln()
            - ak_mix / (b * SQRT_2 * 2.0 * temperature)
                * ((v * (SQRT_2 - 1.0) + b * n) / (v * (SQRT_2 + 1.0) - b * n)).ln())
}

/// The Peng–Robinson parameters from critical data, as the notebook's constructor
/// computes them.
fn peng_robinson(tc: &[f64], pc: &[f64], omega: &[f64]) -> PengRobinson {
    PengRobinson {
        tc: tc.to_vec(),
        a_r: tc
            .iter()
            .zip(pc)
            .map(|(t, p)| 0.45724 * RGAS * t * t / (1e5 * p))
            .collect(),
        b: tc
            .iter()
            .zip(pc)
            .map(|(t, p)| 0.0778 * RGAS * t / (1e5 * p))
            .collect(),
        kappa: omega
            .iter()
            .map(|w| 0.37464 + 1.54226 * w - 0.26992 * w * w)
            .collect(),
    }
}

crate::cases! {
    readme_f(5.0, 4.0),
    readme_f_on_circle(1.0),
    readme_python_f(1.5),
    foo_of_cos(1.0),
    bar(&[4.0, 3.0]),
    gradient_doc_norm(&[2.0, 2.0, 2.0, 2.0]),
    jacobian_doc([5.0, 3.0, 2.0]),
    partial_hessian_doc(&[4.0, 3.0], &[5.0]),
    third_partial_doc(1.0, 2.0, 3.0),
    third_partial_vec_doc(&[1.0, 2.0]),
    peng_robinson_helmholtz(
        peng_robinson(&[369.96, 425.2], &[42.5, 38.0], &[0.153, 0.199]),
        300.0,
        0.02,
        &[0.3, 0.5],
    ),
}
