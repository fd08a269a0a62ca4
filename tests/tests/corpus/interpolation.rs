//! Interpolation: piecewise linear, Lagrange, Neville, Newton, Hermite,
//! Catmull–Rom, Bézier, splines, polynomial evaluation.

use lifted::autodiff;

/// Linear interpolation between a and b.
#[autodiff(forward)]
pub fn lerp(a: f64, b: f64, t: f64) -> f64 {
    a + (b - a) * t
}

/// Piecewise-linear interpolation in a sorted table, clamped at the ends.
#[autodiff(forward)]
pub fn interp_linear(xs: &[f64], ys: &[f64], x: f64) -> f64 {
    if x <= xs[0] {
        return ys[0];
    }
    for i in 0..xs.len() - 1 {
        if x <= xs[i + 1] {
            let t = (x - xs[i]) / (xs[i + 1] - xs[i]);
            return ys[i] + t * (ys[i + 1] - ys[i]);
        }
    }
    ys[ys.len() - 1]
}

/// The Lagrange interpolating polynomial at x.
#[autodiff(forward)]
pub fn lagrange(xs: &[f64], ys: &[f64], x: f64) -> f64 {
    let n = xs.len();
    let mut result = 0.0;
    for i in 0..n {
        let mut term = ys[i];
        for j in 0..n {
            if j != i {
                term *= (x - xs[j]) / (xs[i] - xs[j]);
            }
        }
        result += term;
    }
    result
}

/// Neville's algorithm, overwriting a copy of the ordinates.
#[autodiff(forward)]
pub fn neville(xs: &[f64], ys: &[f64], x: f64) -> f64 {
    let n = xs.len();
    let mut p = ys.to_vec();
    for j in 1..n {
        for i in 0..n - j {
            p[i] = ((x - xs[i + j]) * p[i] + (xs[i] - x) * p[i + 1]) / (xs[i] - xs[i + j]);
        }
    }
    p[0]
}

/// Newton's divided differences, then nested evaluation.
#[autodiff(forward)]
pub fn newton_divided(xs: &[f64], ys: &[f64], x: f64) -> f64 {
    let n = xs.len();
    let mut coef = ys.to_vec();
    for j in 1..n {
        for i in (j..n).rev() {
            coef[i] = (coef[i] - coef[i - 1]) / (xs[i] - xs[i - j]);
        }
    }
    let mut result = coef[n - 1];
    for i in (0..n - 1).rev() {
        result = result * (x - xs[i]) + coef[i];
    }
    result
}

/// A cubic Hermite segment from values and slopes at t ∈ [0, 1].
#[autodiff(forward)]
pub fn cubic_hermite(p0: f64, m0: f64, p1: f64, m1: f64, t: f64) -> f64 {
    let t2 = t * t;
    let t3 = t2 * t;
    let h00 = 2.0 * t3 - 3.0 * t2 + 1.0;
    let h10 = t3 - 2.0 * t2 + t;
    let h01 = -2.0 * t3 + 3.0 * t2;
    let h11 = t3 - t2;
    h00 * p0 + h10 * m0 + h01 * p1 + h11 * m1
}

/// A uniform Catmull–Rom segment between p[1] and p[2].
#[autodiff(forward)]
pub fn catmull_rom(p: [f64; 4], t: f64) -> f64 {
    0.5 * ((2.0 * p[1])
        + (-p[0] + p[2]) * t
        + (2.0 * p[0] - 5.0 * p[1] + 4.0 * p[2] - p[3]) * t * t
        + (-p[0] + 3.0 * p[1] - 3.0 * p[2] + p[3]) * t * t * t)
}

/// Horner's rule as a fold over the coefficients, highest degree last.
#[autodiff(forward)]
pub fn horner_fold(coeffs: &[f64], x: f64) -> f64 {
    coeffs.iter().rev().fold(0.0, |acc, &c| acc * x + c)
}

/// Horner's rule as a loop, highest degree first.
#[autodiff(forward)]
pub fn horner_loop(coeffs: &[f64], x: f64) -> f64 {
    let mut acc = 0.0;
    for &c in coeffs {
        acc = acc * x + c;
    }
    acc
}

/// A Chebyshev series by Clenshaw's recurrence on [-1, 1].
#[autodiff(forward)]
pub fn clenshaw_chebyshev(c: &[f64], x: f64) -> f64 {
    let mut b1 = 0.0;
    let mut b2 = 0.0;
    for k in (1..c.len()).rev() {
        let b0 = 2.0 * x * b1 - b2 + c[k];
        b2 = b1;
        b1 = b0;
    }
    x * b1 - b2 + c[0]
}

/// A point of a Bézier curve by de Casteljau's algorithm.
#[autodiff(forward)]
pub fn de_casteljau(control: &[f64], t: f64) -> f64 {
    let mut pts = control.to_vec();
    let n = pts.len();
    for r in 1..n {
        for i in 0..n - r {
            pts[i] = (1.0 - t) * pts[i] + t * pts[i + 1];
        }
    }
    pts[0]
}

/// Bilinear interpolation in the unit square from its four corner values.
#[autodiff(forward)]
pub fn bilinear(q: [f64; 4], x: f64, y: f64) -> f64 {
    let [q00, q10, q01, q11] = q;
    q00 * (1.0 - x) * (1.0 - y) + q10 * x * (1.0 - y) + q01 * (1.0 - x) * y + q11 * x * y
}

/// The natural cubic spline through the points, evaluated at x (the tridiagonal
/// system solved by the Thomas algorithm).
#[autodiff(forward)]
pub fn natural_spline(xs: &[f64], ys: &[f64], x: f64) -> f64 {
    let n = xs.len();
    let mut h = vec![0.0; n - 1];
    for i in 0..n - 1 {
        h[i] = xs[i + 1] - xs[i];
    }
    let mut alpha = vec![0.0; n];
    for i in 1..n - 1 {
        alpha[i] = 3.0 / h[i] * (ys[i + 1] - ys[i]) - 3.0 / h[i - 1] * (ys[i] - ys[i - 1]);
    }
    let mut l = vec![1.0; n];
    let mut mu = vec![0.0; n];
    let mut z = vec![0.0; n];
    for i in 1..n - 1 {
        l[i] = 2.0 * (xs[i + 1] - xs[i - 1]) - h[i - 1] * mu[i - 1];
        mu[i] = h[i] / l[i];
        z[i] = (alpha[i] - h[i - 1] * z[i - 1]) / l[i];
    }
    let mut c = vec![0.0; n];
    let mut b = vec![0.0; n - 1];
    let mut d = vec![0.0; n - 1];
    for j in (0..n - 1).rev() {
        c[j] = z[j] - mu[j] * c[j + 1];
        b[j] = (ys[j + 1] - ys[j]) / h[j] - h[j] * (c[j + 1] + 2.0 * c[j]) / 3.0;
        d[j] = (c[j + 1] - c[j]) / (3.0 * h[j]);
    }
    let mut k = 0;
    while k < n - 2 && x > xs[k + 1] {
        k += 1;
    }
    let dx = x - xs[k];
    ys[k] + b[k] * dx + c[k] * dx * dx + d[k] * dx * dx * dx
}

/// Smoothstep of x between two edges.
#[autodiff(forward)]
pub fn smoothstep(edge0: f64, edge1: f64, x: f64) -> f64 {
    let t = ((x - edge0) / (edge1 - edge0)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// Inverse distance weighting in one dimension with power 2.
#[autodiff(forward)]
pub fn inverse_distance_weighting(xs: &[f64], ys: &[f64], x: f64) -> f64 {
    let mut num = 0.0;
    let mut den = 0.0;
    for (xi, yi) in xs.iter().zip(ys.iter()) {
        let w = 1.0 / (x - xi).powi(2);
        num += w * yi;
        den += w;
    }
    num / den
}

crate::cases! {
    lerp(1.5, -0.5, 0.3),
    interp_linear(&[0.0, 1.0, 2.5, 4.0], &[1.0, 3.0, 2.0, 5.0], 1.7),
    lagrange(&[0.0, 1.0, 2.5, 4.0], &[1.0, 3.0, 2.0, 5.0], 1.7),
    neville(&[0.0, 1.0, 2.5, 4.0], &[1.0, 3.0, 2.0, 5.0], 1.7),
    newton_divided(&[0.0, 1.0, 2.5, 4.0], &[1.0, 3.0, 2.0, 5.0], 1.7),
    cubic_hermite(1.0, 0.5, 2.0, -0.3, 0.35),
    catmull_rom([0.0, 1.0, 0.5, 2.0], 0.4),
    horner_fold(&[1.0, -2.0, 0.5, 3.0], 0.7),
    horner_loop(&[1.0, -2.0, 0.5, 3.0], 0.7),
    clenshaw_chebyshev(&[0.5, -0.3, 0.2, 0.1, -0.05], 0.35),
    de_casteljau(&[0.0, 1.2, -0.4, 2.0], 0.3),
    bilinear([1.0, 2.0, 0.5, 3.0], 0.3, 0.6),
    natural_spline(&[0.0, 1.0, 2.5, 4.0, 5.0], &[1.0, 3.0, 2.0, 5.0, 4.0], 1.7),
    smoothstep(0.2, 1.4, 0.9),
    inverse_distance_weighting(&[0.0, 1.0, 2.5, 4.0], &[1.0, 3.0, 2.0, 5.0], 1.7),
}
