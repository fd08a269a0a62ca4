//! W1: the network and collocation points of the 2-D Navier–Stokes PINN residual, and
//! the primal baselines (values only, no derivatives).
//!
//! The network is an MLP `3 → 128 → 128 → 128 → 128 → 3` with `h ← tanh(h·W_l + b_l)`
//! on the hidden layers and a linear output layer. `W_l` is `fan_in × fan_out`,
//! row-major, Glorot-normal from one generator seeded with [`WEIGHT_SEED`]; all biases
//! are zero. The inputs are [`POINTS`] points `(t, x, y)` drawn uniformly from
//! [`POINT_SEED`].
//!
//! Two batched primals: [`Network::forward_batched`] on faer and
//! [`Network::forward_batched_gemm`] on `gemm`, the GEMM crate of
//! `lifted::pinn::navier_stokes_batched` (the fair baseline of its ratio).

use faer::linalg::matmul::matmul;
use faer::{Accum, MatMut, MatRef, Par};
use lifted::Reading;
use rayon::prelude::*;

use crate::{SplitMix64, clear_upper_vector_state};

/// Layer widths, input to output: `(t, x, y)` in, `(u, v, p)` out.
pub const WIDTHS: [usize; 6] = [3, 128, 128, 128, 128, 3];
/// Seed of the generator that fills the weights, layer by layer.
pub const WEIGHT_SEED: u64 = 42;
/// Seed of the generator that draws the collocation points.
pub const POINT_SEED: u64 = 7;
/// Number of collocation points.
pub const POINTS: usize = 8192;
/// Points per GEMM block in the batched primal.
pub const BLOCK: usize = 128;
/// Kinematic viscosity ν of the residual.
pub const NU: f64 = 0.01;

/// The widest layer: the size of the point-by-point scratch arrays.
const MAX_WIDTH: usize = 128;

/// One affine layer `h ↦ h·W + b`.
#[derive(Clone, Debug)]
pub struct Layer {
    /// Inputs of the layer (rows of `W`).
    pub fan_in: usize,
    /// Outputs of the layer (columns of `W`).
    pub fan_out: usize,
    /// `W`, `fan_in × fan_out`, row-major: `W[i][j]` at `i * fan_out + j`.
    pub weights: Vec<f64>,
    /// `b`, `fan_out` entries (all zero in W1).
    pub biases: Vec<f64>,
}

impl Layer {
    /// `W` as a faer view.
    pub fn weight_matrix(&self) -> MatRef<'_, f64> {
        MatRef::from_row_major_slice(&self.weights, self.fan_in, self.fan_out)
    }
}

/// The W1 network: tanh on every layer but the last.
#[derive(Clone, Debug)]
pub struct Network {
    /// The layers, input first.
    pub layers: Vec<Layer>,
}

impl Network {
    /// The W1 network: Glorot-normal weights `sqrt(2 / (fan_in + fan_out)) · normal()`
    /// filled layer by layer in row-major order from one generator with `seed`, zero
    /// biases.
    pub fn glorot(seed: u64) -> Self {
        let mut rng = SplitMix64::new(seed);
        let layers = WIDTHS
            .windows(2)
            .map(|w| {
                let (fan_in, fan_out) = (w[0], w[1]);
                let scale = (2.0 / (fan_in + fan_out) as f64).sqrt();
                let weights = (0..fan_in * fan_out)
                    .map(|_| scale * rng.normal())
                    .collect();
                Layer {
                    fan_in,
                    fan_out,
                    weights,
                    biases: vec![0.0; fan_out],
                }
            })
            .collect();
        Self { layers }
    }

    /// The same network as a [`lifted::pinn::Network`], whose `forward` is written
    /// with `#[autodiff]` (the derived side of W1).
    pub fn to_pinn(&self) -> lifted::pinn::Network {
        lifted::pinn::Network {
            features: None,
            layers: self
                .layers
                .iter()
                .map(|l| lifted::pinn::Dense {
                    fan_in: l.fan_in,
                    fan_out: l.fan_out,
                    weights: l.weights.clone(),
                    biases: l.biases.clone(),
                })
                .collect(),
        }
    }

    /// Number of weights (biases not counted): 49,920 for W1.
    pub fn weight_count(&self) -> usize {
        self.layers.iter().map(|l| l.weights.len()).sum()
    }

    /// The network at one point, for any reading of `f64`: at `f64` the
    /// point-by-point primal, at `NDual` readings its derivatives with respect to
    /// whatever the inputs were seeded with.
    ///
    /// Each output is `Σ_i h_i W[i][j]` summed in order of `i`, plus `b_j`.
    pub fn forward_point<D: Reading<f64>>(&self, z: [D; 3]) -> [D; 3] {
        let mut h = [D::default(); MAX_WIDTH];
        let mut next = [D::default(); MAX_WIDTH];
        h[..3].copy_from_slice(&z);
        let last = self.layers.len() - 1;
        for (l, layer) in self.layers.iter().enumerate() {
            let out = &mut next[..layer.fan_out];
            let mut rows = layer.weights.chunks_exact(layer.fan_out).zip(&h);
            if let Some((row, &h0)) = rows.next() {
                for (o, &w) in out.iter_mut().zip(row) {
                    *o = h0 * w;
                }
            }
            for (row, &hi) in rows {
                for (o, &w) in out.iter_mut().zip(row) {
                    *o += hi * w;
                }
            }
            for (o, &b) in out.iter_mut().zip(&layer.biases) {
                *o += b;
                if l != last {
                    *o = o.tanh();
                }
            }
            core::mem::swap(&mut h, &mut next);
        }
        [h[0], h[1], h[2]]
    }

    /// The batched primal: blocks of `block` points go through one GEMM per layer
    /// (`H·W`, faer, sequential), then the bias and tanh. Returns `(u, v, p)` per point.
    ///
    /// Panics when `block` is zero.
    pub fn forward_batched(&self, points: &[[f64; 3]], block: usize) -> Vec<[f64; 3]> {
        assert!(block > 0, "the block size must be positive");
        let mut out = vec![[0.0; 3]; points.len()];
        let mut cur = vec![0.0; block * MAX_WIDTH];
        let mut next = vec![0.0; block * MAX_WIDTH];
        let last = self.layers.len() - 1;
        for (chunk, out) in points.chunks(block).zip(out.chunks_mut(block)) {
            let rows = chunk.len();
            cur[..rows * 3].copy_from_slice(chunk.as_flattened());
            for (l, layer) in self.layers.iter().enumerate() {
                let (fan_in, fan_out) = (layer.fan_in, layer.fan_out);
                let dst = &mut next[..rows * fan_out];
                matmul(
                    MatMut::from_row_major_slice_mut(dst, rows, fan_out),
                    Accum::Replace,
                    MatRef::from_row_major_slice(&cur[..rows * fan_in], rows, fan_in),
                    layer.weight_matrix(),
                    1.0,
                    Par::Seq,
                );
                clear_upper_vector_state();
                for row in dst.chunks_exact_mut(fan_out) {
                    for (v, &b) in row.iter_mut().zip(&layer.biases) {
                        *v += b;
                        if l != last {
                            *v = v.tanh();
                        }
                    }
                }
                core::mem::swap(&mut cur, &mut next);
            }
            for (o, row) in out.iter_mut().zip(cur.chunks_exact(3)) {
                *o = [row[0], row[1], row[2]];
            }
        }
        out
    }
}

impl Network {
    /// The batched primal on the GEMM crate of the batched residual (`gemm`): blocks
    /// of `block` points through one GEMM per layer, then the bias and tanh, blocks in
    /// parallel on the current rayon pool (sequential inside a one-thread pool).
    /// Returns `(u, v, p)` per point.
    ///
    /// Panics when `block` is zero.
    pub fn forward_batched_gemm(&self, points: &[[f64; 3]], block: usize) -> Vec<[f64; 3]> {
        assert!(block > 0, "the block size must be positive");
        let mut out = vec![[0.0; 3]; points.len()];
        let last = self.layers.len() - 1;
        points
            .par_chunks(block)
            .zip(out.par_chunks_mut(block))
            .for_each_init(
                || (vec![0.0; block * MAX_WIDTH], vec![0.0; block * MAX_WIDTH]),
                |(cur, next), (chunk, out)| {
                    let rows = chunk.len();
                    cur[..rows * 3].copy_from_slice(chunk.as_flattened());
                    for (l, layer) in self.layers.iter().enumerate() {
                        let (fan_in, fan_out) = (layer.fan_in, layer.fan_out);
                        let dst = &mut next[..rows * fan_out];
                        gemm_row_major(
                            dst,
                            &cur[..rows * fan_in],
                            &layer.weights,
                            rows,
                            fan_in,
                            fan_out,
                        );
                        for row in dst.chunks_exact_mut(fan_out) {
                            for (v, &b) in row.iter_mut().zip(&layer.biases) {
                                *v += b;
                                if l != last {
                                    *v = v.tanh();
                                }
                            }
                        }
                        core::mem::swap(cur, next);
                    }
                    for (o, row) in out.iter_mut().zip(cur.chunks_exact(3)) {
                        *o = [row[0], row[1], row[2]];
                    }
                },
            );
        out
    }
}

/// `dst = a · w` with the `gemm` crate, sequential, all row-major: `a` is `m × k`,
/// `w` is `k × n`, `dst` is `m × n`.
pub(crate) fn gemm_row_major(dst: &mut [f64], a: &[f64], w: &[f64], m: usize, k: usize, n: usize) {
    assert!(dst.len() >= m * n && a.len() >= m * k && w.len() >= k * n);
    // SAFETY: the assertion keeps every access in bounds (row strides `n`, `k`, `n`,
    // unit column strides); `dst` is a unique borrow, so it aliases neither input, and
    // `read_dst = false` means it is only written.
    unsafe {
        gemm::gemm(
            m,
            n,
            k,
            dst.as_mut_ptr(),
            1,
            n as isize,
            false,
            a.as_ptr(),
            1,
            k as isize,
            w.as_ptr(),
            1,
            n as isize,
            0.0,
            1.0,
            false,
            false,
            false,
            gemm::Parallelism::None,
        );
    }
}

/// The W1 network (seed [`WEIGHT_SEED`]).
pub fn network() -> Network {
    Network::glorot(WEIGHT_SEED)
}

/// The W1 collocation points: `t, x, y = uniform()` in that order, seed [`POINT_SEED`].
pub fn points() -> Vec<[f64; 3]> {
    let mut rng = SplitMix64::new(POINT_SEED);
    (0..POINTS)
        .map(|_| [rng.uniform(), rng.uniform(), rng.uniform()])
        .collect()
}

#[cfg(test)]
mod tests {
    use lifted::NDual;

    use super::*;

    #[test]
    fn network_has_the_specified_shape() {
        let net = network();
        assert_eq!(net.weight_count(), 49_920);
        assert_eq!(net.layers.len(), 5);
        for (layer, w) in net.layers.iter().zip(WIDTHS.windows(2)) {
            assert_eq!((layer.fan_in, layer.fan_out), (w[0], w[1]));
            assert!(layer.biases.iter().all(|&b| b == 0.0));
        }
    }

    #[test]
    fn weights_come_from_one_generator_in_layer_order() {
        let net = network();
        let mut rng = SplitMix64::new(WEIGHT_SEED);
        let first = (2.0f64 / 131.0).sqrt() * rng.normal();
        assert_eq!(net.layers[0].weights[0], first);
        // Layer 1 continues where layer 0 stopped (384 draws later).
        let mut rng = SplitMix64::new(WEIGHT_SEED);
        for _ in 0..384 {
            rng.normal();
        }
        assert_eq!(
            net.layers[1].weights[0],
            (2.0f64 / 256.0).sqrt() * rng.normal()
        );
    }

    #[test]
    fn points_are_in_the_unit_cube() {
        let pts = points();
        assert_eq!(pts.len(), POINTS);
        assert!(pts.iter().flatten().all(|c| (0.0..1.0).contains(c)));
        let mut rng = SplitMix64::new(POINT_SEED);
        assert_eq!(pts[0], [rng.uniform(), rng.uniform(), rng.uniform()]);
    }

    #[test]
    fn batched_primal_equals_point_by_point() {
        let net = network();
        let pts = points();
        let batched = net.forward_batched(&pts, BLOCK);
        // An uneven block size exercises the short last block.
        let uneven = net.forward_batched(&pts, 100);
        let gemm = net.forward_batched_gemm(&pts, BLOCK);
        let gemm_uneven = net.forward_batched_gemm(&pts, 100);
        for (i, p) in pts.iter().enumerate() {
            let single = net.forward_point(*p);
            for k in 0..3 {
                for other in [batched[i][k], uneven[i][k], gemm[i][k], gemm_uneven[i][k]] {
                    let rel = (other - single[k]).abs() / single[k].abs().max(1e-300);
                    assert!(rel <= 1e-12, "{other} vs {} ({rel:e})", single[k]);
                }
            }
        }
    }

    /// The reading that carries (t, x, y) first derivatives and, inside, the x and y
    /// directions again: outer partial k, inner partial j is ∂²/∂z_k∂z_j.
    type Jet = NDual<NDual<f64, 2>, 3>;

    fn seed(z: [f64; 3]) -> [Jet; 3] {
        let one = NDual::constant(1.0);
        let zero = NDual::constant(0.0);
        [
            Jet::new(NDual::constant(z[0]), [one, zero, zero]),
            Jet::new(NDual::variable(z[1], 0), [zero, one, zero]),
            Jet::new(NDual::variable(z[2], 1), [zero, zero, one]),
        ]
    }

    /// The residual at every point through the generic point-by-point pass must
    /// reproduce the reference sums of WORKLOADS.md: this checks the generator, the
    /// weight layout and the network end to end.
    #[test]
    fn residual_reproduces_the_reference_sums() {
        let net = network();
        let mut sum = [0.0f64; 3];
        let mut max = [0.0f64; 3];
        for p in points() {
            let [u, v, q] = net.forward_point(seed(p));
            let d = |f: Jet, k: usize| f.partial(k).value();
            let (uu, vv) = (u.value().value(), v.value().value());
            let lap = |f: Jet| f.partial(1).partial(0) + f.partial(2).partial(1);
            let r = [
                d(u, 1) + d(v, 2),
                d(u, 0) + uu * d(u, 1) + vv * d(u, 2) + d(q, 1) - NU * lap(u),
                d(v, 0) + uu * d(v, 1) + vv * d(v, 2) + d(q, 2) - NU * lap(v),
            ];
            for k in 0..3 {
                sum[k] += r[k].abs();
                max[k] = max[k].max(r[k].abs());
            }
        }
        let reference_sum = [329.74681203850, 1259.4034342138, 1048.6276228167];
        let reference_max = [0.069024238785, 0.233350016193, 0.163957495068];
        for k in 0..3 {
            let rel_sum = (sum[k] - reference_sum[k]).abs() / reference_sum[k];
            let rel_max = (max[k] - reference_max[k]).abs() / reference_max[k];
            assert!(rel_sum < 1e-12, "Σ|r|[{k}] = {} ({rel_sum:e})", sum[k]);
            assert!(rel_max < 1e-10, "max|r|[{k}] = {} ({rel_max:e})", max[k]);
        }
    }
}
