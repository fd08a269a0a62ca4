//! W3: the dense tanh chain `y = tanh(W₃ tanh(W₂ tanh(W₁ x)))`, its inputs and the
//! primal GEMV chain (the reference every JVP is measured against).

use faer::linalg::matmul::matmul;
use faer::{Accum, ColMut, ColRef, MatRef, Par};

use lifted::linalg::{Mat, matvec};
use lifted::{NDual, NDualArray, autodiff};

use crate::{SplitMix64, clear_upper_vector_state};

/// The dimension of `x`, `y` and every hidden state; each `W_k` is `DIM × DIM`.
pub const DIM: usize = 256;
/// Number of tangent directions drawn (rows of `T`).
pub const TANGENTS: usize = 16;
/// The chunk widths of the benchmark: the first N rows of `T`.
pub const WIDTHS: [usize; 3] = [1, 4, 16];
/// Seed of the generator that fills `W₁`, `W₂`, `W₃` in order.
pub const MATRIX_SEED: u64 = 11;
/// Seed of the generator that draws the input point.
pub const POINT_SEED: u64 = 12;
/// Seed of the generator that draws the tangents.
pub const TANGENT_SEED: u64 = 13;

/// The three matrices of the chain.
#[derive(Clone, Debug)]
pub struct TanhChain {
    /// `W₁, W₂, W₃`, each `DIM × DIM`, stored `[out][in]` row-major (`y = W x`).
    pub matrices: [Vec<f64>; 3],
}

impl TanhChain {
    /// The W3 matrices: entries `normal() / sqrt(256)` from one generator seeded with
    /// [`MATRIX_SEED`], `W₁` first, each filled in row-major order.
    pub fn new() -> Self {
        let mut rng = SplitMix64::new(MATRIX_SEED);
        let scale = (DIM as f64).sqrt();
        let mut draw = || (0..DIM * DIM).map(|_| rng.normal() / scale).collect();
        Self {
            matrices: [draw(), draw(), draw()],
        }
    }

    /// `W_k` as a faer view.
    pub fn matrix(&self, k: usize) -> MatRef<'_, f64> {
        MatRef::from_row_major_slice(&self.matrices[k], DIM, DIM)
    }

    /// The primal chain: three GEMVs (faer, sequential) and 768 tanh.
    ///
    /// Panics when `x.len() != DIM`.
    #[track_caller]
    pub fn primal(&self, x: &[f64]) -> Vec<f64> {
        assert_eq!(x.len(), DIM, "the input has {DIM} entries");
        let mut h = x.to_vec();
        let mut next = vec![0.0; DIM];
        for k in 0..3 {
            matmul(
                ColMut::from_slice_mut(&mut next),
                Accum::Replace,
                self.matrix(k),
                ColRef::from_slice(&h),
                1.0,
                Par::Seq,
            );
            clear_upper_vector_state();
            for v in &mut next {
                *v = v.tanh();
            }
            core::mem::swap(&mut h, &mut next);
        }
        h
    }
}

/// One layer `tanh(W h)`, written as ordinary Rust over [`lifted::linalg`]: at a dual
/// reading the product is one GEMM over every lane, the `tanh` the element-wise rule.
#[autodiff(forward, chunk = 16)]
pub fn layer(#[constant] w: &[f64], h: &[f64]) -> Vec<f64> {
    let n = h.len();
    let mut y: Vec<f64> = matvec(Mat::new(w, n, n), h);
    for v in y.iter_mut() {
        *v = v.tanh();
    }
    y
}

/// The W3 chain `tanh(W₃ tanh(W₂ tanh(W₁ x)))` as an annotated function.
#[autodiff(forward, chunk = 16)]
pub fn chain(
    #[constant] w1: &[f64],
    #[constant] w2: &[f64],
    #[constant] w3: &[f64],
    x: &[f64],
) -> Vec<f64> {
    let h1: Vec<f64> = layer(w1, x);
    let h2: Vec<f64> = layer(w2, &h1);
    layer(w3, &h2)
}

impl TanhChain {
    /// The JVP of [`chain`] along the first N rows of `tangents`: seeds the input
    /// block, runs the derived rule at `NDual<f64, N>` (the primal output and the N
    /// directional derivatives `J·t_k`).
    pub fn jvp<const N: usize>(&self, x: &[f64], tangents: &[f64]) -> NDualArray<f64, N> {
        let lanes: [&[f64]; N] = core::array::from_fn(|k| &tangents[k * DIM..(k + 1) * DIM]);
        let x = NDualArray::from_lanes(x.to_vec(), lanes).expect("DIM values per lane");
        let [w1, w2, w3] = &self.matrices;
        chain::frule::<NDual<f64, N>>(w1, w2, w3, x.view())
    }

    /// The same JVP with a per-lane loop of BLAS calls: per layer one GEMV for the
    /// primal and one GEMV per lane (faer, sequential) — the form the wide GEMM
    /// replaces. Returns the output and the N tangents, lane by lane.
    pub fn jvp_per_lane(&self, x: &[f64], tangents: &[f64], n: usize) -> (Vec<f64>, Vec<Vec<f64>>) {
        let mut h = x.to_vec();
        let mut lanes: Vec<Vec<f64>> = (0..n)
            .map(|k| tangents[k * DIM..(k + 1) * DIM].to_vec())
            .collect();
        let mut next = vec![0.0; DIM];
        for k in 0..3 {
            let w = self.matrix(k);
            matmul(
                ColMut::from_slice_mut(&mut next),
                Accum::Replace,
                w,
                ColRef::from_slice(&h),
                1.0,
                Par::Seq,
            );
            for lane in &mut lanes {
                let mut out = vec![0.0; DIM];
                matmul(
                    ColMut::from_slice_mut(&mut out),
                    Accum::Replace,
                    w,
                    ColRef::from_slice(lane),
                    1.0,
                    Par::Seq,
                );
                *lane = out;
            }
            clear_upper_vector_state();
            for (i, v) in next.iter_mut().enumerate() {
                *v = v.tanh();
                let d = 1.0 - *v * *v;
                for lane in &mut lanes {
                    lane[i] *= d;
                }
            }
            core::mem::swap(&mut h, &mut next);
        }
        (h, lanes)
    }
}

/// Buffers of [`TanhChain::jvp_hand`], reused from call to call.
#[derive(Clone, Debug, Default)]
pub struct HandBuffers {
    b: Vec<f64>,
    c: Vec<f64>,
}

impl TanhChain {
    /// The hand-written JVP of the anchors: `B = [x | t₁ … t_N]` (`DIM × (N+1)`,
    /// row-major); per layer one GEMM `C = W B` (the `gemm` crate, as lifted's
    /// primitives use) and the `tanh` rule on each row (value in column 0, the lanes
    /// scaled by `1 − y²`). Returns `B` after the last layer: row `i` holds `yᵢ` and
    /// the N tangents of output `i`.
    pub fn jvp_hand<'b>(
        &self,
        x: &[f64],
        tangents: &[f64],
        n: usize,
        buf: &'b mut HandBuffers,
    ) -> &'b [f64] {
        let m = n + 1;
        let HandBuffers { b, c } = buf;
        b.clear();
        b.resize(DIM * m, 0.0);
        for i in 0..DIM {
            b[i * m] = x[i];
            for k in 0..n {
                b[i * m + 1 + k] = tangents[k * DIM + i];
            }
        }
        c.resize(DIM * m, 0.0);
        for w in &self.matrices {
            crate::w1::gemm_row_major(c, w, b, DIM, DIM, m);
            clear_upper_vector_state();
            for row in c.chunks_exact_mut(m) {
                let y = row[0].tanh();
                let d = 1.0 - y * y;
                row[0] = y;
                for t in &mut row[1..] {
                    *t *= d;
                }
            }
            core::mem::swap(b, c);
        }
        b
    }
}

impl Default for TanhChain {
    fn default() -> Self {
        Self::new()
    }
}

/// The input point: `x_i = 2·uniform() − 1`, seed [`POINT_SEED`].
pub fn point() -> Vec<f64> {
    let mut rng = SplitMix64::new(POINT_SEED);
    (0..DIM).map(|_| 2.0 * rng.uniform() - 1.0).collect()
}

/// The tangents `T`, `TANGENTS × DIM` row-major, entries `normal()` from seed
/// [`TANGENT_SEED`]; tangent k is row k.
pub fn tangents() -> Vec<f64> {
    let mut rng = SplitMix64::new(TANGENT_SEED);
    (0..TANGENTS * DIM).map(|_| rng.normal()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `tanh(W h)` by plain dot products, row by row.
    fn naive_layer(w: &[f64], h: &[f64]) -> Vec<f64> {
        w.chunks_exact(DIM)
            .map(|row| row.iter().zip(h).map(|(a, b)| a * b).sum::<f64>().tanh())
            .collect()
    }

    #[test]
    fn inputs_have_the_specified_shapes_and_seeds() {
        let chain = TanhChain::new();
        let mut rng = SplitMix64::new(MATRIX_SEED);
        assert_eq!(chain.matrices[0][0], rng.normal() / 16.0);
        for _ in 1..DIM * DIM {
            rng.normal();
        }
        assert_eq!(chain.matrices[1][0], rng.normal() / 16.0);

        let x = point();
        assert_eq!(x.len(), DIM);
        assert!(x.iter().all(|v| (-1.0..1.0).contains(v)));
        let t = tangents();
        assert_eq!(t.len(), TANGENTS * DIM);
        assert_eq!(t[0], SplitMix64::new(TANGENT_SEED).normal());
    }

    #[test]
    fn derived_jvp_matches_the_per_lane_loop_and_the_primal() {
        let chain = TanhChain::new();
        let (x, t) = (point(), tangents());
        let y = chain.jvp::<16>(&x, &t);
        let (yp, lanes) = chain.jvp_per_lane(&x, &t, 16);
        let primal = super::chain(
            &chain.matrices[0],
            &chain.matrices[1],
            &chain.matrices[2],
            &x,
        );
        assert_eq!(y.as_primal_slice(), &primal[..], "the primal, bit for bit");
        for i in 0..DIM {
            assert!((y.get(i).value() - yp[i]).abs() <= 1e-13);
            for (k, lane) in lanes.iter().enumerate() {
                let (a, b) = (y.get(i).partials()[k], lane[i]);
                assert!(
                    (a - b).abs() <= 1e-12 * (1.0 + b.abs()),
                    "lane {k}, {i}: {a} vs {b}"
                );
            }
        }
    }

    #[test]
    fn hand_jvp_matches_the_per_lane_passes() {
        let chain = TanhChain::new();
        let (x, t) = (point(), tangents());
        let (yp, lanes) = chain.jvp_per_lane(&x, &t, 16);
        let mut buf = HandBuffers::default();
        for n in [1, 4, 16] {
            let b = chain.jvp_hand(&x, &t, n, &mut buf);
            for i in 0..DIM {
                assert!((b[i * (n + 1)] - yp[i]).abs() <= 1e-13);
                for (k, lane) in lanes.iter().take(n).enumerate() {
                    let (a, e) = (b[i * (n + 1) + 1 + k], lane[i]);
                    assert!(
                        (a - e).abs() <= 1e-12 * (1.0 + e.abs()),
                        "N={n}, lane {k}, {i}: {a} vs {e}"
                    );
                }
            }
        }
    }

    #[test]
    fn primal_matches_plain_dot_products() {
        let chain = TanhChain::new();
        let x = point();
        let mut h = x.clone();
        for w in &chain.matrices {
            h = naive_layer(w, &h);
        }
        let y = chain.primal(&x);
        for (a, b) in y.iter().zip(&h) {
            assert!((a - b).abs() <= 1e-13, "{a} vs {b}");
        }
        assert!(y.iter().all(|v| v.abs() < 1.0));
    }
}
