//! Batched evaluation: a network and its coordinate derivatives on many points at
//! once, each layer one GEMM over a block of points and all derivative streams, blocks
//! in parallel.
//!
//! The point-by-point functions ([`navier_stokes_all`](super::navier_stokes_all)) run
//! the network's derived rule once per point; here the same quantities come from
//! matrix products, which is what makes a residual cost a small multiple of the
//! batched primal network.

use super::jets::{Streams, map_blocks};
use super::network::Network;
use super::residuals::{NavierStokes, check};
use crate::drivers::Error;

/// How a batched evaluation splits its points.
///
/// ```
/// use lifted::pinn::Batching;
/// let b = Batching::default();
/// assert_eq!((b.block, b.threads), (128, None));
/// let b = Batching::default().block(64).threads(2);
/// assert_eq!((b.block, b.threads), (64, Some(2)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Batching {
    /// Points per block: each layer is one GEMM over a block's points and streams.
    /// Larger blocks make larger products; smaller ones fit the cache better.
    pub block: usize,
    /// Threads the blocks run on: `None` runs on the current rayon pool (the global
    /// one, or the pool whose `install` the call is made in); `Some(n)` builds a pool
    /// of `n` threads for the call.
    pub threads: Option<usize>,
}

impl Default for Batching {
    /// Blocks of 128 points on the current rayon pool.
    fn default() -> Self {
        Self {
            block: 128,
            threads: None,
        }
    }
}

impl Batching {
    /// The same with `block` points per block.
    #[must_use]
    pub fn block(self, block: usize) -> Self {
        Self { block, ..self }
    }

    /// The same on a pool of `threads` threads.
    #[must_use]
    pub fn threads(self, threads: usize) -> Self {
        Self {
            threads: Some(threads),
            ..self
        }
    }

    /// Runs `job` as this batching asks (on a pool of its own when `threads` is set).
    fn run<T: Send>(
        &self,
        function: &'static str,
        job: impl FnOnce() -> T + Send,
    ) -> Result<T, Error> {
        let invalid = |reason: String| Error::InvalidInput { function, reason };
        if self.block == 0 {
            return Err(invalid("the block size is 0".into()));
        }
        match self.threads {
            None => Ok(job()),
            Some(0) => Err(invalid("the thread count is 0".into())),
            Some(n) => {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(n)
                    .build()
                    .map_err(|e| invalid(format!("cannot start {n} threads: {e}")))?;
                Ok(pool.install(job))
            }
        }
    }
}

/// The network on every point: `points` holds `net.inputs()` coordinates per point,
/// point after point; the result holds `net.outputs()` values per point, in the same
/// order. Each layer is one GEMM per block of points (values only: the primal of the
/// batched residuals).
///
/// # Errors
///
/// [`Error::InvalidInput`] when the layers do not fit together, `points.len()` is not
/// a multiple of the input dimension, or `batching` asks for 0 points per block or 0
/// threads.
///
/// ```
/// use lifted::pinn::{self, Batching, Network};
/// use lifted::testing::SplitMix64;
///
/// let mut rng = SplitMix64::new(42);
/// let net = Network::from_fn(&[3, 16, 16, 3], |i, o| (2.0 / (i + o) as f64).sqrt() * rng.normal());
/// let points = [[0.5, 0.25, 0.75], [0.1, 0.2, 0.3]];
/// let out = pinn::forward_batched(&net, points.as_flattened(), Batching::default())?;
/// let single = pinn::forward(&net, &points[1]);
/// for k in 0..3 {
///     assert!((out[3 + k] - single[k]).abs() <= 1e-14 * single[k].abs().max(1.0));
/// }
/// # Ok::<(), lifted::Error>(())
/// ```
pub fn forward_batched(
    net: &Network,
    points: &[f64],
    batching: Batching,
) -> Result<Vec<f64>, Error> {
    const NAME: &str = "forward_batched";
    check_points(NAME, net, points)?;
    let streams = Streams {
        first: &[],
        second: &[],
        third: None,
    };
    let outputs = net.outputs();
    batching.run(NAME, || {
        map_blocks(
            net,
            streams,
            points,
            batching.block,
            outputs,
            |jets, out: &mut [f64]| {
                for (p, row) in out.chunks_exact_mut(outputs).enumerate() {
                    for (k, o) in row.iter_mut().enumerate() {
                        *o = jets.get(0, p, k);
                    }
                }
            },
        )
    })
}

/// [`navier_stokes`](super::navier_stokes) at every point, in order, from batched
/// jets: per block, one pass through the network carries six streams — the value, the
/// first derivatives along t, x and y, and the pure second derivatives along x and y —
/// each layer one GEMM over all points and streams followed by the `tanh` jet rule.
/// Blocks run in parallel as `batching` says.
///
/// Agrees with [`navier_stokes_all`](super::navier_stokes_all) to rounding (the
/// products are summed in another order).
///
/// # Errors
///
/// [`Error::InvalidInput`] when the network is not `3 → 3`, its layers do not fit, or
/// `batching` asks for 0 points per block or 0 threads.
///
/// ```
/// use lifted::pinn::{self, Batching, Network};
/// use lifted::testing::SplitMix64;
///
/// let mut rng = SplitMix64::new(42);
/// let net = Network::from_fn(&[3, 16, 16, 3], |i, o| (2.0 / (i + o) as f64).sqrt() * rng.normal());
/// let points = vec![[0.5, 0.25, 0.75]; 300];
/// let batched = pinn::navier_stokes_batched(&net, &points, 0.01, Batching::default())?;
/// let single = pinn::navier_stokes(&net, points[0], 0.01)?;
/// assert!((batched[299].momentum_x - single.momentum_x).abs() < 1e-13);
/// # Ok::<(), lifted::Error>(())
/// ```
pub fn navier_stokes_batched(
    net: &Network,
    points: &[[f64; 3]],
    nu: f64,
    batching: Batching,
) -> Result<Vec<NavierStokes>, Error> {
    const NAME: &str = "navier_stokes_batched";
    check(NAME, net, 3, 3)?;
    // Streams: 0 value; 1, 2, 3 along t, x, y; 4, 5 twice along x and y (the first
    // streams at positions 1 and 2).
    let streams = Streams {
        first: &[0, 1, 2],
        second: &[1, 2],
        third: None,
    };
    batching.run(NAME, || {
        map_blocks(
            net,
            streams,
            points.as_flattened(),
            batching.block,
            1,
            |jets, out: &mut [NavierStokes]| {
                for (p, r) in out.iter_mut().enumerate() {
                    let at = |s: usize, k: usize| jets.get(s, p, k);
                    let (u, v) = (at(0, 0), at(0, 1));
                    let (u_t, u_x, u_y) = (at(1, 0), at(2, 0), at(3, 0));
                    let (v_t, v_x, v_y) = (at(1, 1), at(2, 1), at(3, 1));
                    let (p_x, p_y) = (at(2, 2), at(3, 2));
                    let (u_xx, u_yy, v_xx, v_yy) = (at(4, 0), at(5, 0), at(4, 1), at(5, 1));
                    *r = NavierStokes {
                        continuity: u_x + v_y,
                        momentum_x: u_t + u * u_x + v * u_y + p_x - nu * (u_xx + u_yy),
                        momentum_y: v_t + u * v_x + v * v_y + p_y - nu * (v_xx + v_yy),
                    };
                }
            },
        )
    })
}

/// The streams of a `(t, x) → u` network for the second-order residuals: 0 `u`;
/// 1, 2 `u_t`, `u_x`; 3 `u_xx`.
const SECOND_ORDER_TX: Streams<'static> = Streams {
    first: &[0, 1],
    second: &[1],
    third: None,
};

/// The same plus 4 `u_xxx`, the third-order stream along x.
const THIRD_ORDER_TX: Streams<'static> = Streams {
    first: &[0, 1],
    second: &[1],
    third: Some(0),
};

/// `residual` at every point of a `(t, x) → u` network, from the streams `streams`
/// (`N` of them, value included), in order.
fn scalar_batched<const N: usize>(
    function: &'static str,
    net: &Network,
    points: &[[f64; 2]],
    streams: Streams<'static>,
    batching: Batching,
    residual: impl Fn([f64; N]) -> f64 + Sync,
) -> Result<Vec<f64>, Error> {
    check(function, net, 2, 1)?;
    debug_assert_eq!(
        streams.third_index() + usize::from(streams.third.is_some()),
        N
    );
    batching.run(function, || {
        map_blocks(
            net,
            streams,
            points.as_flattened(),
            batching.block,
            1,
            |jets, out: &mut [f64]| {
                for (p, r) in out.iter_mut().enumerate() {
                    *r = residual(core::array::from_fn(|s| jets.get(s, p, 0)));
                }
            },
        )
    })
}

/// [`burgers`](super::burgers) at every point `(t, x)`, in order, from batched jets:
/// per block, one pass through the network carries four streams — `u`, `u_t`, `u_x`
/// and `u_xx` — each layer one GEMM over all points and streams followed by the `tanh`
/// jet rule. Blocks run in parallel as `batching` says.
///
/// Agrees with [`burgers`](super::burgers) to rounding (the products are summed in
/// another order).
///
/// # Errors
///
/// [`Error::InvalidInput`] when the network is not `2 → 1`, its layers do not fit, or
/// `batching` asks for 0 points per block or 0 threads.
///
/// ```
/// use lifted::pinn::{self, Batching, Network};
/// use lifted::testing::SplitMix64;
///
/// let mut rng = SplitMix64::new(42);
/// let net = Network::from_fn(&[2, 16, 16, 1], |i, o| (2.0 / (i + o) as f64).sqrt() * rng.normal());
/// let points = vec![[0.5, 0.25]; 300];
/// let batched = pinn::burgers_batched(&net, &points, 0.01, Batching::default())?;
/// let single = pinn::burgers(&net, 0.5, 0.25, 0.01)?;
/// assert!((batched[299] - single).abs() <= 1e-13 * single.abs().max(1e-3));
/// # Ok::<(), lifted::Error>(())
/// ```
pub fn burgers_batched(
    net: &Network,
    points: &[[f64; 2]],
    nu: f64,
    batching: Batching,
) -> Result<Vec<f64>, Error> {
    scalar_batched(
        "burgers_batched",
        net,
        points,
        SECOND_ORDER_TX,
        batching,
        |[u, u_t, u_x, u_xx]| u_t + u * u_x - nu * u_xx,
    )
}

/// [`allen_cahn`](super::allen_cahn) at every point `(t, x)`, in order, from batched
/// jets: the four streams of [`burgers_batched`] (`u`, `u_t`, `u_x`, `u_xx`; `u_x` is
/// what `u_xx` is built from).
///
/// # Errors
///
/// As [`burgers_batched`].
///
/// ```
/// use lifted::pinn::{self, Batching, Network};
/// use lifted::testing::SplitMix64;
///
/// let mut rng = SplitMix64::new(42);
/// let net = Network::from_fn(&[2, 16, 16, 1], |i, o| (2.0 / (i + o) as f64).sqrt() * rng.normal());
/// let points = [[0.5, 0.25], [0.1, -0.3]];
/// let batched = pinn::allen_cahn_batched(&net, &points, 1e-4, Batching::default().block(1))?;
/// let single = pinn::allen_cahn(&net, 0.1, -0.3, 1e-4)?;
/// assert!((batched[1] - single).abs() <= 1e-13 * single.abs().max(1e-3));
/// # Ok::<(), lifted::Error>(())
/// ```
pub fn allen_cahn_batched(
    net: &Network,
    points: &[[f64; 2]],
    d: f64,
    batching: Batching,
) -> Result<Vec<f64>, Error> {
    scalar_batched(
        "allen_cahn_batched",
        net,
        points,
        SECOND_ORDER_TX,
        batching,
        |[u, u_t, _, u_xx]| u_t - d * u_xx + 5.0 * u * u * u - 5.0 * u,
    )
}

/// [`kdv`](super::kdv) at every point `(t, x)`, in order, from batched jets: per
/// block, one pass carries five streams — `u`, `u_t`, `u_x`, `u_xx` and the
/// third-order stream `u_xxx` — each layer one GEMM over all of them, the `tanh`
/// activation by its order-3 jet rule
/// (`a⃛ = f′ z⃛ + 3 f″ ż z̈ + f‴ ż³`). The streams hold plain derivatives along x, so
/// `u_xxx` is read off directly (no factorial), and `u_xx` is carried only because the
/// third order is built from it.
///
/// Agrees with [`kdv`](super::kdv) (one Taylor-mode pass per point) to rounding.
///
/// # Errors
///
/// As [`burgers_batched`].
///
/// ```
/// use lifted::pinn::{self, Batching, Network};
/// use lifted::testing::SplitMix64;
///
/// let mut rng = SplitMix64::new(42);
/// let net = Network::from_fn(&[2, 16, 16, 1], |i, o| (2.0 / (i + o) as f64).sqrt() * rng.normal());
/// let points = vec![[0.5, 0.25]; 300];
/// let batched = pinn::kdv_batched(&net, &points, Batching::default())?;
/// let single = pinn::kdv(&net, 0.5, 0.25)?;
/// assert!((batched[299] - single).abs() <= 1e-13 * single.abs().max(1e-3));
/// # Ok::<(), lifted::Error>(())
/// ```
pub fn kdv_batched(
    net: &Network,
    points: &[[f64; 2]],
    batching: Batching,
) -> Result<Vec<f64>, Error> {
    scalar_batched(
        "kdv_batched",
        net,
        points,
        THIRD_ORDER_TX,
        batching,
        |[u, u_t, u_x, _, u_xxx]| u_t + 6.0 * u * u_x + u_xxx,
    )
}

/// The network's layers fit and `points` is whole points.
fn check_points(function: &'static str, net: &Network, points: &[f64]) -> Result<(), Error> {
    let invalid = |reason: String| Error::InvalidInput { function, reason };
    net.check().map_err(invalid)?;
    if net.layers.is_empty() {
        return Err(invalid("the network has no layers".into()));
    }
    let dim = net.inputs();
    if dim == 0 || !points.len().is_multiple_of(dim) {
        return Err(invalid(format!(
            "{} coordinates are not whole points of dimension {dim}",
            points.len()
        )));
    }
    Ok(())
}
