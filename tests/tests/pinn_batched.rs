//! Batched PINN evaluation (`lifted::pinn::navier_stokes_batched`, `forward_batched`):
//! equal to the point-by-point derived rules to rounding, W1's reference sums
//! reproduced, every block size and thread count giving the same numbers, and bad
//! input rejected.

use lifted::pinn::{self, Batching, Dense, FourierFeatures, NavierStokes, Network};
use lifted::testing::SplitMix64;

/// Glorot-normal weights from a seeded generator, as W1 draws them.
fn glorot(widths: &[usize], seed: u64) -> Network {
    let mut rng = SplitMix64::new(seed);
    Network::from_fn(widths, |i, o| (2.0 / (i + o) as f64).sqrt() * rng.normal())
}

/// Uniform points in the unit cube, as W1 draws them.
fn points(n: usize, seed: u64) -> Vec<[f64; 3]> {
    let mut rng = SplitMix64::new(seed);
    (0..n)
        .map(|_| [rng.next_f64(), rng.next_f64(), rng.next_f64()])
        .collect()
}

fn triple(r: &NavierStokes) -> [f64; 3] {
    [r.continuity, r.momentum_x, r.momentum_y]
}

/// Asserts `got` equals `want` residual by residual within `rel` relative error.
fn assert_close(got: &[NavierStokes], want: &[NavierStokes], rel: f64, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        for (a, b) in triple(g).into_iter().zip(triple(w)) {
            let err = (a - b).abs() / b.abs().max(f64::MIN_POSITIVE);
            assert!(
                err <= rel,
                "{what}: point {i}: {a} vs {b} (relative {err:e})"
            );
        }
    }
}

#[test]
fn batched_residuals_equal_point_by_point() {
    let net = glorot(&[3, 128, 128, 128, 128, 3], 42);
    let pts = points(300, 7);
    let want = pinn::navier_stokes_all(&net, &pts, 0.01).unwrap();
    // Short last blocks, a single block, one point per block, and more threads
    // than blocks.
    for batching in [
        Batching::default(),
        Batching::default().block(7).threads(2),
        Batching::default().block(1000).threads(1),
        Batching::default().block(1).threads(3),
    ] {
        let got = pinn::navier_stokes_batched(&net, &pts, 0.01, batching).unwrap();
        assert_close(&got, &want, 1e-12, &format!("{batching:?}"));
    }
}

#[test]
fn batched_residuals_equal_point_by_point_on_small_networks() {
    // Hidden widths 1, 2, 3 and an uneven wide one; viscosity large enough that the
    // second-order streams matter.
    for (widths, seed) in [
        (&[3, 1, 3][..], 1),
        (&[3, 2, 2, 3][..], 2),
        (&[3, 3, 3, 3, 3][..], 3),
        (&[3, 67, 3][..], 4),
    ] {
        let net = glorot(widths, seed);
        let pts = points(50, 11);
        let want = pinn::navier_stokes_all(&net, &pts, 0.5).unwrap();
        let got =
            pinn::navier_stokes_batched(&net, &pts, 0.5, Batching::default().block(16)).unwrap();
        assert_close(&got, &want, 1e-12, &format!("{widths:?}"));
    }
}

#[test]
fn batched_residuals_differentiate_fourier_features() {
    let mut rng = SplitMix64::new(3);
    let b = (0..8 * 3).map(|_| rng.normal()).collect();
    let features = FourierFeatures {
        inputs: 3,
        frequencies: 8,
        b,
    };
    let net = glorot(&[16, 20, 20, 3], 4).with_features(features);
    let pts = points(40, 5);
    let want = pinn::navier_stokes_all(&net, &pts, 0.1).unwrap();
    let got = pinn::navier_stokes_batched(&net, &pts, 0.1, Batching::default().block(9)).unwrap();
    assert_close(&got, &want, 1e-12, "Fourier features");
}

#[test]
fn batched_residuals_reproduce_w1_reference_sums() {
    let net = glorot(&[3, 128, 128, 128, 128, 3], 42);
    let r = pinn::navier_stokes_batched(&net, &points(8192, 7), 0.01, Batching::default()).unwrap();
    let rel = |a: f64, b: f64| ((a - b) / b).abs();
    let sums = [0, 1, 2].map(|k| r.iter().map(|r| triple(r)[k].abs()).sum::<f64>());
    let maxes = [0, 1, 2].map(|k| r.iter().map(|r| triple(r)[k].abs()).fold(0.0, f64::max));
    let want_sums = [329.74681203850, 1259.4034342138, 1048.6276228167];
    let want_maxes = [0.069024238785, 0.233350016193, 0.163957495068];
    for k in 0..3 {
        assert!(rel(sums[k], want_sums[k]) <= 1e-10, "Σ|r| = {}", sums[k]);
        assert!(
            rel(maxes[k], want_maxes[k]) <= 1e-10,
            "max|r| = {}",
            maxes[k]
        );
    }
}

#[test]
fn block_size_and_threads_do_not_change_the_numbers() {
    // Blocks are independent, so the thread count cannot change a bit; the block size
    // changes the GEMM's shapes, and with them possibly its summation order, so it is
    // compared within rounding.
    let net = glorot(&[3, 32, 32, 3], 8);
    let pts = points(257, 9);
    let base = pinn::navier_stokes_batched(&net, &pts, 0.01, Batching::default()).unwrap();
    for batching in [
        Batching::default().threads(1),
        Batching::default().threads(2),
    ] {
        let got = pinn::navier_stokes_batched(&net, &pts, 0.01, batching).unwrap();
        assert_eq!(
            got, base,
            "{batching:?}: same blocks must give the same bits"
        );
    }
    for block in [1, 2, 3, 64, 256, 257, 1 << 12] {
        let got = pinn::navier_stokes_batched(&net, &pts, 0.01, Batching::default().block(block))
            .unwrap();
        assert_close(&got, &base, 1e-12, &format!("block {block}"));
    }
}

#[test]
fn forward_batched_equals_the_network() {
    let net = glorot(&[3, 128, 128, 3], 6);
    let pts = points(130, 2);
    let out = pinn::forward_batched(&net, pts.as_flattened(), Batching::default()).unwrap();
    assert_eq!(out.len(), 3 * pts.len());
    for (p, got) in pts.iter().zip(out.chunks_exact(3)) {
        let want = pinn::forward(&net, p);
        for (a, b) in got.iter().zip(&want) {
            assert!((a - b).abs() <= 1e-13 * b.abs().max(1e-3), "{a} vs {b}");
        }
    }
    // Other input and output dimensions.
    let net = glorot(&[2, 5, 4], 6);
    let flat = [0.1, 0.2, 0.3, 0.4, -0.5, 0.6];
    let out = pinn::forward_batched(&net, &flat, Batching::default().block(2)).unwrap();
    for (z, got) in flat.chunks_exact(2).zip(out.chunks_exact(4)) {
        let want = pinn::forward(&net, z);
        for (a, b) in got.iter().zip(&want) {
            assert!((a - b).abs() <= 1e-14 * b.abs().max(1e-3), "{a} vs {b}");
        }
    }
    assert!(
        pinn::forward_batched(&net, &[], Batching::default())
            .unwrap()
            .is_empty()
    );
}

#[test]
fn bad_input_is_an_error() {
    let net = glorot(&[3, 8, 3], 1);
    let pts = points(4, 1);
    let invalid = |r: Result<Vec<NavierStokes>, lifted::Error>| {
        matches!(r, Err(lifted::Error::InvalidInput { .. }))
    };
    assert!(invalid(pinn::navier_stokes_batched(
        &net,
        &pts,
        0.01,
        Batching::default().block(0)
    )));
    assert!(invalid(pinn::navier_stokes_batched(
        &net,
        &pts,
        0.01,
        Batching::default().threads(0)
    )));
    assert!(invalid(pinn::navier_stokes_batched(
        &glorot(&[2, 8, 3], 1),
        &pts,
        0.01,
        Batching::default()
    )));
    let mut broken = glorot(&[3, 8, 3], 1);
    broken.layers[1].weights.pop();
    let err = pinn::navier_stokes_batched(&broken, &pts, 0.01, Batching::default()).unwrap_err();
    assert!(err.to_string().contains("layer 1"), "{err}");
    let err = pinn::forward_batched(&net, &[0.0; 4], Batching::default()).unwrap_err();
    assert!(err.to_string().contains("dimension 3"), "{err}");
}

#[test]
fn batched_activations_equal_the_network_bit_for_bit() {
    // One-unit layers: every product has a single term, so the GEMMs cannot reorder a
    // sum and the batched values must be the point-by-point ones exactly, `tanh` (the
    // vectorised one, row by row) included.
    let dense = |w: f64, b: f64| Dense {
        fan_in: 1,
        fan_out: 1,
        weights: vec![w],
        biases: vec![b],
    };
    let net = Network {
        features: None,
        layers: vec![
            dense(3.0, 0.1),
            dense(-1.7, 0.4),
            dense(0.9, -0.3),
            dense(1.0, 0.0),
        ],
    };
    let mut rng = SplitMix64::new(31);
    let mut zs: Vec<f64> = (0..1000).map(|_| 20.0 * rng.next_f64() - 10.0).collect();
    zs.extend([0.0, -0.0, 0.2, 0.625 / 3.0, 7.0]);
    for batching in [Batching::default(), Batching::default().block(3)] {
        let got = pinn::forward_batched(&net, &zs, batching).unwrap();
        for (&z, &g) in zs.iter().zip(&got) {
            let want = pinn::forward(&net, &[z])[0];
            assert_eq!(g.to_bits(), want.to_bits(), "at {z}, {batching:?}");
        }
    }
}
