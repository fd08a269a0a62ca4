//! Batched evaluation: a network and its coordinate derivatives on many points at
//! once, each layer one GEMM over a block of points and all derivative streams, blocks
//! in parallel.
//!
//! The point-by-point functions ([`navier_stokes_all`](super::navier_stokes_all)) run
//! the network's derived rule once per point; here the same quantities come from
//! matrix products, which is what makes a residual cost a small multiple of the
//! batched primal network (benchmark workload W1).

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
