//! Physics-informed residuals (`lifted::pinn`): W1's reference sums reproduced, every
//! residual checked against central finite differences of the primal network, and the
//! activation (`lifted::vmath::tanh`) the same bits at every reading.

use lifted::pinn::{self, Dense, FourierFeatures, NavierStokes, Network};
use lifted::testing::SplitMix64;
use lifted::{Constant, derivatives_1d, hessian_diag, value_and_jacfwd, vmath};

/// Glorot-normal weights from a seeded generator, as W1 draws them.
fn glorot(widths: &[usize], seed: u64) -> Network {
    let mut rng = SplitMix64::new(seed);
    Network::from_fn(widths, |i, o| (2.0 / (i + o) as f64).sqrt() * rng.normal())
}

/// The primal network at a point.
fn eval(net: &Network, z: &[f64]) -> Vec<f64> {
    pinn::forward(net, z)
}

/// Central differences of output `k` along coordinate `c` (first and second).
fn fd(net: &Network, z: &[f64], k: usize, c: usize) -> (f64, f64) {
    let h = 1e-4;
    let at = |s: f64| {
        let mut p = z.to_vec();
        p[c] += s;
        eval(net, &p)[k]
    };
    let (up, mid, down) = (at(h), at(0.0), at(-h));
    ((up - down) / (2.0 * h), (up - 2.0 * mid + down) / (h * h))
}

#[test]
fn w1_reference_sums() {
    let net = glorot(&[3, 128, 128, 128, 128, 3], 42);
    let mut rng = SplitMix64::new(7);
    let points: Vec<[f64; 3]> = (0..8192)
        .map(|_| [rng.next_f64(), rng.next_f64(), rng.next_f64()])
        .collect();
    let r = pinn::navier_stokes_all(&net, &points, 0.01).unwrap();
    let sum = |f: fn(&NavierStokes) -> f64| r.iter().map(|r| f(r).abs()).sum::<f64>();
    let max = |f: fn(&NavierStokes) -> f64| r.iter().map(|r| f(r).abs()).fold(0.0, f64::max);
    let rel = |a: f64, b: f64| ((a - b) / b).abs();
    let sums = [
        sum(|r| r.continuity),
        sum(|r| r.momentum_x),
        sum(|r| r.momentum_y),
    ];
    let want = [329.74681203850, 1259.4034342138, 1048.6276228167];
    for (s, w) in sums.iter().zip(want) {
        assert!(rel(*s, w) <= 1e-10, "Σ|r| = {s}, reference {w}");
    }
    let maxes = [
        max(|r| r.continuity),
        max(|r| r.momentum_x),
        max(|r| r.momentum_y),
    ];
    let want = [0.069024238785, 0.233350016193, 0.163957495068];
    for (m, w) in maxes.iter().zip(want) {
        assert!(rel(*m, w) <= 1e-10, "max|r| = {m}, reference {w}");
    }
}

#[test]
fn navier_stokes_matches_finite_differences() {
    let net = glorot(&[3, 24, 24, 3], 5);
    let nu = 0.05;
    for p in [[0.2, 0.4, 0.6], [0.9, -0.3, 0.1]] {
        let r = pinn::navier_stokes(&net, p, nu).unwrap();
        let v = eval(&net, &p);
        let d = |k, c| fd(&net, &p, k, c);
        let (u_t, u_x, u_y) = (d(0, 0).0, d(0, 1).0, d(0, 2).0);
        let (v_t, v_x, v_y) = (d(1, 0).0, d(1, 1).0, d(1, 2).0);
        let (p_x, p_y) = (d(2, 1).0, d(2, 2).0);
        let (u_xx, u_yy, v_xx, v_yy) = (d(0, 1).1, d(0, 2).1, d(1, 1).1, d(1, 2).1);
        let want = NavierStokes {
            continuity: u_x + v_y,
            momentum_x: u_t + v[0] * u_x + v[1] * u_y + p_x - nu * (u_xx + u_yy),
            momentum_y: v_t + v[0] * v_x + v[1] * v_y + p_y - nu * (v_xx + v_yy),
        };
        for (a, b) in [
            (r.continuity, want.continuity),
            (r.momentum_x, want.momentum_x),
            (r.momentum_y, want.momentum_y),
        ] {
            assert!((a - b).abs() <= 1e-6 * (1.0 + b.abs()), "{a} vs FD {b}");
        }
    }
}

#[test]
fn scalar_residuals_match_finite_differences() {
    let net = glorot(&[2, 16, 16, 1], 9);
    let (t, x) = (0.3, -0.4);
    let z = [t, x];
    let u = eval(&net, &z)[0];
    let (u_t, _) = fd(&net, &z, 0, 0);
    let (u_x, u_xx) = fd(&net, &z, 0, 1);
    let b = pinn::burgers(&net, t, x, 0.01).unwrap();
    let want = u_t + u * u_x - 0.01 * u_xx;
    assert!(
        (b - want).abs() <= 1e-6 * (1.0 + want.abs()),
        "{b} vs {want}"
    );
    let a = pinn::allen_cahn(&net, t, x, 1e-4).unwrap();
    let want = u_t - 1e-4 * u_xx + 5.0 * u * u * u - 5.0 * u;
    assert!(
        (a - want).abs() <= 1e-6 * (1.0 + want.abs()),
        "{a} vs {want}"
    );
}

#[test]
fn fourier_features_are_differentiated_too() {
    let mut rng = SplitMix64::new(3);
    let b = (0..8 * 3).map(|_| rng.normal()).collect();
    let features = FourierFeatures {
        inputs: 3,
        frequencies: 8,
        b,
    };
    let net = glorot(&[16, 20, 3], 4).with_features(features);
    let p = [0.1, 0.7, 0.35];
    let r = pinn::navier_stokes(&net, p, 0.0).unwrap();
    let d = |k, c| fd(&net, &p, k, c).0;
    let want = d(0, 1) + d(1, 2);
    assert!((r.continuity - want).abs() <= 1e-6 * (1.0 + want.abs()));
}

#[test]
fn mismatched_networks_are_errors() {
    let net = glorot(&[2, 8, 1], 1);
    assert!(matches!(
        pinn::navier_stokes(&net, [0.0; 3], 0.01),
        Err(lifted::Error::InvalidInput { .. })
    ));
    let mut broken = glorot(&[3, 8, 3], 1);
    broken.layers[1].fan_in = 7;
    let err = pinn::navier_stokes(&broken, [0.0; 3], 0.01).unwrap_err();
    assert!(err.to_string().contains("layer 1"), "{err}");
    let scalar = glorot(&[3, 8, 3], 1);
    assert!(pinn::burgers(&scalar, 0.0, 0.0, 0.01).is_err());
}

#[test]
fn kdv_third_derivative_matches_nested_duals() {
    use lifted::NDual;
    type D3 = NDual<NDual<NDual<f64, 1>, 1>, 1>;
    let net = glorot(&[2, 16, 16, 1], 11);
    let (t, x) = (0.2, 0.6);
    // u and its x-derivatives through three nested duals (a different reading).
    let seed = |v: f64, s: f64| -> D3 {
        let one = |v: f64| NDual::new(NDual::new(v, [s]), [NDual::new(s, [0.0])]);
        NDual::new(
            one(v),
            [NDual::new(NDual::new(s, [0.0]), [NDual::constant(0.0)])],
        )
    };
    let u = pinn::scalar_field::frule::<D3>(&net, seed(t, 0.0), seed(x, 1.0));
    let u_x = u.value().value().partial(0);
    let u_xxx = u.partial(0).partial(0).partial(0);
    let u_t = {
        let ut = pinn::scalar_field::frule::<NDual<f64, 1>>(
            &net,
            NDual::variable(t, 0),
            NDual::constant(x),
        );
        ut.partial(0)
    };
    let value = u.value().value().value();
    let want = u_t + 6.0 * value * u_x + u_xxx;
    let got = pinn::kdv(&net, t, x).unwrap();
    assert!(
        (got - want).abs() <= 1e-12 * (1.0 + want.abs()),
        "{got} vs {want}"
    );
    assert!(pinn::kdv(&glorot(&[3, 4, 1], 1), t, x).is_err());
}

/// A chain of one-unit layers `z ↦ tanh(w z + b)`, ending in the identity: no sums, so
/// its outputs are the activations' own bits.
fn chain(weights: &[(f64, f64)]) -> Network {
    let mut layers: Vec<Dense> = weights
        .iter()
        .map(|&(w, b)| Dense {
            fan_in: 1,
            fan_out: 1,
            weights: vec![w],
            biases: vec![b],
        })
        .collect();
    layers.push(Dense {
        fan_in: 1,
        fan_out: 1,
        weights: vec![1.0],
        biases: vec![0.0],
    });
    Network {
        features: None,
        layers,
    }
}

#[test]
fn the_activation_is_the_vectorised_tanh() {
    let net = chain(&[(1.0, 0.0)]);
    let mut rng = SplitMix64::new(21);
    let mut zs: Vec<f64> = (0..2000).map(|_| rng.uniform(-25.0, 25.0)).collect();
    // (Not −0: adding the bias 0 makes it +0.)
    zs.extend([0.0, 0.625, -0.625, 0.625f64.next_down(), 1e-300, 19.5]);
    for z in zs {
        let got = eval(&net, &[z])[0];
        assert_eq!(got.to_bits(), vmath::tanh(z).to_bits(), "at {z}");
        // libm's tanh differs in the last bits at most.
        assert!((got - z.tanh()).abs() <= 2.0 * f64::EPSILON * z.tanh().abs());
    }
}

#[test]
fn every_reading_has_the_primal_networks_bits() {
    // The rule's value at NDual (the Jacobian pass), at the second-order readings (the
    // Hessian diagonal) and at Taylor readings of several orders is the primal
    // network's, bit for bit: one activation at every reading.
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<u64>>();
    let net = glorot(&[3, 24, 24, 3], 12);
    let mut rng = SplitMix64::new(13);
    for _ in 0..10 {
        let (t, x, y) = (
            rng.uniform(-1.0, 1.0),
            rng.uniform(-1.0, 1.0),
            rng.uniform(-1.0, 1.0),
        );
        let want = bits(&eval(&net, &[t, x, y]));
        let args = (Constant(net.clone()), t, x, y);
        let ((u, v, p), _) = value_and_jacfwd(pinn::fields3::Rule, &args, &[1, 2, 3]).unwrap();
        assert_eq!(bits(&[u, v, p]), want, "value_and_jacfwd");
        let ((u, v, p), _) = hessian_diag(pinn::fields3::Rule, &args).unwrap();
        assert_eq!(bits(&[u, v, p]), want, "hessian_diag");
    }
    let net = glorot(&[2, 16, 16, 1], 14);
    let none = Network {
        features: None,
        layers: Vec::new(),
    };
    for (t, x) in [(0.2, 0.6), (-0.7, 0.1), (0.9, -0.95)] {
        let want = eval(&net, &[t, x])[0].to_bits();
        let args = (Constant(net.clone()), t, x);
        for order in [1, 3, 4, 8] {
            let d = derivatives_1d(
                pinn::scalar_field::Rule,
                &args,
                &(Constant(none.clone()), 0.0, 1.0),
                order,
            )
            .unwrap();
            assert_eq!(d[0].to_bits(), want, "Taylor order {order}");
        }
    }
}
