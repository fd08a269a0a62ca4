//! Everyday idioms: `f32` code, reference parameters, `match` on comparisons,
//! `Option` results, folds with tuple accumulators, complex numbers in a struct.

use lifted::autodiff;
use std::cmp::Ordering;
use std::f32::consts::PI as PI_F32;
use std::f64::consts::PI;

/// Gamma correction of a colour channel.
#[autodiff(forward)]
pub fn gamma_correct(c: f32, gamma: f32) -> f32 {
    c.max(0.0).powf(1.0 / gamma)
}

/// sRGB to linear, piecewise.
#[autodiff(forward)]
pub fn srgb_to_linear(c: f32) -> f32 {
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// The length of a 3-vector in single precision.
#[autodiff(forward)]
pub fn length_f32(v: [f32; 3]) -> f32 {
    (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt()
}

/// A one-pole low-pass filter over samples.
#[autodiff(forward)]
pub fn one_pole_lowpass(samples: &[f32], cutoff: f32, sample_rate: f32) -> Vec<f32> {
    let rc = 1.0 / (2.0 * PI_F32 * cutoff);
    let dt = 1.0 / sample_rate;
    let alpha = dt / (rc + dt);
    let mut out = Vec::with_capacity(samples.len());
    let mut y = 0.0;
    for &x in samples {
        y += alpha * (x - y);
        out.push(y);
    }
    out
}

/// A gain in decibels applied to an amplitude.
#[autodiff(forward)]
pub fn apply_gain_db(amplitude: f32, gain_db: f32) -> f32 {
    amplitude * 10f32.powf(gain_db / 20.0)
}

/// The soft-sign function.
#[autodiff(forward)]
pub fn softsign_f32(x: f32) -> f32 {
    x / (1.0 + x.abs())
}

/// A norm through dereferenced parameters.
#[autodiff(forward)]
pub fn norm_of_refs(x: &f64, y: &f64) -> f64 {
    (*x * *x + *y * *y).sqrt()
}

/// A piecewise function by `match` with guards.
#[autodiff(forward)]
pub fn piecewise_match(x: f64) -> f64 {
    match x {
        v if v < 0.0 => v * v,
        v if v < 1.0 => v.sin(),
        v => 1f64.sin() + (v - 1.0).exp() - 1.0,
    }
}

/// The larger of two smooth functions with `f64::max`.
#[autodiff(forward)]
pub fn max_of_two(x: f64, y: f64) -> f64 {
    f64::max(x.sin() * y, x * y.cos())
}

/// A logarithm that is `None` off its domain.
#[autodiff(forward)]
pub fn checked_log(x: f64, base: f64) -> Option<f64> {
    if x <= 0.0 || base <= 0.0 {
        None
    } else {
        Some(x.ln() / base.ln())
    }
}

/// The mean and variance in one pass, a fold over a tuple accumulator.
#[autodiff(forward)]
pub fn mean_var_fold(x: &[f64]) -> (f64, f64) {
    let n = x.len() as f64;
    let (s, s2) = x.iter().fold((0.0, 0.0), |(s, s2), &v| (s + v, s2 + v * v));
    let mean = s / n;
    (mean, s2 / n - mean * mean)
}

/// The alternating sum of every other entry, `step_by` and `rev`.
#[autodiff(forward)]
pub fn stride_sums(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in (0..x.len()).step_by(2) {
        s += x[i];
    }
    for i in (0..x.len()).rev() {
        s -= 0.5 * x[i] * i as f64;
    }
    s
}

/// The product of the entries.
#[autodiff(forward)]
pub fn product(x: &[f64]) -> f64 {
    x.iter().product::<f64>()
}

/// The sum of the first `n` squares, `take` and `skip`.
#[autodiff(forward)]
pub fn take_skip(x: &[f64], n: usize) -> f64 {
    x.iter().skip(1).take(n).map(|v| v * v).sum()
}

/// A complex number.
#[derive(Clone, Copy, Debug, lifted::Lift)]
pub struct Complex {
    pub re: f64,
    pub im: f64,
}

#[autodiff(forward)]
impl Complex {
    /// The product of two complex numbers.
    pub fn mul(self, other: Complex) -> Complex {
        Complex {
            re: self.re * other.re - self.im * other.im,
            im: self.re * other.im + self.im * other.re,
        }
    }

    /// The sum of two complex numbers.
    pub fn add(self, other: Complex) -> Complex {
        Complex {
            re: self.re + other.re,
            im: self.im + other.im,
        }
    }

    /// The modulus.
    pub fn abs(&self) -> f64 {
        self.re.hypot(self.im)
    }
}

/// |a + b| through the struct's methods.
#[autodiff(forward)]
pub fn complex_sum_modulus(a: Complex, b: Complex) -> f64 {
    a.add(b).abs()
}

/// |a b| through the struct's methods.
#[autodiff(forward)]
pub fn complex_product_modulus(a: Complex, b: Complex) -> f64 {
    a.mul(b).abs()
}

/// A clamped linear ramp with `min` and `max`.
#[autodiff(forward)]
pub fn clamp_ramp(x: f64, lo: f64, hi: f64) -> f64 {
    x.max(lo).min(hi) * 2.0 + x
}

/// A count of iterations until a value falls below a threshold, then a smooth
/// function of the remainder: `while` with a cap and `break`.
#[autodiff(forward)]
pub fn halve_until_small(x: f64) -> f64 {
    let mut v = x;
    let mut n = 0;
    while n < 100 {
        if v < 1.0 {
            break;
        }
        v /= 2.0;
        n += 1;
    }
    v * v + n as f64
}

/// Horner's rule with fused multiply-adds.
#[autodiff(forward)]
pub fn horner_mul_add(coeffs: &[f64], x: f64) -> f64 {
    let mut acc = 0.0;
    for &c in coeffs {
        acc = f64::mul_add(acc, x, c);
    }
    acc
}

/// A signed magnitude with `signum` and `copysign`.
#[autodiff(forward)]
pub fn signed_root(x: f64, y: f64) -> f64 {
    x.signum() * x.abs().sqrt() + y.abs().cbrt().copysign(y)
}

/// An angle wrapped into [-π, π) with `rem_euclid`.
#[autodiff(forward)]
pub fn wrap_angle(theta: f64) -> f64 {
    (theta + PI).rem_euclid(2.0 * PI) - PI
}

/// Inverse hyperbolic functions.
#[autodiff(forward)]
pub fn inverse_hyperbolic(x: f64) -> f64 {
    x.asinh() + (1.0 + x * x).acosh() + (x / 3.0).atanh() + x.exp_m1()
}

/// A sum accumulated through a closure that assigns a captured local.
#[autodiff(forward)]
pub fn closure_accumulator(x: &[f64], w: f64) -> f64 {
    let mut acc = 0.0;
    let mut add = |v: f64| acc += w * v * v;
    for &v in x {
        add(v);
    }
    acc
}

/// A vector built by `extend`.
#[autodiff(forward)]
pub fn extend_squares(x: &[f64]) -> Vec<f64> {
    let mut out = Vec::new();
    out.extend(x.iter().map(|v| v * v));
    out.push(x[0]);
    out
}

/// The larger of two values by `partial_cmp`.
#[autodiff(forward)]
pub fn soft_max_pair(a: f64, b: f64) -> f64 {
    match a.partial_cmp(&b) {
        Some(Ordering::Less) => b + (a - b).exp().ln_1p(),
        _ => a + (b - a).exp().ln_1p(),
    }
}

crate::cases! {
    horner_mul_add(&[1.0, -2.0, 0.5, 3.0], 0.7),
    signed_root(-2.3, 1.7),
    wrap_angle(4.1),
    inverse_hyperbolic(0.6),
    closure_accumulator(&[0.3, -1.2, 2.1], 0.7),
    extend_squares(&[0.3, -1.2, 2.1]),
    soft_max_pair(0.4, 1.1),
    gamma_correct(0.45f32, 2.2f32),
    srgb_to_linear(0.5f32),
    length_f32([0.3f32, -1.2, 2.1]),
    one_pole_lowpass(&[0.0f32, 1.0, 0.5, -0.3, 0.8], 200.0f32, 8000.0f32),
    apply_gain_db(0.7f32, -3.5f32),
    softsign_f32(0.8f32),
    norm_of_refs(&1.5, &2.5),
    piecewise_match(1.3),
    max_of_two(0.7, 1.3),
    checked_log(3.5, 2.0),
    mean_var_fold(&[1.2, -0.4, 3.3, 0.8]),
    stride_sums(&[1.2, -0.4, 3.3, 0.8, 2.0]),
    product(&[1.2, -0.4, 3.3, 0.8]),
    take_skip(&[1.2, -0.4, 3.3, 0.8, 2.0], 3),
    complex_sum_modulus(Complex { re: -0.4, im: 0.3 }, Complex { re: 1.2, im: 0.5 }),
    complex_product_modulus(Complex { re: -0.4, im: 0.3 }, Complex { re: 1.2, im: 0.5 }),
    clamp_ramp(0.7, 0.2, 1.5),
    halve_until_small(5.3),
}
