//! A network whose weights live in nested vectors, differentiated in its weights:
//! `gradient_shaped` gives the gradient as an `Mlp` of the same shape, `gradient` the
//! same numbers flat; both against central finite differences of the primal loss, at
//! chunk widths 1, 2, 3 and 16.

#![allow(clippy::needless_range_loop)]

use lifted::autodiff;

/// A multilayer perceptron: layer `l` maps `biases[l].len()` outputs from the previous
/// layer's, with `weights[l]` its matrix stored row by row (`out × in`).
#[derive(Clone, Debug, PartialEq, lifted::Lift)]
pub struct Mlp {
    /// One matrix per layer, row by row.
    pub weights: Vec<Vec<f64>>,
    /// One vector per layer.
    pub biases: Vec<Vec<f64>>,
}

#[autodiff(forward)]
impl Mlp {
    /// tanh on every layer but the last, which is linear.
    pub fn forward(&self, x: &[f64]) -> Vec<f64> {
        let layers = self.weights.len();
        let mut h = x.to_vec();
        for l in 0..layers {
            let n_in = h.len();
            let n_out = self.biases[l].len();
            let mut next = vec![0.0; n_out];
            for o in 0..n_out {
                let mut z = self.biases[l][o];
                for i in 0..n_in {
                    z += self.weights[l][o * n_in + i] * h[i];
                }
                next[o] = if l + 1 < layers { z.tanh() } else { z };
            }
            h = next;
        }
        h
    }
}

/// Mean squared error of the network over a batch of points (`xs` and `ys` flat, one
/// point after another).
#[autodiff(forward)]
pub fn loss(mlp: &Mlp, #[constant] xs: &[f64], #[constant] ys: &[f64], n_in: usize) -> f64 {
    let points = xs.len() / n_in;
    let n_out = ys.len() / points;
    let mut total = 0.0;
    for p in 0..points {
        let out = mlp.forward(&xs[p * n_in..(p + 1) * n_in]);
        for k in 0..n_out {
            let r = out[k] - ys[p * n_out + k];
            total += r * r;
        }
    }
    total / points as f64
}

fn network() -> Mlp {
    // 2 → 3 → 1, weights spread over both signs.
    let w0: Vec<f64> = (0..6).map(|i| 0.3 * (i as f64 + 1.0).sin()).collect();
    let w1: Vec<f64> = (0..3).map(|i| 0.5 * (i as f64 + 0.5).cos()).collect();
    Mlp {
        weights: vec![w0, w1],
        biases: vec![vec![0.1, -0.2, 0.05], vec![0.3]],
    }
}

const XS: [f64; 6] = [0.5, -1.0, 0.2, 0.7, -0.4, 0.9];
const YS: [f64; 3] = [0.3, -0.1, 0.6];

fn loss_at(mlp: &Mlp) -> f64 {
    loss(mlp, &XS, &YS, 2)
}

/// The weights, then the biases, flat.
fn parameters(m: &Mlp) -> Vec<f64> {
    m.weights
        .iter()
        .chain(m.biases.iter())
        .flatten()
        .copied()
        .collect()
}

/// `m` with its parameters replaced, in the order of [`parameters`].
fn with_parameters(m: &Mlp, values: &[f64]) -> Mlp {
    let mut out = m.clone();
    let mut it = values.iter();
    for v in out.weights.iter_mut().chain(out.biases.iter_mut()) {
        for x in v.iter_mut() {
            *x = *it.next().expect("one value per parameter");
        }
    }
    out
}

/// Every weight and bias perturbed by ±h in turn: the central difference, in the
/// network's own shape.
fn finite_differences(mlp: &Mlp) -> Mlp {
    let h = 1e-6;
    let p = parameters(mlp);
    let grad: Vec<f64> = (0..p.len())
        .map(|i| {
            let mut q = p.clone();
            q[i] = p[i] + h;
            let up = loss_at(&with_parameters(mlp, &q));
            q[i] = p[i] - h;
            let down = loss_at(&with_parameters(mlp, &q));
            (up - down) / (2.0 * h)
        })
        .collect();
    with_parameters(mlp, &grad)
}

fn assert_close(got: &Mlp, want: &Mlp, what: &str) {
    let (g, w) = (parameters(got), parameters(want));
    assert_eq!(g.len(), w.len(), "{what}: shapes differ");
    assert_eq!(got.weights.len(), want.weights.len(), "{what}: layer count");
    for (l, (a, b)) in got.weights.iter().zip(&want.weights).enumerate() {
        assert_eq!(a.len(), b.len(), "{what}: layer {l} weight count");
    }
    for (i, (a, b)) in g.iter().zip(&w).enumerate() {
        assert!(
            (a - b).abs() <= 1e-7 * (1.0 + b.abs()),
            "{what}: parameter {i}: {a} vs finite differences {b}"
        );
    }
}

#[test]
fn the_gradient_in_the_weights_has_the_networks_shape() {
    let mlp = network();
    let want = finite_differences(&mlp);
    assert!(
        want.weights.iter().flatten().all(|g| *g != 0.0),
        "every weight moves the loss"
    );
    let args = (mlp.clone(), XS.to_vec(), YS.to_vec(), 2usize);
    let (value, (grad, xs, ys, n)) = lifted::gradient_shaped(loss::Rule, args).expect("gradient");
    assert_eq!(value, loss_at(&mlp));
    assert_close(&grad, &want, "gradient_shaped");
    // Constants and integers come back as they went in.
    assert_eq!((xs.0.as_slice(), ys.0.as_slice(), n), (&XS[..], &YS[..], 2));
}

#[test]
fn shaped_and_flat_gradients_agree_at_every_width() {
    let mlp = network();
    let args = (
        mlp.clone(),
        lifted::Constant(XS.to_vec()),
        lifted::Constant(YS.to_vec()),
        2usize,
    );
    let (_, (shaped, ..)) = lifted::gradient_shaped(loss::Rule, &args).expect("gradient");
    let shaped_flat = parameters(&shaped);
    for chunk in [1, 2, 3, 16] {
        let (_, flat) = lifted::gradient_with_chunk(loss::Rule, &args, chunk).expect("gradient");
        assert_eq!(flat, shaped_flat, "chunk {chunk}");
        let (_, (at_width, ..)) = lifted::drivers::Driver::new(loss::Rule)
            .width(chunk)
            .gradient_shaped(&args)
            .expect("gradient");
        assert_eq!(at_width, shaped, "chunk {chunk}");
    }
}

/// `a b₀ + b₁ c²`.
#[autodiff(forward)]
pub fn weighted(a: f64, b: &[f64], c: f64) -> f64 {
    a * b[0] + b[1] * c * c
}

#[test]
fn arguments_left_out_by_wrt_come_back_zero() {
    let args = (2.0, vec![3.0, 5.0], 7.0);
    let (value, (da, db, dc)) = lifted::drivers::Driver::new(weighted::Rule)
        .wrt(&[2, 0])
        .gradient_shaped(&args)
        .expect("gradient");
    assert_eq!(value, 2.0 * 3.0 + 5.0 * 49.0);
    assert_eq!(da, 3.0);
    assert_eq!(db, [0.0, 0.0]);
    assert_eq!(dc, 2.0 * 5.0 * 7.0);
}
