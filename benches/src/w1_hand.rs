//! W1's hand-written baselines, the algorithms of the project's anchor implementations
//! written again here so they build with the benches' settings: the batched primal
//! network `R` and the hand-written forward residual pass with six streams (value,
//! ∂/∂t, ∂/∂x, ∂/∂y, ∂²/∂x², ∂²/∂y²), one GEMM per layer over all streams of a
//! block of points, the tanh Taylor rules by hand.
//!
//! Each comes with a choice of GEMM and of tanh, so a ratio can hold everything but the
//! derivative fixed: [`Gemm::Gemm`] is the GEMM lifted's batched residual uses,
//! [`Gemm::MatrixMultiply`] the anchor's; [`Tanh::Lifted`] is the vectorised tanh of
//! lifted's PINN networks (`lifted::vmath`), [`Tanh::Anchor`] the anchor's
//! `1 − 2/(e^{2x} + 1)`, [`Tanh::Libm`] the standard library's.

use crate::w1::{NU, Network};

/// The GEMM of a baseline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gemm {
    /// The `gemm` crate, sequential: the GEMM of lifted's batched residual.
    Gemm,
    /// `matrixmultiply`: the anchor's GEMM.
    MatrixMultiply,
}

/// The tanh of a baseline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tanh {
    /// `lifted::vmath::tanh`, the tanh of lifted's PINN networks.
    Lifted,
    /// The anchor's branch-free `1 − 2/(e^{2x} + 1)`.
    Anchor,
    /// `f64::tanh`.
    Libm,
}

impl Tanh {
    /// `tanh` of every element, in place.
    fn apply(self, xs: &mut [f64]) {
        match self {
            Tanh::Lifted => lifted::vmath::tanh_in_place(xs),
            Tanh::Anchor => xs.iter_mut().for_each(|x| *x = tanh_anchor(*x)),
            Tanh::Libm => xs.iter_mut().for_each(|x| *x = x.tanh()),
        }
    }
}

/// The anchor's tanh: `1 − 2/(e^{2x} + 1)`, `e^{2x}` by Cody–Waite reduction, a degree-12
/// Taylor polynomial and the exponent bits (absolute error about 1e-16; relative error
/// grows near 0).
#[inline(always)]
pub fn tanh_anchor(x: f64) -> f64 {
    let x2 = (2.0 * x).clamp(-40.0, 40.0);
    let k = (x2 * core::f64::consts::LOG2_E).round();
    let r = x2 - k * 6.931_471_803_691_238e-1 - k * 1.908_214_929_270_587_7e-10;
    let mut q = 1.0 / 479_001_600.0;
    for c in [
        39_916_800.0,
        3_628_800.0,
        362_880.0,
        40_320.0,
        5040.0,
        720.0,
        120.0,
        24.0,
        6.0,
        2.0,
        1.0,
        1.0,
    ] {
        q = q * r + 1.0 / c;
    }
    // `k` is within ±58 after the clamp, so the exponent is in range.
    let e = q * f64::from_bits(((k as i64 + 1023) as u64) << 52);
    1.0 - 2.0 / (e + 1.0)
}

/// `dst = a · w`, all row-major: `a` is `m × k`, `w` is `k × n`, `dst` is `m × n`.
fn product(gemm: Gemm, dst: &mut [f64], a: &[f64], w: &[f64], m: usize, k: usize, n: usize) {
    assert!(dst.len() >= m * n && a.len() >= m * k && w.len() >= k * n);
    match gemm {
        Gemm::Gemm => crate::w1::gemm_row_major(dst, a, w, m, k, n),
        // SAFETY: the assertion keeps every access in bounds (row strides `k`, `n`,
        // `n`, unit column strides); `dst` is a unique borrow, so it aliases neither
        // input, and `beta = 0` means it is only written.
        Gemm::MatrixMultiply => unsafe {
            matrixmultiply::dgemm(
                m,
                k,
                n,
                1.0,
                a.as_ptr(),
                k as isize,
                1,
                w.as_ptr(),
                n as isize,
                1,
                0.0,
                dst.as_mut_ptr(),
                n as isize,
                1,
            );
        },
    }
}

/// The streams of a block of `n` points through the network: with `taylor`, the six
/// streams stacked (`S = 6` blocks of `n` rows), the inputs seeded with unit first
/// derivatives; without, the value stream alone. Returns the last layer's `S·n × 3`
/// rows.
pub fn streams(
    net: &Network,
    points: &[[f64; 3]],
    taylor: bool,
    gemm: Gemm,
    tanh: Tanh,
) -> Vec<f64> {
    let n = points.len();
    let s = if taylor { 6 } else { 1 };
    let rows = s * n;
    let mut h = vec![0.0; rows * 3];
    h[..n * 3].copy_from_slice(points.as_flattened());
    if taylor {
        for k in 0..3 {
            for i in 0..n {
                h[((1 + k) * n + i) * 3 + k] = 1.0;
            }
        }
    }
    let mut z = Vec::new();
    let last = net.layers.len() - 1;
    for (l, layer) in net.layers.iter().enumerate() {
        let (fan_in, fan_out) = (layer.fan_in, layer.fan_out);
        z.clear();
        z.resize(rows * fan_out, 0.0);
        product(gemm, &mut z, &h, &layer.weights, rows, fan_in, fan_out);
        for row in z[..n * fan_out].chunks_exact_mut(fan_out) {
            for (v, &b) in row.iter_mut().zip(&layer.biases) {
                *v += b;
            }
        }
        if l != last {
            let m = n * fan_out;
            let (z0, rest) = z.split_at_mut(m);
            tanh.apply(z0);
            if taylor {
                let (z1, rest) = rest.split_at_mut(m);
                let (z2, rest) = rest.split_at_mut(m);
                let (z3, rest) = rest.split_at_mut(m);
                let (z4, z5) = rest.split_at_mut(m);
                for q in 0..m {
                    let a = z0[q];
                    let d = 1.0 - a * a;
                    let m2a = -2.0 * a * d;
                    z4[q] = d * z4[q] + m2a * z2[q] * z2[q];
                    z5[q] = d * z5[q] + m2a * z3[q] * z3[q];
                    z1[q] *= d;
                    z2[q] *= d;
                    z3[q] *= d;
                }
            }
        }
        core::mem::swap(&mut h, &mut z);
    }
    h
}

/// The Navier–Stokes residuals `(r_c, r_u, r_v)` of `n` points from their six streams.
pub fn residuals_from_streams(y: &[f64], n: usize) -> Vec<[f64; 3]> {
    (0..n)
        .map(|i| {
            let g = |s: usize, o: usize| y[(s * n + i) * 3 + o];
            let (u, v) = (g(0, 0), g(0, 1));
            let rc = g(2, 0) + g(3, 1);
            let ru = g(1, 0) + u * g(2, 0) + v * g(3, 0) + g(2, 2) - NU * (g(4, 0) + g(5, 0));
            let rv = g(1, 1) + u * g(2, 1) + v * g(3, 1) + g(3, 2) - NU * (g(4, 1) + g(5, 1));
            [rc, ru, rv]
        })
        .collect()
}

/// The batched primal `R` in blocks of `block` points, sequential.
pub fn primal(
    net: &Network,
    points: &[[f64; 3]],
    block: usize,
    gemm: Gemm,
    tanh: Tanh,
) -> Vec<f64> {
    points
        .chunks(block)
        .flat_map(|c| streams(net, c, false, gemm, tanh))
        .collect()
}

/// The hand-written residual pass in blocks of `block` points, sequential.
pub fn residual(
    net: &Network,
    points: &[[f64; 3]],
    block: usize,
    gemm: Gemm,
    tanh: Tanh,
) -> Vec<[f64; 3]> {
    points
        .chunks(block)
        .flat_map(|c| residuals_from_streams(&streams(net, c, true, gemm, tanh), c.len()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::w1;

    /// The hand-written pass gives lifted's batched residual, and its primal stream
    /// the batched primal, on a few points, for every GEMM and tanh.
    #[test]
    fn hand_pass_matches_lifted_residual() {
        let net = w1::network();
        let points: Vec<[f64; 3]> = w1::points().into_iter().take(40).collect();
        let want: Vec<[f64; 3]> = lifted::pinn::navier_stokes_batched(
            &net.to_pinn(),
            &points,
            w1::NU,
            lifted::pinn::Batching::default().block(16),
        )
        .expect("residual")
        .iter()
        .map(|r| [r.continuity, r.momentum_x, r.momentum_y])
        .collect();
        let scale: Vec<f64> = (0..3)
            .map(|k| want.iter().map(|r| r[k].abs()).fold(0.0, f64::max))
            .collect();
        for gemm in [Gemm::Gemm, Gemm::MatrixMultiply] {
            for tanh in [Tanh::Lifted, Tanh::Anchor, Tanh::Libm] {
                let got = residual(&net, &points, 16, gemm, tanh);
                for (g, w) in got.iter().zip(&want) {
                    for k in 0..3 {
                        assert!(
                            (g[k] - w[k]).abs() <= 1e-12 * scale[k],
                            "{gemm:?} {tanh:?}: {g:?} vs {w:?}"
                        );
                    }
                }
                let values = primal(&net, &points, 16, gemm, tanh);
                let batched = net.forward_batched(&points, 16);
                for (g, w) in values.chunks_exact(3).zip(&batched) {
                    for k in 0..3 {
                        assert!((g[k] - w[k]).abs() <= 1e-12, "{gemm:?} {tanh:?}");
                    }
                }
            }
        }
    }

    /// The anchor's tanh against the standard library's, absolute error.
    #[test]
    fn anchor_tanh_is_accurate_in_absolute_terms() {
        for i in -4000..=4000 {
            let x = i as f64 * 0.005;
            assert!((tanh_anchor(x) - x.tanh()).abs() <= 4e-16, "{x}");
        }
    }
}
