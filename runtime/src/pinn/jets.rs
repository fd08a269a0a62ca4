//! The block engine of batched evaluation: a network's values and derivative streams
//! for a block of points, one GEMM per layer over all points and all streams.
//!
//! Inside a layer everything before the activation is linear in the layer's input, so
//! every stream (the value, each first-order coefficient, each pure second-order
//! coefficient) goes through the same weight matrix: the streams are stacked as rows,
//! stream-major, and multiplied at once. Only the activation mixes streams, by the jet
//! rule of `tanh` (and of `sin`/`cos` in a Fourier-feature embedding):
//! `a = f(z)`, `ȧ = f′(z) ż`, `ä = f′(z) z̈ + f″(z) ż²`, and for the optional
//! third-order stream (Faà di Bruno) `a⃛ = f′(z) z⃛ + 3 f″(z) ż z̈ + f‴(z) ż³`.
//!
//! Every stream holds plain derivatives along a coordinate (not Taylor coefficients:
//! no factorials anywhere), so the order-3 stream along x is `∂³/∂x³` itself and
//! reuses the first- and second-order streams along x as its lower orders.

use rayon::prelude::*;

use super::network::Network;
use crate::reading::table::lines::{cos, sin, tanh};
use crate::vmath::simd::{self, Body, Isa};

/// The derivative streams a pass carries besides the value.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Streams<'a> {
    /// The coordinates that get a first-order stream, in stream order.
    pub first: &'a [usize],
    /// One entry per pure second-order stream: the position in `first` of the
    /// coordinate it differentiates along twice (its first-order stream is needed).
    pub second: &'a [usize],
    /// The third-order stream, if any: the position in `second` of the coordinate it
    /// differentiates along three times (its first- and second-order streams are
    /// needed). `None` costs nothing: no extra rows, no extra work in the jet rules.
    pub third: Option<usize>,
}

impl Streams<'_> {
    /// The value plus every derivative stream.
    fn count(&self) -> usize {
        1 + self.first.len() + self.second.len() + usize::from(self.third.is_some())
    }

    /// The index of the third-order stream (after the value, the first-order and the
    /// second-order streams).
    pub(crate) fn third_index(&self) -> usize {
        1 + self.first.len() + self.second.len()
    }
}

/// Buffers of one block pass, reused across the blocks a thread runs.
pub(crate) struct Scratch {
    cur: Vec<f64>,
    next: Vec<f64>,
    d1: Vec<f64>,
    d2: Vec<f64>,
}

impl Scratch {
    /// Buffers for blocks of up to `block` points.
    fn new(net: &Network, streams: Streams<'_>, block: usize) -> Self {
        let widest = net
            .layers
            .iter()
            .map(|l| l.fan_out)
            .chain([net.inputs()])
            .chain(net.features.as_ref().map(|f| 2 * f.frequencies))
            .max()
            .unwrap_or(0);
        let len = streams.count() * block * widest;
        Self {
            cur: vec![0.0; len],
            next: vec![0.0; len],
            d1: vec![0.0; widest],
            d2: vec![0.0; widest],
        }
    }
}

/// The outputs of one block: stream `s`, point `p`, output `k` at
/// `(s * rows + p) * outputs + k` (stream 0 is the value, then the first-order
/// streams, then the second-order ones, then the third-order one if any).
pub(crate) struct BlockJets<'s> {
    data: &'s [f64],
    rows: usize,
    outputs: usize,
}

impl BlockJets<'_> {
    /// Output `k` of point `p` in stream `s`.
    #[inline]
    pub(crate) fn get(&self, s: usize, p: usize, k: usize) -> f64 {
        self.data[(s * self.rows + p) * self.outputs + k]
    }
}

/// `dst = a · w`, all row-major: `a` is `m × k`, `w` is `k × n`, `dst` is `m × n`.
///
/// `gemm` rather than `matrixmultiply`: on the stacked shape of this engine
/// (768 × 128 by 128 × 128) it ran about 25 % faster on the benchmark machine, and on
/// the primal's 128 × 128 the two were level.
fn matmul(dst: &mut [f64], a: &[f64], w: &[f64], m: usize, k: usize, n: usize) {
    use crate::linalg::kernel::{Strided, gemm};
    gemm(
        (m, n, k),
        dst,
        n,
        Strided::new(a, k, 1),
        Strided::new(w, n, 1),
        false,
    );
}

/// The network's output streams for the points of one block (`dim` coordinates each,
/// row after row in `points`).
pub(crate) fn run_block<'s>(
    net: &Network,
    streams: Streams<'_>,
    points: &[f64],
    dim: usize,
    scratch: &'s mut Scratch,
) -> BlockJets<'s> {
    let rows = points.len() / dim;
    let Scratch { cur, next, d1, d2 } = scratch;
    seed(cur, streams, points, rows, dim);
    let mut width = dim;
    if let Some(f) = &net.features {
        width = 2 * f.frequencies;
        embed(next, cur, net, streams, rows);
        core::mem::swap(cur, next);
    }
    let count = streams.count();
    let last = net.layers.len() - 1;
    for (l, layer) in net.layers.iter().enumerate() {
        let (fan_in, fan_out) = (layer.fan_in, layer.fan_out);
        debug_assert_eq!(fan_in, width);
        let out = &mut next[..count * rows * fan_out];
        matmul(
            out,
            &cur[..count * rows * fan_in],
            &layer.weights,
            count * rows,
            fan_in,
            fan_out,
        );
        // The bias is a constant: it shifts the value only.
        for row in out[..rows * fan_out].chunks_exact_mut(fan_out) {
            for (v, &b) in row.iter_mut().zip(&layer.biases) {
                *v += b;
            }
        }
        if l != last {
            let jet = TanhJet {
                out,
                streams,
                rows,
                width: fan_out,
                d1,
                d2,
            };
            simd::dispatch(Isa::best(), jet);
        }
        core::mem::swap(cur, next);
        width = fan_out;
    }
    BlockJets {
        data: &cur[..count * rows * width],
        rows,
        outputs: width,
    }
}

/// The input streams: the points, a unit seed per first-order coordinate, zero
/// second- and third-order derivatives (the inputs are linear in themselves).
fn seed(cur: &mut [f64], streams: Streams<'_>, points: &[f64], rows: usize, dim: usize) {
    let plane = rows * dim;
    cur[..plane].copy_from_slice(points);
    let rest = &mut cur[plane..streams.count() * plane];
    rest.fill(0.0);
    for (f, &c) in streams.first.iter().enumerate() {
        for row in rest[f * plane..(f + 1) * plane].chunks_exact_mut(dim) {
            row[c] = 1.0;
        }
    }
}

/// The Fourier-feature embedding `[sin θ, cos θ]`, `θ = 2π B z`, of every stream: `θ`
/// is linear in `z`, so its first derivative along coordinate `c` is `r = 2π B[k][c]`
/// and its higher ones are zero; the streams are `f′ r`, `f″ r²` and `f‴ r³` of `sin`
/// and `cos`, their derivatives from the derivative table.
fn embed(next: &mut [f64], cur: &[f64], net: &Network, streams: Streams<'_>, rows: usize) {
    let Some(f) = &net.features else { return };
    let (inputs, freq) = (f.inputs, f.frequencies);
    let width = 2 * freq;
    let plane = rows * width;
    let two_pi = 2.0 * std::f64::consts::PI;
    for p in 0..rows {
        let z = &cur[p * inputs..(p + 1) * inputs];
        for k in 0..freq {
            let b = &f.b[k * inputs..(k + 1) * inputs];
            // Summed in the order of the point-by-point network.
            let mut a = 0.0;
            for (&zi, &bi) in z.iter().zip(b) {
                a += zi * bi;
            }
            let angle = two_pi * a;
            let (s, c) = (sin::value(angle), cos::value(angle));
            let (s1, c1) = (sin::d1(angle, s), cos::d1(angle, c));
            let (s2, c2) = (sin::d2(angle, s, s1), cos::d2(angle, c, c1));
            let at = p * width + k;
            next[at] = s;
            next[at + freq] = c;
            for (j, &coord) in streams.first.iter().enumerate() {
                let rate = two_pi * b[coord];
                let o = (1 + j) * plane + at;
                next[o] = s1 * rate;
                next[o + freq] = c1 * rate;
            }
            for (j, &f_index) in streams.second.iter().enumerate() {
                let rate = two_pi * b[streams.first[f_index]];
                let o = (1 + streams.first.len() + j) * plane + at;
                next[o] = s2 * (rate * rate);
                next[o + freq] = c2 * (rate * rate);
            }
            if let Some(s_index) = streams.third {
                let rate = two_pi * b[streams.first[streams.second[s_index]]];
                let o = streams.third_index() * plane + at;
                let cube = rate * rate * rate;
                next[o] = sin::d3(s, s1, s2) * cube;
                next[o + freq] = cos::d3(c, c1, c2) * cube;
            }
        }
    }
}

/// `tanh` applied to every stream of a layer's pre-activations, in place: the value
/// `a = tanh z` by [`vmath::tanh_into`](crate::vmath::tanh_into), its derivatives from
/// the derivative table (`f′ = 1 − a²`, `f″ = −2 a f′` and, for the third-order
/// stream, `f‴ = −2 f′² − 2 a f″`). Run through [`simd::dispatch`], so the loops are
/// compiled for each instruction set: for the baseline target alone they ran two lanes
/// at a time, a tenth of a residual's instructions. The operations are the same in
/// every version, so are the bits.
struct TanhJet<'a, 's> {
    out: &'a mut [f64],
    streams: Streams<'s>,
    rows: usize,
    width: usize,
    d1: &'a mut [f64],
    d2: &'a mut [f64],
}

impl Body for TanhJet<'_, '_> {
    #[inline(always)]
    fn run(self) {
        let TanhJet {
            out,
            streams,
            rows,
            width,
            d1,
            d2,
        } = self;
        let plane = rows * width;
        let (value, rest) = out.split_at_mut(plane);
        let (first, rest) = rest.split_at_mut(streams.first.len() * plane);
        let (second, third) = rest.split_at_mut(streams.second.len() * plane);
        let (d1, d2) = (&mut d1[..width], &mut d2[..width]);
        for p in 0..rows {
            let row = p * width..(p + 1) * width;
            // The value by the vectorised `tanh` the point-by-point network calls too (so
            // the two agree bit for bit), into `d1` first: the table's lines take `z`.
            crate::vmath::tanh_into(&value[row.clone()], d1);
            for ((v, g1), g2) in value[row.clone()].iter_mut().zip(&mut *d1).zip(&mut *d2) {
                let (z, a) = (*v, *g1);
                *v = a;
                *g1 = tanh::d1(z, a);
                *g2 = tanh::d2(z, a, *g1);
            }
            // Highest order first: each needs the lower orders before they are updated.
            if let Some(s_index) = streams.third {
                let dz = &first[streams.second[s_index] * plane..][row.clone()];
                let ddz = &second[s_index * plane..][row.clone()];
                let dddz = &mut third[..plane][row.clone()];
                let a = &value[row.clone()];
                for (((((ddd, &d), &dd), &a), &g1), &g2) in
                    dddz.iter_mut().zip(dz).zip(ddz).zip(a).zip(&*d1).zip(&*d2)
                {
                    let g3 = tanh::d3(a, g1, g2);
                    *ddd = g1 * *ddd + 3.0 * g2 * d * dd + g3 * (d * d * d);
                }
            }
            for (j, &f_index) in streams.second.iter().enumerate() {
                let dz = &first[f_index * plane..][row.clone()];
                let ddz = &mut second[j * plane..][row.clone()];
                for (((dd, &d), &g1), &g2) in ddz.iter_mut().zip(dz).zip(&*d1).zip(&*d2) {
                    *dd = g1 * *dd + g2 * (d * d);
                }
            }
            for f in 0..streams.first.len() {
                for (d, &g1) in first[f * plane..][row.clone()].iter_mut().zip(&*d1) {
                    *d *= g1;
                }
            }
        }
    }
}

/// Runs `each` on the output streams of every block of `block` points (blocks in
/// parallel on the current rayon pool), giving it the block's slice of the results.
pub(crate) fn map_blocks<T, F>(
    net: &Network,
    streams: Streams<'_>,
    points: &[f64],
    block: usize,
    per_point: usize,
    each: F,
) -> Vec<T>
where
    T: Send + Clone + Default,
    F: Fn(&BlockJets<'_>, &mut [T]) + Sync,
{
    let dim = net.inputs();
    let n = points.len() / dim;
    let mut out = vec![T::default(); n * per_point];
    points
        .par_chunks(block * dim)
        .zip(out.par_chunks_mut(block * per_point))
        .for_each_init(
            || Scratch::new(net, streams, block),
            |scratch, (pts, out)| {
                let jets = run_block(net, streams, pts, dim, scratch);
                each(&jets, out);
            },
        );
    out
}

#[cfg(test)]
mod tests {
    use super::{Streams, TanhJet};
    use crate::testing::SplitMix64;
    use crate::vmath::simd::{self, Body, Isa};

    /// The jet rule compiled for each instruction set this CPU runs gives the baseline's
    /// bits, third-order stream included, on values where `tanh` saturates too.
    #[test]
    fn every_instruction_set_gives_the_same_bits() {
        let streams = Streams {
            first: &[0, 1],
            second: &[1],
            third: Some(0),
        };
        let (rows, width) = (5, 7);
        let mut rng = SplitMix64::new(7);
        let input: Vec<f64> = (0..streams.count() * rows * width)
            .map(|i| match i % 11 {
                0 => 25.0,
                1 => -0.0,
                _ => 3.0 * rng.normal(),
            })
            .collect();
        let run = |isa: Option<Isa>| {
            let mut out = input.clone();
            let (mut d1, mut d2) = (vec![0.0; width], vec![0.0; width]);
            let jet = TanhJet {
                out: &mut out,
                streams,
                rows,
                width,
                d1: &mut d1,
                d2: &mut d2,
            };
            match isa {
                None => jet.run(),
                Some(isa) => simd::dispatch(isa, jet),
            }
            out.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
        };
        let baseline = run(None);
        assert_ne!(
            baseline,
            input.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
        );
        for isa in Isa::available() {
            assert_eq!(run(Some(isa)), baseline, "{isa:?}");
        }
    }
}
