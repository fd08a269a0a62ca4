//! Root finding with a fixed number of iterations: Newton, Halley, secant,
//! bisection, fixed-point iteration.

use lifted::autodiff;

/// √a by Newton's iteration (Heron's method), eight iterations.
#[autodiff(forward)]
pub fn newton_sqrt(a: f64) -> f64 {
    let mut x = a;
    for _ in 0..8 {
        x = 0.5 * (x + a / x);
    }
    x
}

/// The cube root by Newton's iteration, stopping when the update is small or after
/// 50 iterations.
#[autodiff(forward)]
pub fn newton_cbrt(a: f64) -> f64 {
    let mut x = 1.0;
    let mut iter = 0;
    loop {
        let dx = (x * x * x - a) / (3.0 * x * x);
        x -= dx;
        iter += 1;
        if dx.abs() < 1e-15 * x.abs() || iter >= 50 {
            break;
        }
    }
    x
}

/// The real root of x³ + p x + q by Newton from x = 1, a fixed number of steps.
#[autodiff(forward)]
pub fn newton_cubic(p: f64, q: f64) -> f64 {
    let mut x = 1.0;
    for _ in 0..30 {
        let f = x * x * x + p * x + q;
        let df = 3.0 * x * x + p;
        x -= f / df;
    }
    x
}

/// Kepler's equation E − e sin E = M solved by Newton.
#[autodiff(forward)]
pub fn kepler_eccentric_anomaly(mean_anomaly: f64, e: f64) -> f64 {
    let mut ea = if e < 0.8 {
        mean_anomaly
    } else {
        std::f64::consts::PI
    };
    for _ in 0..12 {
        ea -= (ea - e * ea.sin() - mean_anomaly) / (1.0 - e * ea.cos());
    }
    ea
}

/// The true anomaly from Kepler's equation, through [`kepler_eccentric_anomaly`].
#[autodiff(forward)]
pub fn true_anomaly(mean_anomaly: f64, e: f64) -> f64 {
    let ea = kepler_eccentric_anomaly(mean_anomaly, e);
    2.0 * ((1.0 + e).sqrt() * (ea / 2.0).sin()).atan2((1.0 - e).sqrt() * (ea / 2.0).cos())
}

/// A root of cos(x) = c·x by Halley's method.
#[autodiff(forward)]
pub fn halley_cos(c: f64) -> f64 {
    let mut x: f64 = 0.5;
    for _ in 0..6 {
        let f = x.cos() - c * x;
        let f1 = -x.sin() - c;
        let f2 = -x.cos();
        x -= 2.0 * f * f1 / (2.0 * f1 * f1 - f * f2);
    }
    x
}

/// The secant method on eˣ − a, from two starting points.
#[autodiff(forward)]
pub fn secant_log(a: f64) -> f64 {
    let mut x0: f64 = 0.0;
    let mut x1: f64 = 2.0;
    for _ in 0..40 {
        let f0 = x0.exp() - a;
        let f1 = x1.exp() - a;
        if (f1 - f0).abs() < 1e-300 {
            break;
        }
        let x2 = x1 - f1 * (x1 - x0) / (f1 - f0);
        x0 = x1;
        x1 = x2;
    }
    x1
}

/// Bisection for x² = c on [lo, hi], eight halvings; its derivative is that of
/// the last midpoint, a combination of the bracket's ends.
#[autodiff(forward)]
pub fn bisection(c: f64, lo: f64, hi: f64) -> f64 {
    let mut a = lo;
    let mut b = hi;
    for _ in 0..8 {
        let mid = 0.5 * (a + b);
        if (mid * mid - c) * (a * a - c) <= 0.0 {
            b = mid;
        } else {
            a = mid;
        }
    }
    0.5 * (a + b)
}

/// The fixed point of x = cos(a x) by iteration.
#[autodiff(forward)]
pub fn fixed_point_cos(a: f64) -> f64 {
    let mut x = 0.5;
    for _ in 0..200 {
        x = (a * x).cos();
    }
    x
}

/// The Lambert W function (principal branch) by Newton on w eʷ = x.
#[autodiff(forward)]
pub fn lambert_w(x: f64) -> f64 {
    let mut w = if x < 1.0 { x } else { x.ln() };
    for _ in 0..20 {
        let ew = w.exp();
        w -= (w * ew - x) / (ew * (w + 1.0));
    }
    w
}

/// The yield of a bond by Newton on its price.
#[autodiff(forward)]
pub fn bond_yield(price: f64, coupon: f64, years: u32) -> f64 {
    let mut y: f64 = 0.05;
    for _ in 0..25 {
        let mut p = 0.0;
        let mut dp = 0.0;
        for t in 1..=years {
            let tf = t as f64;
            let cf = if t == years { coupon + 100.0 } else { coupon };
            p += cf / (1.0 + y).powf(tf);
            dp -= tf * cf / (1.0 + y).powf(tf + 1.0);
        }
        y -= (p - price) / dp;
    }
    y
}

/// The stationary point of a quartic by Newton on its derivative, with a `while`
/// loop and an iteration cap.
#[autodiff(forward)]
pub fn quartic_minimiser(a: f64, b: f64) -> f64 {
    let mut x = 1.0;
    let mut k = 0;
    while k < 40 {
        let g = 4.0 * x * x * x + 2.0 * a * x + b;
        let h = 12.0 * x * x + 2.0 * a;
        x -= g / h;
        k += 1;
    }
    x
}

crate::cases! {
    newton_sqrt(2.7),
    newton_cbrt(5.3),
    newton_cubic(1.5, -2.2),
    kepler_eccentric_anomaly(1.1, 0.3),
    true_anomaly(1.1, 0.3),
    halley_cos(0.7),
    secant_log(3.7),
    bisection(2.0, 0.3, 2.9),
    fixed_point_cos(0.9),
    lambert_w(2.3),
    bond_yield(95.0, 4.0, 6),
    quartic_minimiser(-1.5, 0.4),
}
