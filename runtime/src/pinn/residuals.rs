//! PDE residuals of physics-informed networks, from the network's derived rule and the
//! drivers.

use super::network::{Network, forward};
use crate::autodiff;
use crate::drivers::{Driver, Error};
use crate::{Constant, derivatives_1d, value_and_jacfwd};

/// The three residuals of 2-D incompressible Navier–Stokes at one point.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NavierStokes {
    /// Continuity: `u_x + v_y`.
    pub continuity: f64,
    /// Momentum in x: `u_t + u u_x + v u_y + p_x − ν (u_xx + u_yy)`.
    pub momentum_x: f64,
    /// Momentum in y: `v_t + u v_x + v v_y + p_y − ν (v_xx + v_yy)`.
    pub momentum_y: f64,
}

/// The fields `(u, v, p)` of a network with inputs `(t, x, y)`.
#[autodiff(forward, chunk = 4, crate = crate)]
pub fn fields3(#[constant] net: &Network, t: f64, x: f64, y: f64) -> (f64, f64, f64) {
    let z = vec![t, x, y];
    let out: Vec<f64> = forward(net, &z);
    (out[0], out[1], out[2])
}

/// The field `u` of a network with inputs `(t, x)` and one output.
#[autodiff(forward, chunk = 2, crate = crate)]
pub fn scalar_field(#[constant] net: &Network, t: f64, x: f64) -> f64 {
    let z = vec![t, x];
    let out: Vec<f64> = forward(net, &z);
    out[0]
}

pub(super) fn check(
    function: &'static str,
    net: &Network,
    inputs: usize,
    outputs: usize,
) -> Result<(), Error> {
    net.check()
        .map_err(|reason| Error::InvalidInput { function, reason })?;
    if net.inputs() != inputs || net.outputs() != outputs {
        return Err(Error::InvalidInput {
            function,
            reason: format!(
                "the network maps {} inputs to {} outputs, this residual needs {inputs} → {outputs}",
                net.inputs(),
                net.outputs()
            ),
        });
    }
    Ok(())
}

/// The Navier–Stokes residuals at a point, the network's arguments already in place.
fn navier_stokes_at(
    args: &(Constant<Network>, f64, f64, f64),
    nu: f64,
) -> Result<NavierStokes, Error> {
    // Values and the 3 × 3 Jacobian over (t, x, y) in one pass.
    let ((u, v, _), j) = value_and_jacfwd(fields3::Rule, args, &[1, 2, 3])?;
    // u_xx, u_yy, v_xx, v_yy (and p's, unused): pure second derivatives along x and y.
    let (_, d2) = Driver::new(fields3::Rule).wrt(&[2, 3]).hessian_diag(args)?;
    let (u_t, u_x, u_y) = (j[(0, 0)], j[(0, 1)], j[(0, 2)]);
    let (v_t, v_x, v_y) = (j[(1, 0)], j[(1, 1)], j[(1, 2)]);
    let (p_x, p_y) = (j[(2, 1)], j[(2, 2)]);
    let (u_xx, u_yy, v_xx, v_yy) = (d2[(0, 0)], d2[(0, 1)], d2[(1, 0)], d2[(1, 1)]);
    Ok(NavierStokes {
        continuity: u_x + v_y,
        momentum_x: u_t + u * u_x + v * u_y + p_x - nu * (u_xx + u_yy),
        momentum_y: v_t + u * v_x + v * v_y + p_y - nu * (v_xx + v_yy),
    })
}

/// The residuals of 2-D incompressible Navier–Stokes with viscosity `nu` at the point
/// `(t, x, y)`, for a network mapping `(t, x, y)` to `(u, v, p)`.
///
/// # Errors
///
/// [`Error::InvalidInput`] when the network is not `3 → 3` or its layers do not fit.
///
/// ```
/// use lifted::pinn::{Network, navier_stokes};
/// use lifted::testing::SplitMix64;
///
/// let mut rng = SplitMix64::new(42);
/// let net = Network::from_fn(&[3, 16, 16, 3], |i, o| (2.0 / (i + o) as f64).sqrt() * rng.normal());
/// let r = navier_stokes(&net, [0.5, 0.25, 0.75], 0.01)?;
/// assert!(r.continuity.is_finite() && r.momentum_x.is_finite());
/// # Ok::<(), lifted::Error>(())
/// ```
pub fn navier_stokes(net: &Network, point: [f64; 3], nu: f64) -> Result<NavierStokes, Error> {
    check("navier_stokes", net, 3, 3)?;
    let [t, x, y] = point;
    navier_stokes_at(&(Constant(net.clone()), t, x, y), nu)
}

/// [`navier_stokes`] at every point, in order (the network is prepared once).
///
/// # Errors
///
/// As [`navier_stokes`].
pub fn navier_stokes_all(
    net: &Network,
    points: &[[f64; 3]],
    nu: f64,
) -> Result<Vec<NavierStokes>, Error> {
    check("navier_stokes", net, 3, 3)?;
    let mut args = (Constant(net.clone()), 0.0, 0.0, 0.0);
    points
        .iter()
        .map(|&[t, x, y]| {
            (args.1, args.2, args.3) = (t, x, y);
            navier_stokes_at(&args, nu)
        })
        .collect()
}

/// `u`, `u_t`, `u_x`, `u_xx` of a `(t, x) → u` network.
fn scalar_derivatives(
    function: &'static str,
    net: &Network,
    t: f64,
    x: f64,
) -> Result<[f64; 4], Error> {
    check(function, net, 2, 1)?;
    let args = (Constant(net.clone()), t, x);
    let (u, j) = value_and_jacfwd(scalar_field::Rule, &args, &[1, 2])?;
    let (_, d2) = Driver::new(scalar_field::Rule)
        .wrt(&[2])
        .hessian_diag(&args)?;
    Ok([u, j[(0, 0)], j[(0, 1)], d2[(0, 0)]])
}

/// The viscous Burgers residual `u_t + u u_x − ν u_xx` at `(t, x)`, for a network
/// mapping `(t, x)` to `u`.
///
/// # Errors
///
/// [`Error::InvalidInput`] when the network is not `2 → 1` or its layers do not fit.
pub fn burgers(net: &Network, t: f64, x: f64, nu: f64) -> Result<f64, Error> {
    let [u, u_t, u_x, u_xx] = scalar_derivatives("burgers", net, t, x)?;
    Ok(u_t + u * u_x - nu * u_xx)
}

/// The Allen–Cahn residual `u_t − d u_xx + 5 u³ − 5 u` at `(t, x)`, for a network
/// mapping `(t, x)` to `u` (`d = 1e-4` in the usual benchmark).
///
/// # Errors
///
/// As [`burgers`].
pub fn allen_cahn(net: &Network, t: f64, x: f64, d: f64) -> Result<f64, Error> {
    let [u, u_t, _, u_xx] = scalar_derivatives("allen_cahn", net, t, x)?;
    Ok(u_t - d * u_xx + 5.0 * u * u * u - 5.0 * u)
}

/// The Korteweg–de Vries residual `u_t + 6 u u_x + u_xxx` at `(t, x)`, for a network
/// mapping `(t, x)` to `u`. The third derivative comes from one Taylor-mode pass along
/// x (`derivatives_1d` of order 3, which also gives `u` and `u_x`), `u_t` from a
/// first-order pass along t.
///
/// # Errors
///
/// As [`burgers`].
pub fn kdv(net: &Network, t: f64, x: f64) -> Result<f64, Error> {
    check("kdv", net, 2, 1)?;
    let args = (Constant(net.clone()), t, x);
    // The network's tangent is ignored (it is constant): an empty one is enough.
    let none = || {
        Constant(Network {
            features: None,
            layers: Vec::new(),
        })
    };
    let along_x = derivatives_1d(scalar_field::Rule, &args, &(none(), 0.0, 1.0), 3)?;
    let along_t = derivatives_1d(scalar_field::Rule, &args, &(none(), 1.0, 0.0), 1)?;
    let (u, u_x, u_xxx, u_t) = (along_x[0], along_x[1], along_x[3], along_t[1]);
    Ok(u_t + 6.0 * u * u_x + u_xxx)
}
