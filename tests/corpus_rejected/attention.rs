use lifted::autodiff;

/// Scaled dot-product attention of one query over keys and values (rows of length
/// `d`, flat).
#[autodiff(forward)]
pub fn attention(q: &[f64], keys: &[f64], values: &[f64]) -> Vec<f64> {
    let d = q.len();
    let n = keys.len() / d;
    let mut scores = vec![0.0; n];
    for i in 0..n {
        let mut s = 0.0;
        for j in 0..d {
            s += q[j] * keys[i * d + j];
        }
        scores[i] = s / (d as f64).sqrt();
    }
    let m = scores.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let mut total = 0.0;
    for s in scores.iter_mut() {
        *s = (*s - m).exp();
        total += *s;
    }
    let mut out = vec![0.0; d];
    for i in 0..n {
        for j in 0..d {
            out[j] += scores[i] / total * values[i * d + j];
        }
    }
    out
}

fn main() {}
