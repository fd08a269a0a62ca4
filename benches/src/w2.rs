//! W2: the Rosenbrock function, its input and its hand-written analytic gradient (the
//! limit every automatic gradient is measured against).

use crate::SplitMix64;

/// Seed of the generator that draws the input.
pub const SEED: u64 = 3;
/// The input sizes of the benchmark.
pub const SIZES: [usize; 3] = [16, 256, 4096];

/// The first `n` draws of `x_i = 2·uniform() − 1`, seed [`SEED`].
pub fn input(n: usize) -> Vec<f64> {
    let mut rng = SplitMix64::new(SEED);
    (0..n).map(|_| 2.0 * rng.uniform() - 1.0).collect()
}

/// `f(x) = Σ_{i=0}^{n−2} (1 − x_i)² + 100 (x_{i+1} − x_i²)²` (zero for `n < 2`).
pub fn rosenbrock(x: &[f64]) -> f64 {
    x.windows(2)
        .map(|w| (1.0 - w[0]).powi(2) + 100.0 * (w[1] - w[0] * w[0]).powi(2))
        .sum()
}

/// The value and the analytic gradient of [`rosenbrock`], written into `grad`.
///
/// Panics when `grad.len() != x.len()`.
#[track_caller]
pub fn rosenbrock_gradient(x: &[f64], grad: &mut [f64]) -> f64 {
    assert_eq!(
        x.len(),
        grad.len(),
        "gradient length must equal input length"
    );
    grad.fill(0.0);
    let mut value = 0.0;
    for i in 0..x.len().saturating_sub(1) {
        let a = 1.0 - x[i];
        let b = x[i + 1] - x[i] * x[i];
        value += a * a + 100.0 * b * b;
        grad[i] += -2.0 * a - 400.0 * x[i] * b;
        grad[i + 1] += 200.0 * b;
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_is_the_seeded_uniform_draws() {
        let x = input(4096);
        assert!(x.iter().all(|v| (-1.0..1.0).contains(v)));
        // A shorter input is a prefix of a longer one.
        assert_eq!(input(16), x[..16]);
        let mut rng = SplitMix64::new(SEED);
        assert_eq!(x[0], 2.0 * rng.uniform() - 1.0);
    }

    #[test]
    fn known_values() {
        assert_eq!(rosenbrock(&[1.0; 10]), 0.0);
        assert_eq!(rosenbrock(&[0.0, 0.0]), 1.0);
        let mut g = [0.0; 10];
        assert_eq!(rosenbrock_gradient(&[1.0; 10], &mut g), 0.0);
        assert_eq!(g, [0.0; 10]);
    }

    #[test]
    fn gradient_matches_central_differences() {
        for n in SIZES {
            let x = input(n);
            let mut g = vec![0.0; n];
            let value = rosenbrock_gradient(&x, &mut g);
            let primal = rosenbrock(&x);
            assert!((value - primal).abs() <= 1e-12 * primal.abs());
            // Only the terms i − 1 and i involve x_i, so differencing the window
            // x[i−1..=i+1] is differencing f, without the cancellation error of a
            // large total.
            for i in 0..n {
                let (lo, hi) = (i.saturating_sub(1), (i + 2).min(n));
                let mut w = x[lo..hi].to_vec();
                let h = 1e-6;
                w[i - lo] = x[i] + h;
                let up = rosenbrock(&w);
                w[i - lo] = x[i] - h;
                let down = rosenbrock(&w);
                let fd = (up - down) / (2.0 * h);
                let err = (fd - g[i]).abs() / g[i].abs().max(1.0);
                assert!(err < 1e-7, "n = {n}, i = {i}: {fd} vs {} ({err:e})", g[i]);
            }
        }
    }
}
