//! Idioms of ordinary numerical Rust under `#[autodiff]`: float functions as values
//! (`fold(f64::NEG_INFINITY, f64::max)`, `map(f64::sin)`), sub-slices iterated and
//! zipped (`for &v in &x[1..]`, `x.iter().zip(&x[1..])`), products of named constants
//! on the left of lifted values. Each rule is checked by `check_rule` (finite
//! differences, the primal reading bit for bit, lane independence) and against a
//! closed form where one is short.

// The functions are written as people write them, index loops and all.
#![allow(clippy::needless_range_loop, clippy::manual_is_multiple_of)]

use lifted::autodiff;

#[path = "support/check.rs"]
mod check;

const H_PLANCK: f64 = 6.626_070_15e-34;
const K_B: f64 = 1.380_649e-23;
const C_LIGHT: f64 = 2.997_924_58e8;

/// ln Σ exp(xᵢ), shifted by the maximum.
#[autodiff(forward)]
fn log_sum_exp(x: &[f64]) -> f64 {
    let m = x.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    m + x.iter().map(|v| (v - m).exp()).sum::<f64>().ln()
}

/// softmax(x)ᵢ = exp(xᵢ − m) / Σ exp(xⱼ − m).
#[autodiff(forward)]
fn softmax(x: &[f64]) -> Vec<f64> {
    let m = x.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let e: Vec<f64> = x.iter().map(|&v| (v - m).exp()).collect();
    let s: f64 = e.iter().sum();
    e.iter().map(|v| v / s).collect()
}

/// Σ sin xᵢ through a float function as a value.
#[autodiff(forward)]
fn sum_of_sines(x: &[f64]) -> f64 {
    x.iter().copied().map(f64::sin).sum()
}

/// The smallest element through `f64::min`, by `reduce`.
#[autodiff(forward)]
fn smallest(x: &[f64]) -> f64 {
    x.iter().copied().reduce(f64::min).unwrap_or(0.0)
}

/// An exponential moving average over the tail of a slice.
#[autodiff(forward)]
fn exponential_moving_average(x: &[f64], alpha: f64) -> f64 {
    let mut ema = x[0];
    for &v in &x[1..] {
        ema = alpha * v + (1.0 - alpha) * ema;
    }
    ema
}

/// Rosenbrock's valley over neighbouring pairs.
#[autodiff(forward)]
fn rosenbrock_zip(x: &[f64]) -> f64 {
    x.iter()
        .zip(&x[1..])
        .map(|(&a, &b)| 100.0 * (b - a * a).powi(2) + (1.0 - a).powi(2))
        .sum()
}

/// Planck's law in W · sr⁻¹ · m⁻² · nm⁻¹ (scaled): products of named constants.
#[autodiff(forward)]
fn planck(wavelength_nm: f64, temperature: f64) -> f64 {
    let lambda = wavelength_nm * 1e-9;
    let a = 2.0 * H_PLANCK * C_LIGHT * C_LIGHT / lambda.powi(5);
    let b = H_PLANCK * C_LIGHT / (lambda * K_B * temperature);
    a / (b.exp() - 1.0) * 1e-12
}

#[test]
fn float_functions_as_values() {
    let x = vec![0.3, -1.2, 2.5, 0.7];
    check::check(log_sum_exp::Rule, (x.clone(),));
    check::check(softmax::Rule, (x.clone(),));
    check::check(sum_of_sines::Rule, (x.clone(),));
    check::check(smallest::Rule, (x.clone(),));
    // ∂ lse / ∂xᵢ = softmax(x)ᵢ.
    let (_, g) = lifted::gradient(log_sum_exp::Rule, &x).unwrap();
    let p = softmax(&x);
    for (gi, pi) in g.iter().zip(&p) {
        assert!((gi - pi).abs() < 1e-15);
    }
    let (_, g) = lifted::gradient(sum_of_sines::Rule, &x).unwrap();
    for (gi, xi) in g.iter().zip(&x) {
        assert_eq!(*gi, xi.cos());
    }
    let (v, g) = lifted::gradient(smallest::Rule, &x).unwrap();
    assert_eq!(v, -1.2);
    assert_eq!(g, vec![0.0, 1.0, 0.0, 0.0]);
}

#[test]
fn sub_slices_iterated_and_zipped() {
    let x = vec![0.5, 1.5, -0.25, 2.0, 1.0];
    check::check(exponential_moving_average::Rule, (x.clone(), 0.3));
    check::check(rosenbrock_zip::Rule, (x.clone(),));
    // EMA is linear in x: ∂/∂x₀ = (1 − α)ⁿ⁻¹, ∂/∂xₖ = α (1 − α)ⁿ⁻¹⁻ᵏ.
    let a = 0.3;
    let (_, g) = lifted::gradient(exponential_moving_average::Rule, (x.clone(), a)).unwrap();
    let n = x.len();
    assert!((g[0] - (1.0f64 - a).powi(n as i32 - 1)).abs() < 1e-15);
    for k in 1..n {
        assert!((g[k] - a * (1.0f64 - a).powi((n - 1 - k) as i32)).abs() < 1e-15);
    }
}

#[test]
fn named_constant_products() {
    check::check(planck::Rule, (500.0, 5800.0));
    // ∂B/∂T = B · (b eᵇ / (eᵇ − 1)) / T.
    let (lambda, t) = (500.0e-9, 5800.0);
    let b = H_PLANCK * C_LIGHT / (lambda * K_B * t);
    let (v, g) = lifted::gradient(planck::Rule, (500.0, t)).unwrap();
    let want = v * b * b.exp() / (b.exp() - 1.0) / t;
    assert!((g[1] - want).abs() <= 1e-12 * want.abs());
}

/// The median of a copy sorted with `partial_cmp`.
#[autodiff(forward)]
fn median(x: &[f64]) -> f64 {
    let mut v = x.to_vec();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let n = v.len();
    if n % 2 == 0 {
        0.5 * (v[n / 2 - 1] + v[n / 2])
    } else {
        v[n / 2]
    }
}

/// A linearly interpolated quantile, sorted with `total_cmp`, unstably.
#[autodiff(forward)]
fn quantile(x: &[f64], q: f64) -> f64 {
    let mut sorted = x.to_vec();
    sorted.sort_unstable_by(|a, b| a.total_cmp(b));
    let pos = q * (sorted.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = (lo + 1).min(sorted.len() - 1);
    let frac = pos - lo as f64;
    sorted[lo] * (1.0 - frac) + sorted[hi] * frac
}

/// Σ over pairs `(x₂ₖ, x₂ₖ₊₁)` of their product; an odd last element left out.
#[autodiff(forward)]
fn pair_products(x: &[f64]) -> f64 {
    x.chunks_exact(2).map(|c| c[0] * c[1]).sum()
}

/// `x.get(i)` with a default past the end.
#[autodiff(forward)]
fn element_or_zero(x: &[f64], i: usize) -> f64 {
    x.get(i).copied().unwrap_or(0.0) + x.first().copied().unwrap_or(0.0)
}

#[test]
fn sorting_and_chunks() {
    let x = vec![0.5, -1.5, 2.25, 0.75, 1.0];
    check::check(median::Rule, (x.clone(),));
    check::check(quantile::Rule, (x.clone(), 0.3));
    check::check(pair_products::Rule, (x.clone(),));
    check::check(element_or_zero::Rule, (x.clone(), 2));
    check::check(element_or_zero::Rule, (x.clone(), 7));
    // The median of the five is x₃ = 0.75: its gradient is e₃.
    let (m, g) = lifted::gradient(median::Rule, &x).unwrap();
    assert_eq!(m, 0.75);
    assert_eq!(g, vec![0.0, 0.0, 0.0, 1.0, 0.0]);
    // Sorted: −1.5, 0.5, 0.75, 1, 2.25; q = 0.3 → 1.2 between 0.5 (x₀) and 0.75 (x₃).
    let (_, g) = lifted::gradient(quantile::Rule, (x.clone(), 0.3)).unwrap();
    assert!((g[0] - 0.8).abs() < 1e-15 && (g[3] - 0.2).abs() < 1e-15);
    assert_eq!(g[1] + g[2] + g[4], 0.0);
    let (_, g) = lifted::gradient(pair_products::Rule, &x).unwrap();
    assert_eq!(g, vec![-1.5, 0.5, 0.75, 2.25, 0.0]);
    let (_, g) = lifted::gradient(element_or_zero::Rule, (x.clone(), 7)).unwrap();
    assert_eq!(g, vec![1.0, 0.0, 0.0, 0.0, 0.0]);
}

/// `&f64` parameters in arithmetic without `*`, as rustc's reference operators allow.
#[autodiff(forward)]
fn scaled_by_ref(x: &f64, k: &f64) -> f64 {
    x * k + 2.0 * x - *k / x
}

/// `&f32` and explicit lifetimes.
#[autodiff(forward)]
fn product_with_lifetimes<'a>(x: &'a f32, y: &'a f32) -> f32 {
    *x * *y + x * y
}

/// The largest element through `max_by` and a dereference of the found item.
#[autodiff(forward)]
fn largest(x: &[f64]) -> f64 {
    *x.iter().max_by(|a, b| a.partial_cmp(b).unwrap()).unwrap() + *x.first().unwrap()
}

#[test]
fn references_to_floats() {
    check::check(scaled_by_ref::Rule, (1.5, 0.5));
    let (_, g) = lifted::gradient(scaled_by_ref::Rule, (1.5, 0.5)).unwrap();
    assert!((g[0] - (0.5 + 2.0 + 0.5 / (1.5 * 1.5))).abs() < 1e-15);
    assert!((g[1] - (1.5 - 1.0 / 1.5)).abs() < 1e-15);
    check::check(product_with_lifetimes::Rule, (1.25f32, -2.0f32));
    let (_, g) = lifted::gradient(product_with_lifetimes::Rule, (1.25f32, -2.0f32)).unwrap();
    assert_eq!(g, vec![-4.0, 2.5]);
    let x = vec![0.5, 3.0, -1.0];
    check::check(largest::Rule, (x.clone(),));
    let (v, g) = lifted::gradient(largest::Rule, &x).unwrap();
    assert_eq!(v, 3.5);
    assert_eq!(g, vec![1.0, 1.0, 0.0]);
}
