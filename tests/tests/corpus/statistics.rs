//! Statistics: moments, log-likelihoods, correlation, regression.

use lifted::autodiff;
use std::f64::consts::PI;

/// The arithmetic mean.
#[autodiff(forward)]
pub fn mean(x: &[f64]) -> f64 {
    x.iter().sum::<f64>() / x.len() as f64
}

/// The unbiased sample variance, two passes, the mean from [`mean`].
#[autodiff(forward)]
pub fn variance(x: &[f64]) -> f64 {
    let m = mean(x);
    x.iter().map(|&v| (v - m).powi(2)).sum::<f64>() / (x.len() - 1) as f64
}

/// The sample standard deviation.
#[autodiff(forward)]
pub fn std_dev(x: &[f64]) -> f64 {
    variance(x).sqrt()
}

/// Welford's online variance.
#[autodiff(forward)]
pub fn welford_variance(x: &[f64]) -> f64 {
    let mut count = 0.0;
    let mut mean = 0.0;
    let mut m2 = 0.0;
    for &v in x {
        count += 1.0;
        let delta = v - mean;
        mean += delta / count;
        m2 += delta * (v - mean);
    }
    m2 / (count - 1.0)
}

/// The log-likelihood of i.i.d. normal data.
#[autodiff(forward)]
pub fn normal_log_likelihood(data: &[f64], mu: f64, sigma: f64) -> f64 {
    let n = data.len() as f64;
    let ss: f64 = data.iter().map(|&x| (x - mu) * (x - mu)).sum();
    -0.5 * n * (2.0 * PI).ln() - n * sigma.ln() - ss / (2.0 * sigma * sigma)
}

/// The Student-t log-likelihood up to the normalising constant of ν.
#[autodiff(forward)]
pub fn student_t_log_likelihood(data: &[f64], mu: f64, sigma: f64, nu: f64) -> f64 {
    let mut ll = 0.0;
    for &x in data {
        let z = (x - mu) / sigma;
        ll += -(nu + 1.0) / 2.0 * (1.0 + z * z / nu).ln() - sigma.ln();
    }
    ll
}

/// The Poisson log-likelihood of integer counts at a float rate.
#[autodiff(forward)]
pub fn poisson_log_likelihood(counts: &[u32], rate: f64) -> f64 {
    let mut ll = 0.0;
    for &k in counts {
        let log_factorial: f64 = (1..=k).map(|j| (j as f64).ln()).sum();
        ll += k as f64 * rate.ln() - rate - log_factorial;
    }
    ll
}

/// The mean negative log-likelihood of logistic regression, rows of a flat
/// row-major feature matrix.
#[autodiff(forward)]
pub fn logistic_regression_loss(w: &[f64], b: f64, x: &[f64], y: &[f64]) -> f64 {
    let d = w.len();
    let n = y.len();
    let mut loss = 0.0;
    for i in 0..n {
        let mut z = b;
        for j in 0..d {
            z += w[j] * x[i * d + j];
        }
        let p = 1.0 / (1.0 + (-z).exp());
        loss -= y[i] * p.ln() + (1.0 - y[i]) * (1.0 - p).ln();
    }
    loss / n as f64
}

/// The sample covariance of two series.
#[autodiff(forward)]
pub fn covariance(x: &[f64], y: &[f64]) -> f64 {
    let mx = mean(x);
    let my = mean(y);
    let mut s = 0.0;
    for (a, b) in x.iter().zip(y.iter()) {
        s += (a - mx) * (b - my);
    }
    s / (x.len() - 1) as f64
}

/// Pearson's correlation coefficient.
#[autodiff(forward)]
pub fn pearson(x: &[f64], y: &[f64]) -> f64 {
    covariance(x, y) / (std_dev(x) * std_dev(y))
}

/// The sample skewness g₁.
#[autodiff(forward)]
pub fn skewness(x: &[f64]) -> f64 {
    let n = x.len() as f64;
    let m = x.iter().sum::<f64>() / n;
    let m2 = x.iter().map(|v| (v - m).powi(2)).sum::<f64>() / n;
    let m3 = x.iter().map(|v| (v - m).powi(3)).sum::<f64>() / n;
    m3 / m2.powf(1.5)
}

/// The excess kurtosis.
#[autodiff(forward)]
pub fn excess_kurtosis(x: &[f64]) -> f64 {
    let n = x.len() as f64;
    let m = x.iter().sum::<f64>() / n;
    let mut m2 = 0.0;
    let mut m4 = 0.0;
    for &v in x {
        let d = v - m;
        m2 += d * d;
        m4 += d * d * d * d;
    }
    m2 /= n;
    m4 /= n;
    m4 / (m2 * m2) - 3.0
}

/// The weighted mean Σ wᵢxᵢ / Σ wᵢ.
#[autodiff(forward)]
pub fn weighted_mean(x: &[f64], w: &[f64]) -> f64 {
    let num: f64 = x.iter().zip(w).map(|(a, b)| a * b).sum();
    let den: f64 = w.iter().sum();
    num / den
}

/// A Gaussian kernel density estimate at a point.
#[autodiff(forward)]
pub fn gaussian_kde(at: f64, data: &[f64], bandwidth: f64) -> f64 {
    let norm = 1.0 / ((2.0 * PI).sqrt() * bandwidth * data.len() as f64);
    let mut s = 0.0;
    for &d in data {
        let u = (at - d) / bandwidth;
        s += (-0.5 * u * u).exp();
    }
    norm * s
}

/// The geometric mean, through logarithms.
#[autodiff(forward)]
pub fn geometric_mean(x: &[f64]) -> f64 {
    (x.iter().map(|v| v.ln()).sum::<f64>() / x.len() as f64).exp()
}

/// The harmonic mean.
#[autodiff(forward)]
pub fn harmonic_mean(x: &[f64]) -> f64 {
    x.len() as f64 / x.iter().map(|v| 1.0 / v).sum::<f64>()
}

/// Standard scores (xᵢ − x̄)/s.
#[autodiff(forward)]
pub fn z_scores(x: &[f64]) -> Vec<f64> {
    let m = mean(x);
    let s = std_dev(x);
    x.iter().map(|&v| (v - m) / s).collect()
}

/// Ordinary least squares of y on x: (slope, intercept).
#[autodiff(forward)]
pub fn linear_fit(x: &[f64], y: &[f64]) -> (f64, f64) {
    let n = x.len() as f64;
    let sx: f64 = x.iter().sum();
    let sy: f64 = y.iter().sum();
    let sxx: f64 = x.iter().map(|v| v * v).sum();
    let sxy: f64 = x.iter().zip(y).map(|(a, b)| a * b).sum();
    let slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
    let intercept = (sy - slope * sx) / n;
    (slope, intercept)
}

/// The KL divergence between two univariate normals.
#[autodiff(forward)]
pub fn kl_normal(mu1: f64, s1: f64, mu2: f64, s2: f64) -> f64 {
    (s2 / s1).ln() + (s1 * s1 + (mu1 - mu2).powi(2)) / (2.0 * s2 * s2) - 0.5
}

/// The Shannon entropy of a distribution, in nats.
#[autodiff(forward)]
pub fn entropy(p: &[f64]) -> f64 {
    let mut h = 0.0;
    for &pi in p {
        if pi > 0.0 {
            h -= pi * pi.ln();
        }
    }
    h
}

/// The lag-1 autocorrelation.
#[autodiff(forward)]
pub fn autocorrelation_lag1(x: &[f64]) -> f64 {
    let m = mean(x);
    let mut num = 0.0;
    let mut den = 0.0;
    for i in 0..x.len() {
        den += (x[i] - m).powi(2);
        if i > 0 {
            num += (x[i] - m) * (x[i - 1] - m);
        }
    }
    num / den
}

/// The log-density of a log-normal distribution.
#[autodiff(forward)]
pub fn lognormal_logpdf(x: f64, mu: f64, sigma: f64) -> f64 {
    let z = (x.ln() - mu) / sigma;
    -x.ln() - sigma.ln() - 0.5 * (2.0 * PI).ln() - 0.5 * z * z
}

crate::cases! {
    mean(&[1.2, -0.4, 3.3, 0.8]),
    variance(&[1.2, -0.4, 3.3, 0.8, 2.1]),
    std_dev(&[1.2, -0.4, 3.3, 0.8, 2.1]),
    welford_variance(&[1.2, -0.4, 3.3, 0.8, 2.1]),
    normal_log_likelihood(&[1.1, 0.4, 2.3, 1.7, 0.9], 1.2, 0.8),
    student_t_log_likelihood(&[1.1, 0.4, 2.3, 1.7, 0.9], 1.2, 0.8, 4.5),
    poisson_log_likelihood(&[3, 0, 5, 2, 4][..], 2.7),
    logistic_regression_loss(
        &[0.4, -0.3],
        0.1,
        &[0.5, 1.2, -0.3, 0.8, 1.5, -1.1, 0.2, 0.4],
        &[1.0, 0.0, 1.0, 0.0],
    ),
    covariance(&[1.0, 2.2, 2.9, 4.1], &[0.5, 1.9, 2.2, 3.7]),
    pearson(&[1.0, 2.2, 2.9, 4.1], &[0.5, 1.9, 2.2, 3.7]),
    skewness(&[1.2, -0.4, 3.3, 0.8, 2.1]),
    excess_kurtosis(&[1.2, -0.4, 3.3, 0.8, 2.1]),
    weighted_mean(&[1.2, -0.4, 3.3], &[0.5, 1.5, 1.0]),
    gaussian_kde(0.7, &[0.1, 0.9, 1.4, -0.3], 0.5),
    geometric_mean(&[1.5, 2.5, 0.7, 3.1]),
    harmonic_mean(&[1.5, 2.5, 0.7, 3.1]),
    z_scores(&[1.2, -0.4, 3.3, 0.8]),
    linear_fit(&[0.0, 1.0, 2.0, 3.5], &[0.4, 1.1, 2.3, 3.2]),
    kl_normal(0.3, 1.2, -0.4, 0.9),
    entropy(&[0.1, 0.25, 0.4, 0.25]),
    autocorrelation_lag1(&[1.0, 1.4, 0.9, 1.8, 2.2, 1.6]),
    lognormal_logpdf(1.7, 0.2, 0.6),
}
