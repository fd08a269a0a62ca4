//! Batched residuals of the `(t, x) → u` PDEs (`lifted::pinn::burgers_batched`,
//! `allen_cahn_batched`, `kdv_batched`): equal to the point-by-point residuals to
//! rounding, with and without Fourier features, at every block size and thread count;
//! the third-order `tanh` and `sin`/`cos` jet rules against closed forms; bad input
//! rejected.

use lifted::pinn::{self, Batching, Dense, FourierFeatures, Network};
use lifted::testing::SplitMix64;
use lifted::{Constant, derivatives_1d};

/// Glorot-normal weights and small random biases from a seeded generator.
fn glorot(widths: &[usize], seed: u64) -> Network {
    let mut rng = SplitMix64::new(seed);
    let mut net = Network::from_fn(widths, |i, o| (2.0 / (i + o) as f64).sqrt() * rng.normal());
    for layer in &mut net.layers {
        for b in &mut layer.biases {
            *b = 0.1 * rng.normal();
        }
    }
    net
}

/// The same behind a Fourier-feature embedding of `(t, x)` with `frequencies`
/// frequencies (`B` drawn with standard deviation 1).
fn with_features(widths: &[usize], frequencies: usize, seed: u64) -> Network {
    let mut rng = SplitMix64::new(seed ^ 0x5eed);
    let b = (0..frequencies * 2).map(|_| rng.normal()).collect();
    let mut all = vec![2 * frequencies];
    all.extend_from_slice(&widths[1..]);
    glorot(&all, seed).with_features(FourierFeatures {
        inputs: 2,
        frequencies,
        b,
    })
}

/// Uniform points `(t, x)` in `[0, 1] × [−1, 1]`.
fn points(n: usize, seed: u64) -> Vec<[f64; 2]> {
    let mut rng = SplitMix64::new(seed);
    (0..n)
        .map(|_| [rng.next_f64(), 2.0 * rng.next_f64() - 1.0])
        .collect()
}

/// `[u, u_t, u_x, u_xx, u_xxx]` at `(t, x)`, point by point from the drivers (one
/// Taylor pass of order 3 along x, one of order 1 along t).
fn terms(net: &Network, t: f64, x: f64) -> [f64; 5] {
    let args = (Constant(net.clone()), t, x);
    let none = || Constant(Network::from_fn(&[], |_, _| 0.0));
    let rule = pinn::scalar_field::Rule;
    let along_x = derivatives_1d(rule, &args, &(none(), 0.0, 1.0), 3).unwrap();
    let along_t = derivatives_1d(rule, &args, &(none(), 1.0, 0.0), 1).unwrap();
    [along_x[0], along_t[1], along_x[1], along_x[2], along_x[3]]
}

/// Asserts `got` equals `want` entry by entry within `rel` relative error, relative
/// to `scale` (the size of the terms the residual sums). A residual is a sum of terms
/// that may cancel, and then rounding in the terms — the GEMM sums in another order
/// than the point-by-point rule — is what the two differ by, not the residual's size.
fn assert_close(got: &[f64], want: &[f64], scale: &[f64], rel: f64, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    for (i, ((&a, &b), &s)) in got.iter().zip(want).zip(scale).enumerate() {
        let err = (a - b).abs() / b.abs().max(s).max(f64::MIN_POSITIVE);
        assert!(
            err <= rel,
            "{what}: point {i}: {a} vs {b}, terms of size {s} (relative {err:e})"
        );
    }
}

/// The block sizes and thread counts every comparison runs at.
fn batchings() -> Vec<Batching> {
    let mut all = Vec::new();
    for block in [1, 7, 128] {
        for threads in [1, 2] {
            all.push(Batching::default().block(block).threads(threads));
        }
    }
    all
}

type Batched = fn(&Network, &[[f64; 2]], Batching) -> Result<Vec<f64>, lifted::Error>;
type Single = fn(&Network, f64, f64) -> Result<f64, lifted::Error>;
/// The sum of the absolute values of a residual's terms, from `terms`.
type Scale = fn([f64; 5]) -> f64;

const NU: f64 = 0.05;
const D: f64 = 0.01;

/// The three residuals, batched and point by point, under one name each, with the
/// size of their terms.
fn residuals() -> [(&'static str, Batched, Single, Scale); 3] {
    [
        (
            "burgers",
            |n, p, b| pinn::burgers_batched(n, p, NU, b),
            |n, t, x| pinn::burgers(n, t, x, NU),
            |[u, u_t, u_x, u_xx, _]| u_t.abs() + (u * u_x).abs() + (NU * u_xx).abs(),
        ),
        (
            "allen_cahn",
            |n, p, b| pinn::allen_cahn_batched(n, p, D, b),
            |n, t, x| pinn::allen_cahn(n, t, x, D),
            |[u, u_t, _, u_xx, _]| {
                u_t.abs() + (D * u_xx).abs() + 5.0 * (u * u * u).abs() + 5.0 * u.abs()
            },
        ),
        (
            "kdv",
            pinn::kdv_batched,
            pinn::kdv,
            |[u, u_t, u_x, _, u_xxx]| u_t.abs() + 6.0 * (u * u_x).abs() + u_xxx.abs(),
        ),
    ]
}

/// Every residual of `net` batched against point by point, at every batching.
fn check_against_point_by_point(net: &Network, pts: &[[f64; 2]], what: &str) {
    let all: Vec<[f64; 5]> = pts.iter().map(|&[t, x]| terms(net, t, x)).collect();
    for (name, batched, single, scale) in residuals() {
        let want: Vec<f64> = pts
            .iter()
            .map(|&[t, x]| single(net, t, x).unwrap())
            .collect();
        let scale: Vec<f64> = all.iter().map(|&d| scale(d)).collect();
        for batching in batchings() {
            let got = batched(net, pts, batching).unwrap();
            let what = format!("{what} {name} {batching:?}");
            assert_close(&got, &want, &scale, 1e-12, &what);
        }
    }
}

#[test]
fn batched_residuals_equal_point_by_point() {
    let net = glorot(&[2, 32, 32, 32, 1], 42);
    check_against_point_by_point(&net, &points(300, 7), "plain");
}

#[test]
fn batched_residuals_equal_point_by_point_with_fourier_features() {
    let net = with_features(&[2, 24, 24, 1], 8, 3);
    check_against_point_by_point(&net, &points(300, 5), "Fourier features");
}

#[test]
fn batched_residuals_equal_point_by_point_on_small_networks() {
    // Hidden widths 1, 2, 3 and an uneven wide one.
    for (widths, seed) in [
        (&[2, 1, 1][..], 1),
        (&[2, 2, 2, 1][..], 2),
        (&[2, 3, 3, 3, 1][..], 3),
        (&[2, 67, 1][..], 4),
    ] {
        let net = glorot(widths, seed);
        check_against_point_by_point(&net, &points(40, 11), &format!("{widths:?}"));
    }
}

#[test]
fn threads_do_not_change_the_bits() {
    let net = with_features(&[2, 16, 16, 1], 4, 8);
    let pts = points(257, 9);
    for (name, batched, _, _) in residuals() {
        let base = batched(&net, &pts, Batching::default().block(7).threads(1)).unwrap();
        let got = batched(&net, &pts, Batching::default().block(7).threads(2)).unwrap();
        assert_eq!(got, base, "{name}: same blocks must give the same bits");
        let pooled = batched(&net, &pts, Batching::default().block(7)).unwrap();
        assert_eq!(pooled, base, "{name}: on the current pool");
    }
}

/// `u = c tanh(w_t t + w_x x + b) + e`: a `2 → 1 → 1` network.
fn one_unit(w_t: f64, w_x: f64, b: f64, c: f64, e: f64) -> Network {
    Network {
        features: None,
        layers: vec![
            Dense {
                fan_in: 2,
                fan_out: 1,
                weights: vec![w_t, w_x],
                biases: vec![b],
            },
            Dense {
                fan_in: 1,
                fan_out: 1,
                weights: vec![c],
                biases: vec![e],
            },
        ],
    }
}

#[test]
fn third_order_tanh_jet_matches_the_closed_form() {
    // With z = w_t t + w_x x + b: tanh′ = 1 / cosh² z and, written independently of
    // the rule in the engine, tanh‴ = (2 cosh 2z − 4) / cosh⁴ z.
    let (w_t, w_x, b, c, e) = (0.7, -1.9, 0.3, 1.3, -0.2);
    let net = one_unit(w_t, w_x, b, c, e);
    let pts = points(200, 13);
    let got = pinn::kdv_batched(&net, &pts, Batching::default().block(7)).unwrap();
    for (&[t, x], &r) in pts.iter().zip(&got) {
        let z = w_t * t + w_x * x + b;
        let ch = z.cosh();
        let d1 = 1.0 / (ch * ch);
        let d3 = (2.0 * (2.0 * z).cosh() - 4.0) / (ch * ch * ch * ch);
        let u = c * z.tanh() + e;
        let (u_t, u_x) = (c * w_t * d1, c * w_x * d1);
        let u_xxx = c * w_x * w_x * w_x * d3;
        let want = u_t + 6.0 * u * u_x + u_xxx;
        assert!(
            (r - want).abs() <= 1e-13 * want.abs().max(1.0),
            "at ({t}, {x}): {r} vs {want}"
        );
    }
    // At z = 0 with w_t = 0, c = 1, e = 0: u = 0 and u_t = 0, so the residual is
    // u_xxx = w_x³ tanh‴(0) = 2³ · (−2) = −16.
    let net = one_unit(0.0, 2.0, 0.5, 1.0, 0.0);
    let r = pinn::kdv_batched(&net, &[[0.3, -0.25]], Batching::default()).unwrap();
    assert!((r[0] + 16.0).abs() <= 1e-13, "{}", r[0]);
}

#[test]
fn third_order_fourier_jet_matches_the_closed_form() {
    // One frequency along x only and a linear output layer:
    // u = w_s sin θ + w_c cos θ + e, θ = 2π β x, so with r = 2π β
    // u_x = r (w_s cos θ − w_c sin θ) and u_xxx = −r³ (w_s cos θ − w_c sin θ).
    let (beta, w_s, w_c, e) = (0.8, 0.6, -1.1, 0.25);
    let net = Network {
        features: Some(FourierFeatures {
            inputs: 2,
            frequencies: 1,
            b: vec![0.0, beta],
        }),
        layers: vec![Dense {
            fan_in: 2,
            fan_out: 1,
            weights: vec![w_s, w_c],
            biases: vec![e],
        }],
    };
    let pts = points(100, 17);
    let got = pinn::kdv_batched(&net, &pts, Batching::default().block(9)).unwrap();
    let r = 2.0 * std::f64::consts::PI * beta;
    for (&[t, x], &res) in pts.iter().zip(&got) {
        let theta = r * x;
        let (s, c) = theta.sin_cos();
        let u = w_s * s + w_c * c + e;
        let slope = w_s * c - w_c * s;
        let want = 6.0 * u * r * slope - r * r * r * slope;
        assert!(
            (res - want).abs() <= 1e-12 * want.abs().max(1.0),
            "at ({t}, {x}): {res} vs {want}"
        );
    }
}

#[test]
fn bad_input_is_an_error() {
    let pts = points(4, 1);
    let invalid =
        |r: Result<Vec<f64>, lifted::Error>| matches!(r, Err(lifted::Error::InvalidInput { .. }));
    let net = glorot(&[2, 8, 1], 1);
    let mut broken = glorot(&[2, 8, 1], 1);
    broken.layers[1].weights.pop();
    for (name, batched, _, _) in residuals() {
        // The wrong shape: 3 inputs, 2 outputs, layers that do not fit.
        for wrong in [glorot(&[3, 8, 1], 1), glorot(&[2, 8, 2], 1)] {
            let err = batched(&wrong, &pts, Batching::default()).unwrap_err();
            assert!(err.to_string().contains("2 → 1"), "{name}: {err}");
        }
        let err = batched(&broken, &pts, Batching::default()).unwrap_err();
        assert!(err.to_string().contains("layer 1"), "{name}: {err}");
        assert!(
            invalid(batched(
                &Network::from_fn(&[2], |_, _| 0.0),
                &pts,
                Batching::default()
            )),
            "{name}: no layers"
        );
        assert!(
            invalid(batched(&net, &pts, Batching::default().block(0))),
            "{name}: block 0"
        );
        assert!(
            invalid(batched(&net, &pts, Batching::default().threads(0))),
            "{name}: 0 threads"
        );
        assert!(
            batched(&net, &[], Batching::default()).unwrap().is_empty(),
            "{name}: no points"
        );
    }
}
