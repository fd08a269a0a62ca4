//! Machine learning: losses, activations, small networks over flat weight vectors.

use lifted::autodiff;

/// Hidden width of the small networks.
const HIDDEN: usize = 3;

/// The mean squared error.
#[autodiff(forward)]
pub fn mse(pred: &[f64], target: &[f64]) -> f64 {
    let n = pred.len() as f64;
    pred.iter()
        .zip(target)
        .map(|(p, t)| (p - t).powi(2))
        .sum::<f64>()
        / n
}

/// The mean absolute error.
#[autodiff(forward)]
pub fn mae(pred: &[f64], target: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..pred.len() {
        s += (pred[i] - target[i]).abs();
    }
    s / pred.len() as f64
}

/// The Huber loss, quadratic near zero and linear beyond `delta`.
#[autodiff(forward)]
pub fn huber(pred: &[f64], target: &[f64], delta: f64) -> f64 {
    let mut total = 0.0;
    for (p, t) in pred.iter().zip(target.iter()) {
        let r = (p - t).abs();
        total += if r <= delta {
            0.5 * r * r
        } else {
            delta * (r - 0.5 * delta)
        };
    }
    total
}

/// The log-cosh loss.
#[autodiff(forward)]
pub fn log_cosh(pred: &[f64], target: &[f64]) -> f64 {
    pred.iter()
        .zip(target)
        .map(|(p, t)| (p - t).cosh().ln())
        .sum()
}

/// The cross-entropy of logits against a class index.
#[autodiff(forward)]
pub fn cross_entropy(logits: &[f64], class: usize) -> f64 {
    let m = logits.iter().fold(f64::NEG_INFINITY, |a, &b| a.max(b));
    let lse = m + logits.iter().map(|&z| (z - m).exp()).sum::<f64>().ln();
    lse - logits[class]
}

/// The cross-entropy of probabilities against a one-hot (or soft) target.
#[autodiff(forward)]
pub fn soft_cross_entropy(probs: &[f64], target: &[f64]) -> f64 {
    -probs
        .iter()
        .zip(target)
        .map(|(&p, &t)| t * p.max(f64::EPSILON).ln())
        .sum::<f64>()
}

/// The binary cross-entropy of one prediction, clamped away from 0 and 1.
#[autodiff(forward)]
pub fn binary_cross_entropy(p: f64, y: f64) -> f64 {
    let p = p.clamp(1e-12, 1.0 - 1e-12);
    -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
}

/// The hinge loss of a linear classifier over a batch.
#[autodiff(forward)]
pub fn hinge_loss(w: &[f64], x: &[f64], y: &[f64]) -> f64 {
    let d = w.len();
    let mut loss = 0.0;
    for i in 0..y.len() {
        let mut score = 0.0;
        for j in 0..d {
            score += w[j] * x[i * d + j];
        }
        loss += (1.0 - y[i] * score).max(0.0);
    }
    loss / y.len() as f64
}

/// The squared hinge loss with an L2 penalty.
#[autodiff(forward)]
pub fn squared_hinge_l2(w: &[f64], x: &[f64], y: &[f64], lambda: f64) -> f64 {
    let d = w.len();
    let mut loss = 0.0;
    for (i, &yi) in y.iter().enumerate() {
        let s: f64 = (0..d).map(|j| w[j] * x[i * d + j]).sum();
        let m = (1.0 - yi * s).max(0.0);
        loss += m * m;
    }
    loss + lambda * w.iter().map(|v| v * v).sum::<f64>()
}

/// The logistic function.
#[autodiff(forward)]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Softplus, ln(1 + eˣ), stable for large x.
#[autodiff(forward)]
pub fn softplus(x: f64) -> f64 {
    if x > 20.0 { x } else { x.exp().ln_1p() }
}

/// GELU, tanh approximation.
#[autodiff(forward)]
pub fn gelu(x: f64) -> f64 {
    let c = (2.0 / std::f64::consts::PI).sqrt();
    0.5 * x * (1.0 + (c * (x + 0.044715 * x.powi(3))).tanh())
}

/// Swish, x·σ(βx), calling [`sigmoid`].
#[autodiff(forward)]
pub fn swish(x: f64, beta: f64) -> f64 {
    x * sigmoid(beta * x)
}

/// A two-layer perceptron with tanh hidden units, weights in one flat vector:
/// W₁ (HIDDEN × d), b₁, w₂, b₂.
#[autodiff(forward)]
pub fn mlp_forward(params: &[f64], x: &[f64]) -> f64 {
    let d = x.len();
    let mut offset = 0;
    let mut hidden = vec![0.0; HIDDEN];
    for h in 0..HIDDEN {
        let mut z = 0.0;
        for j in 0..d {
            z += params[offset + h * d + j] * x[j];
        }
        hidden[h] = z;
    }
    offset += HIDDEN * d;
    for h in 0..HIDDEN {
        hidden[h] = (hidden[h] + params[offset + h]).tanh();
    }
    offset += HIDDEN;
    let mut out = params[offset + HIDDEN];
    for h in 0..HIDDEN {
        out += params[offset + h] * hidden[h];
    }
    out
}

/// A ReLU network's mean squared error over a batch, weights in a `Vec`.
#[autodiff(forward)]
pub fn mlp_relu_loss(weights: Vec<f64>, inputs: &[f64], targets: &[f64]) -> f64 {
    let mut loss = 0.0;
    for (k, &t) in targets.iter().enumerate() {
        let x = inputs[k];
        let mut y = weights[2 * HIDDEN + HIDDEN];
        for h in 0..HIDDEN {
            let a = (weights[h] * x + weights[HIDDEN + h]).max(0.0);
            y += weights[2 * HIDDEN + h] * a;
        }
        loss += (y - t).powi(2);
    }
    loss / targets.len() as f64
}

/// Layer normalisation without affine parameters.
#[autodiff(forward)]
pub fn layer_norm(x: &[f64]) -> Vec<f64> {
    let n = x.len() as f64;
    let mu = x.iter().sum::<f64>() / n;
    let var = x.iter().map(|v| (v - mu) * (v - mu)).sum::<f64>() / n;
    let inv = 1.0 / (var + 1e-5).sqrt();
    x.iter().map(|v| (v - mu) * inv).collect()
}

/// The cosine similarity of two vectors.
#[autodiff(forward)]
pub fn cosine_similarity(a: &[f64], b: &[f64]) -> f64 {
    let dot: f64 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    let na = a.iter().map(|x| x * x).sum::<f64>().sqrt();
    let nb = b.iter().map(|x| x * x).sum::<f64>().sqrt();
    dot / (na * nb)
}

/// The KL divergence of two discrete distributions.
#[autodiff(forward)]
pub fn kl_divergence(p: &[f64], q: &[f64]) -> f64 {
    let mut kl = 0.0;
    for i in 0..p.len() {
        kl += p[i] * (p[i] / q[i]).ln();
    }
    kl
}

/// The focal loss of one binary prediction.
#[autodiff(forward)]
pub fn focal_loss(p: f64, y: f64, gamma: f64) -> f64 {
    let pt = if y > 0.5 { p } else { 1.0 - p };
    -(1.0 - pt).powf(gamma) * pt.ln()
}

/// Ridge regression's objective.
#[autodiff(forward)]
pub fn ridge_loss(w: &[f64], x: &[f64], y: &[f64], alpha: f64) -> f64 {
    let d = w.len();
    let mut sse = 0.0;
    for i in 0..y.len() {
        let row = &x[i * d..(i + 1) * d];
        let pred: f64 = row.iter().zip(w).map(|(a, b)| a * b).sum();
        sse += (pred - y[i]).powi(2);
    }
    sse + alpha * w.iter().map(|v| v * v).sum::<f64>()
}

/// A valid 1-D convolution.
#[autodiff(forward)]
pub fn conv1d(signal: &[f64], kernel: &[f64]) -> Vec<f64> {
    let k = kernel.len();
    let mut out = Vec::new();
    for i in 0..signal.len() - k + 1 {
        let mut acc = 0.0;
        for j in 0..k {
            acc += signal[i + j] * kernel[j];
        }
        out.push(acc);
    }
    out
}

/// An Elman RNN of one hidden unit over a sequence, the final state.
#[autodiff(forward)]
pub fn rnn_final_state(w: f64, u: f64, b: f64, xs: &[f64]) -> f64 {
    let mut h = 0.0;
    for &x in xs {
        h = (w * h + u * x + b).tanh();
    }
    h
}

/// One SGD step with momentum, in place.
#[autodiff(forward)]
pub fn sgd_momentum_step(w: &mut [f64], velocity: &mut [f64], grad: &[f64], lr: f64) {
    for i in 0..w.len() {
        velocity[i] = 0.9 * velocity[i] - lr * grad[i];
        w[i] += velocity[i];
    }
}

/// The triplet margin loss.
#[autodiff(forward)]
pub fn triplet_loss(anchor: &[f64], positive: &[f64], negative: &[f64], margin: f64) -> f64 {
    let dp: f64 = anchor
        .iter()
        .zip(positive)
        .map(|(a, p)| (a - p).powi(2))
        .sum();
    let dn: f64 = anchor
        .iter()
        .zip(negative)
        .map(|(a, n)| (a - n).powi(2))
        .sum();
    (dp.sqrt() - dn.sqrt() + margin).max(0.0)
}

crate::cases! {
    mse(&[0.3, 1.2, -0.4, 2.2], &[0.5, 1.0, 0.1, 1.8]),
    mae(&[0.3, 1.2, -0.4, 2.2], &[0.5, 1.0, 0.1, 1.8]),
    huber(&[0.3, 1.2, -0.4, 2.9], &[0.5, 1.0, 0.1, 1.3], 1.0),
    log_cosh(&[0.3, 1.2, -0.4, 2.2], &[0.5, 1.0, 0.1, 1.8]),
    cross_entropy(&[0.3, 1.2, -0.4, 2.2], 1),
    soft_cross_entropy(&[0.2, 0.5, 0.3], &[0.1, 0.7, 0.2]),
    binary_cross_entropy(0.73, 1.0),
    hinge_loss(&[0.4, -0.3], &[0.5, 1.2, -0.3, 0.8, 1.5, -1.1, 0.2, 0.4], &[1.0, -1.0, 1.0, -1.0]),
    squared_hinge_l2(
        &[0.4, -0.3],
        &[0.5, 1.2, -0.3, 0.8, 1.5, -1.1, 0.2, 0.4],
        &[1.0, -1.0, 1.0, -1.0],
        0.1,
    ),
    sigmoid(0.37),
    softplus(1.3),
    gelu(0.8),
    swish(0.8, 1.4),
    mlp_forward(
        &[0.1, -0.2, 0.3, 0.4, -0.5, 0.6, 0.05, -0.1, 0.2, 0.7, -0.8, 0.9, 0.15],
        &[0.5, -1.2],
    ),
    mlp_relu_loss(
        vec![0.8, -0.6, 1.1, 0.1, 0.5, -0.3, 0.7, -0.9, 0.4, 0.2],
        &[0.3, -0.8, 1.2, 0.5],
        &[0.5, 0.1, 1.0, 0.4],
    ),
    layer_norm(&[0.3, 1.2, -0.4, 2.2]),
    cosine_similarity(&[0.3, 1.2, -0.4], &[0.5, 1.0, 0.1]),
    kl_divergence(&[0.2, 0.5, 0.3], &[0.3, 0.4, 0.3]),
    focal_loss(0.7, 1.0, 2.0),
    ridge_loss(&[0.4, -0.3], &[0.5, 1.2, -0.3, 0.8, 1.5, -1.1], &[0.2, -0.4, 1.1], 0.05),
    conv1d(&[0.3, 1.2, -0.4, 2.2, 0.9], &[0.25, 0.5, -0.25]),
    rnn_final_state(0.6, -0.4, 0.1, &[0.5, -1.0, 0.3, 0.8]),
    sgd_momentum_step(&[0.3, -0.2, 0.5], &[0.01, 0.02, -0.01], &[0.4, -0.1, 0.2], 0.1),
    triplet_loss(&[0.3, 1.2], &[0.5, 1.0], &[0.1, 0.2], 0.8),
}
