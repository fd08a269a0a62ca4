//! Quadrature: Newton–Cotes rules, Romberg, adaptive Simpson.

use lifted::autodiff;
use std::f64::consts::PI;

/// ∫ₐᵇ exp(-k x²) dx by the composite trapezoid rule with 64 panels.
#[autodiff(forward)]
pub fn trapezoid_gauss(a: f64, b: f64, k: f64) -> f64 {
    let n = 64;
    let h = (b - a) / n as f64;
    let mut s = 0.5 * ((-k * a * a).exp() + (-k * b * b).exp());
    for i in 1..n {
        let x = a + i as f64 * h;
        s += (-k * x * x).exp();
    }
    s * h
}

/// ∫ₐᵇ sin(ωx)·e^{-x} dx by the composite trapezoid rule, the integrand a closure.
#[autodiff(forward)]
pub fn trapezoid_closure(a: f64, b: f64, omega: f64) -> f64 {
    let f = |x: f64| (omega * x).sin() * (-x).exp();
    let n = 40;
    let h = (b - a) / n as f64;
    let mut sum = (f(a) + f(b)) / 2.0;
    for i in 1..n {
        sum += f(a + h * i as f64);
    }
    sum * h
}

/// The trapezoid rule over unequally spaced samples (x sorted).
#[autodiff(forward)]
pub fn trapezoid_nonuniform(x: &[f64], y: &[f64]) -> f64 {
    let mut area = 0.0;
    for i in 0..x.len() - 1 {
        area += (x[i + 1] - x[i]) * (y[i] + y[i + 1]) / 2.0;
    }
    area
}

/// Composite Simpson's rule over an odd number of equally spaced samples.
#[autodiff(forward)]
pub fn simpson_samples(y: &[f64], h: f64) -> f64 {
    let n = y.len() - 1;
    let mut s = y[0] + y[n];
    for i in 1..n {
        if i % 2 == 1 {
            s += 4.0 * y[i];
        } else {
            s += 2.0 * y[i];
        }
    }
    s * h / 3.0
}

/// ∫₀^π sin(x)^p dx by composite Simpson with 32 intervals.
#[autodiff(forward)]
pub fn simpson_sin_power(p: f64) -> f64 {
    let n = 32;
    let a = 0.0;
    let b = PI;
    let h = (b - a) / n as f64;
    let mut s = 0.0;
    for i in 0..=n {
        let x = a + i as f64 * h;
        let fx = x.sin().max(1e-300).powf(p);
        let w = if i == 0 || i == n {
            1.0
        } else if i % 2 == 1 {
            4.0
        } else {
            2.0
        };
        s += w * fx;
    }
    s * h / 3.0
}

/// The composite midpoint rule for ∫ₐᵇ 1/(1 + c x²) dx.
#[autodiff(forward)]
pub fn midpoint_rule(a: f64, b: f64, c: f64) -> f64 {
    let n = 50;
    let h = (b - a) / n as f64;
    (0..n)
        .map(|i| {
            let x = a + (i as f64 + 0.5) * h;
            1.0 / (1.0 + c * x * x)
        })
        .sum::<f64>()
        * h
}

/// Romberg integration of ∫ₐᵇ √(1 + x³) dx, five levels, the tableau a local 2-D
/// array.
#[autodiff(forward)]
pub fn romberg(a: f64, b: f64) -> f64 {
    let f = |x: f64| (1.0 + x * x * x).sqrt();
    let mut r = [[0.0; 5]; 5];
    let mut h = b - a;
    r[0][0] = 0.5 * h * (f(a) + f(b));
    for i in 1..5 {
        h /= 2.0;
        let mut sum = 0.0;
        let count = 1 << (i - 1);
        for k in 1..=count {
            sum += f(a + (2 * k - 1) as f64 * h);
        }
        r[i][0] = 0.5 * r[i - 1][0] + h * sum;
        for j in 1..=i {
            let factor = 4f64.powi(j as i32);
            r[i][j] = (factor * r[i][j - 1] - r[i - 1][j - 1]) / (factor - 1.0);
        }
    }
    r[4][4]
}

/// One Simpson panel of f(x) = x·cos(x)·k.
#[autodiff(forward)]
pub fn simpson_panel(a: f64, b: f64, k: f64) -> f64 {
    let m = 0.5 * (a + b);
    let fa = k * a * a.cos();
    let fm = k * m * m.cos();
    let fb = k * b * b.cos();
    (b - a) / 6.0 * (fa + 4.0 * fm + fb)
}

/// Adaptive Simpson by recursion with a depth limit.
#[autodiff(forward)]
pub fn adaptive_simpson(a: f64, b: f64, k: f64, tol: f64, depth: u32) -> f64 {
    let m = 0.5 * (a + b);
    let whole = simpson_panel(a, b, k);
    let left = simpson_panel(a, m, k);
    let right = simpson_panel(m, b, k);
    if depth == 0 || (left + right - whole).abs() <= 15.0 * tol {
        left + right + (left + right - whole) / 15.0
    } else {
        adaptive_simpson(a, m, k, tol / 2.0, depth - 1)
            + adaptive_simpson(m, b, k, tol / 2.0, depth - 1)
    }
}

/// The trapezoid rule on a 2-D grid for ∬ exp(-(a x² + b y²)) over [0,1]².
#[autodiff(forward)]
pub fn trapezoid_2d(a: f64, b: f64) -> f64 {
    let n = 16;
    let h = 1.0 / n as f64;
    let mut total = 0.0;
    for i in 0..=n {
        for j in 0..=n {
            let x = i as f64 * h;
            let y = j as f64 * h;
            let mut w = 1.0;
            if i == 0 || i == n {
                w *= 0.5;
            }
            if j == 0 || j == n {
                w *= 0.5;
            }
            total += w * (-(a * x * x + b * y * y)).exp();
        }
    }
    total * h * h
}

/// ∫₀^π sin(s x) dx by the trapezoid rule, panel by panel.
#[autodiff(forward)]
pub fn trapezoid_sin_scaled(s: f64) -> f64 {
    let n = 20;
    let h = PI / n as f64;
    let mut acc = 0.0;
    for i in 0..n {
        let x0 = i as f64 * h;
        let x1 = x0 + h;
        acc += 0.5 * h * ((s * x0).sin() + (s * x1).sin());
    }
    acc
}

crate::cases! {
    trapezoid_gauss(-0.4, 1.3, 0.7),
    trapezoid_closure(0.2, 2.5, 1.7),
    trapezoid_nonuniform(&[0.0, 0.3, 0.7, 1.2, 1.6], &[1.0, 0.8, 1.3, 0.4, 0.9]),
    simpson_samples(&[0.2, 0.5, 0.9, 1.2, 0.8, 0.4, 0.1], 0.3),
    simpson_sin_power(2.3),
    midpoint_rule(-0.5, 1.5, 0.8),
    romberg(0.2, 1.4),
    simpson_panel(0.3, 1.1, 1.5),
    adaptive_simpson(0.0, 2.0, 1.3, 1e-4, 4),
    trapezoid_2d(0.7, 1.3),
    trapezoid_sin_scaled(0.9),
}
