//! Inputs and implementations of the linear-algebra benchmarks: the layout ablation
//! (element-major block against parallel arrays, one array per lane) and the LU
//! solve of a 200 × 200 system.
//!
//! The two layouts hold the same numbers: `NDualArray<f64, N>` keeps element `i`'s N
//! partials contiguous (`i·N + k`); [`Lanes`] keeps lane `k` contiguous (`k·len + i`),
//! all lanes in one allocation so a BLAS call can still take every lane at once. Each
//! function is written once per layout with the same arithmetic, so the difference
//! timed is the layout's.

use faer::linalg::matmul::matmul;
use faer::{Accum, MatMut, MatRef, Par};
use lifted::linalg::{Mat, matvec};
use lifted::{NDual, NDualArray, Real};

use crate::{SplitMix64, clear_upper_vector_state};

/// Length of the scalar-heavy loop's input.
pub const LOOP_LEN: usize = 4096;
/// Size of the BLAS-heavy function's matrix.
pub const MATRIX_DIM: usize = 256;
/// Size of the LU system.
pub const LU_DIM: usize = 200;
/// Tangent lanes of the ablation.
pub const LANES: usize = 16;
/// Tangent lanes of the LU benchmark.
pub const LU_LANES: usize = 8;

/// `len` draws of `2·uniform() − 1` from a generator seeded with `seed`.
pub fn uniform(len: usize, seed: u64) -> Vec<f64> {
    let mut rng = SplitMix64::new(seed);
    (0..len).map(|_| 2.0 * rng.uniform() - 1.0).collect()
}

/// A diagonally dominant `n × n` system matrix (well conditioned): uniform entries
/// plus `n` on the diagonal.
pub fn system_matrix(n: usize, seed: u64) -> Vec<f64> {
    let mut a = uniform(n * n, seed);
    for i in 0..n {
        a[i * n + i] += n as f64;
    }
    a
}

/// The parallel-arrays layout: the primal and, in one buffer, lane `k` at
/// `k·len .. (k + 1)·len`.
#[derive(Clone, Debug)]
pub struct Lanes<const N: usize> {
    /// The primal values.
    pub primal: Vec<f64>,
    /// Lane-major partials: partial `k` of element `i` at `k·len + i`.
    pub lanes: Vec<f64>,
}

impl<const N: usize> Lanes<N> {
    /// The same values as an element-major array.
    pub fn from_block(x: &NDualArray<f64, N>) -> Self {
        let len = x.len();
        let mut lanes = vec![0.0; N * len];
        for (i, run) in x.partials_block().chunks_exact(N).enumerate() {
            for (k, &p) in run.iter().enumerate() {
                lanes[k * len + i] = p;
            }
        }
        Self {
            primal: x.as_primal_slice().to_vec(),
            lanes,
        }
    }

    /// Element `i`, gathered across the N lanes.
    #[inline]
    pub fn get(&self, i: usize) -> NDual<f64, N> {
        let len = self.primal.len();
        NDual::new(
            self.primal[i],
            core::array::from_fn(|k| self.lanes[k * len + i]),
        )
    }

    /// Writes element `i`, scattering its partials across the N lanes.
    #[inline]
    pub fn set(&mut self, i: usize, v: NDual<f64, N>) {
        let len = self.primal.len();
        self.primal[i] = v.value();
        for (k, &p) in v.partials().iter().enumerate() {
            self.lanes[k * len + i] = p;
        }
    }
}

/// An element-major input of `len` values with `N` seeded lanes.
pub fn seeded_block<const N: usize>(len: usize, seed: u64) -> NDualArray<f64, N> {
    let tangents = uniform(N * len, seed + 1);
    let lanes: [&[f64]; N] = core::array::from_fn(|k| &tangents[k * len..(k + 1) * len]);
    NDualArray::from_lanes(uniform(len, seed), lanes).expect("len values per lane")
}

/// The scalar-heavy loop's element: `y_i = sin(x_i)·x_{i+1} + x_i²` (cyclic).
#[inline]
fn element<const N: usize>(a: NDual<f64, N>, b: NDual<f64, N>) -> NDual<f64, N> {
    a.sin() * b + a * a
}

/// The scalar-heavy loop over the element-major block.
pub fn scalar_element_major<const N: usize>(x: &NDualArray<f64, N>) -> NDualArray<f64, N> {
    let n = x.len();
    let mut y = NDualArray::with_capacity(n);
    for i in 0..n {
        y.push(element(x.get(i), x.get((i + 1) % n)));
    }
    y
}

/// The scalar-heavy loop over parallel arrays.
pub fn scalar_parallel<const N: usize>(x: &Lanes<N>) -> Lanes<N> {
    let n = x.primal.len();
    let mut y = Lanes {
        primal: vec![0.0; n],
        lanes: vec![0.0; N * n],
    };
    for i in 0..n {
        y.set(i, element(x.get(i), x.get((i + 1) % n)));
    }
    y
}

/// The BLAS-heavy function `W x` over the element-major block: `lifted::linalg::matvec`
/// (one GEMM over the `(len, N)` block).
pub fn blas_element_major<const N: usize>(w: &[f64], x: &NDualArray<f64, N>) -> NDualArray<f64, N> {
    let n = x.len();
    matvec::frule::<NDual<f64, N>>(Mat::new(w, n, n), x)
}

/// The BLAS-heavy function over parallel arrays: the primal GEMV and one GEMM over the
/// lane-major buffer (a column-major `len × N` matrix), faer, sequential.
pub fn blas_parallel<const N: usize>(w: &[f64], x: &Lanes<N>) -> Lanes<N> {
    let n = x.primal.len();
    let w = MatRef::from_row_major_slice(w, n, n);
    let mut y = Lanes {
        primal: vec![0.0; n],
        lanes: vec![0.0; N * n],
    };
    matmul(
        MatMut::from_column_major_slice_mut(&mut y.primal, n, 1),
        Accum::Replace,
        w,
        MatRef::from_column_major_slice(&x.primal, n, 1),
        1.0,
        Par::Seq,
    );
    matmul(
        MatMut::from_column_major_slice_mut(&mut y.lanes, n, N),
        Accum::Replace,
        w,
        MatRef::from_column_major_slice(&x.lanes, n, N),
        1.0,
        Par::Seq,
    );
    clear_upper_vector_state();
    y
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_layouts_compute_the_same_numbers() {
        let x = seeded_block::<4>(64, 5);
        let lanes = Lanes::from_block(&x);
        let a = scalar_element_major(&x);
        let b = scalar_parallel(&lanes);
        for i in 0..64 {
            assert_eq!(a.get(i), b.get(i));
        }
        let w = uniform(64 * 64, 6);
        let a = blas_element_major(&w, &x);
        let b = blas_parallel(&w, &lanes);
        for i in 0..64 {
            let (u, v) = (a.get(i), b.get(i));
            assert!((u.value() - v.value()).abs() <= 1e-12);
            for k in 0..4 {
                assert!((u.partials()[k] - v.partials()[k]).abs() <= 1e-12);
            }
        }
    }
}
