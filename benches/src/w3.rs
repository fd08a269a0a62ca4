//! W3: the dense tanh chain `y = tanh(W₃ tanh(W₂ tanh(W₁ x)))`, its inputs and the
//! primal GEMV chain (the reference every JVP is measured against).

use faer::linalg::matmul::matmul;
use faer::{Accum, ColMut, ColRef, MatRef, Par};

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
