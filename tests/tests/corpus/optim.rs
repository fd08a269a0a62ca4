//! Optimisation test problems, from their textbook definitions.

use lifted::autodiff;
use std::f64::consts::PI;

/// The sphere function Σ xᵢ².
#[autodiff(forward)]
pub fn sphere(x: &[f64]) -> f64 {
    x.iter().map(|v| v * v).sum::<f64>()
}

/// The weighted sum of squares Σ i·xᵢ².
#[autodiff(forward)]
pub fn sum_of_squares(x: &[f64]) -> f64 {
    x.iter()
        .enumerate()
        .map(|(i, &v)| (i + 1) as f64 * v * v)
        .sum()
}

/// Rosenbrock's valley, index loop.
#[autodiff(forward)]
pub fn rosenbrock(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        s += 100.0 * (x[i + 1] - x[i] * x[i]).powi(2) + (1.0 - x[i]).powi(2);
    }
    s
}

/// Rastrigin: 10n + Σ (xᵢ² − 10 cos 2πxᵢ).
#[autodiff(forward)]
pub fn rastrigin(x: &[f64]) -> f64 {
    let a = 10.0;
    a * x.len() as f64
        + x.iter()
            .map(|&xi| xi * xi - a * (2.0 * PI * xi).cos())
            .sum::<f64>()
}

/// Ackley, with the usual a = 20, b = 0.2, c = 2π.
#[autodiff(forward)]
pub fn ackley(x: &[f64]) -> f64 {
    let n = x.len() as f64;
    let sum_sq: f64 = x.iter().map(|v| v * v).sum();
    let sum_cos: f64 = x.iter().map(|v| (2.0 * PI * v).cos()).sum();
    -20.0 * (-0.2 * (sum_sq / n).sqrt()).exp() - (sum_cos / n).exp() + 20.0 + std::f64::consts::E
}

/// Beale's function of two variables.
#[autodiff(forward)]
pub fn beale(x: f64, y: f64) -> f64 {
    (1.5 - x + x * y).powi(2) + (2.25 - x + x * y * y).powi(2) + (2.625 - x + x * y.powi(3)).powi(2)
}

/// Booth's function.
#[autodiff(forward)]
pub fn booth(p: [f64; 2]) -> f64 {
    let [x, y] = p;
    (x + 2.0 * y - 7.0).powi(2) + (2.0 * x + y - 5.0).powi(2)
}

/// Himmelblau's function.
#[autodiff(forward)]
pub fn himmelblau(x: f64, y: f64) -> f64 {
    (x * x + y - 11.0).powi(2) + (x + y * y - 7.0).powi(2)
}

/// Styblinski–Tang: ½ Σ (xᵢ⁴ − 16xᵢ² + 5xᵢ).
#[autodiff(forward)]
pub fn styblinski_tang(x: &[f64]) -> f64 {
    let mut acc = 0.0;
    for &xi in x {
        acc += xi.powi(4) - 16.0 * xi.powi(2) + 5.0 * xi;
    }
    acc / 2.0
}

/// Griewank: 1 + Σ xᵢ²/4000 − Π cos(xᵢ/√i).
#[autodiff(forward)]
pub fn griewank(x: &[f64]) -> f64 {
    let sum: f64 = x.iter().map(|v| v * v / 4000.0).sum();
    let mut prod = 1.0;
    for (i, &v) in x.iter().enumerate() {
        prod *= (v / ((i + 1) as f64).sqrt()).cos();
    }
    1.0 + sum - prod
}

/// Levy's function, the wᵢ in a local vector.
#[autodiff(forward)]
pub fn levy(x: &[f64]) -> f64 {
    let w: Vec<f64> = x.iter().map(|&v| 1.0 + (v - 1.0) / 4.0).collect();
    let d = w.len();
    let mut s = (PI * w[0]).sin().powi(2);
    for i in 0..d - 1 {
        s += (w[i] - 1.0).powi(2) * (1.0 + 10.0 * (PI * w[i] + 1.0).sin().powi(2));
    }
    s + (w[d - 1] - 1.0).powi(2) * (1.0 + (2.0 * PI * w[d - 1]).sin().powi(2))
}

/// Zakharov: Σxᵢ² + (Σ ½ i xᵢ)² + (Σ ½ i xᵢ)⁴.
#[autodiff(forward)]
pub fn zakharov(x: &[f64]) -> f64 {
    let mut s1 = 0.0;
    let mut s2 = 0.0;
    for i in 0..x.len() {
        s1 += x[i] * x[i];
        s2 += 0.5 * (i + 1) as f64 * x[i];
    }
    s1 + s2.powi(2) + s2.powi(4)
}

/// Michalewicz with steepness m = 10.
#[autodiff(forward)]
pub fn michalewicz(x: &[f64]) -> f64 {
    let m = 10;
    -x.iter()
        .enumerate()
        .map(|(i, &xi)| xi.sin() * ((i + 1) as f64 * xi * xi / PI).sin().powi(2 * m))
        .sum::<f64>()
}

/// Schwefel: 418.9829 n − Σ xᵢ sin √|xᵢ|.
#[autodiff(forward)]
pub fn schwefel(x: &[f64]) -> f64 {
    418.9829 * x.len() as f64 - x.iter().map(|&v| v * v.abs().sqrt().sin()).sum::<f64>()
}

/// Dixon–Price: (x₁ − 1)² + Σ i (2xᵢ² − xᵢ₋₁)².
#[autodiff(forward)]
pub fn dixon_price(x: &[f64]) -> f64 {
    let mut s = (x[0] - 1.0).powi(2);
    for i in 1..x.len() {
        s += (i + 1) as f64 * (2.0 * x[i] * x[i] - x[i - 1]).powi(2);
    }
    s
}

/// The rotated hyper-ellipsoid Σᵢ Σⱼ≤ᵢ xⱼ².
#[autodiff(forward)]
pub fn rotated_hyper_ellipsoid(x: &[f64]) -> f64 {
    let mut total = 0.0;
    for i in 0..x.len() {
        for j in 0..=i {
            total += x[j] * x[j];
        }
    }
    total
}

/// The sum of different powers Σ |xᵢ|^(i+1).
#[autodiff(forward)]
pub fn sum_of_different_powers(x: &[f64]) -> f64 {
    x.iter()
        .enumerate()
        .map(|(i, v)| v.abs().powi(i as i32 + 2))
        .sum()
}

/// Powell's singular function over groups of four.
#[autodiff(forward)]
pub fn powell(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for k in 0..x.len() / 4 {
        let i = 4 * k;
        s += (x[i] + 10.0 * x[i + 1]).powi(2)
            + 5.0 * (x[i + 2] - x[i + 3]).powi(2)
            + (x[i + 1] - 2.0 * x[i + 2]).powi(4)
            + 10.0 * (x[i] - x[i + 3]).powi(4);
    }
    s
}

/// Colville's function of four variables.
#[autodiff(forward)]
pub fn colville(x: &[f64; 4]) -> f64 {
    let [x1, x2, x3, x4] = *x;
    100.0 * (x1 * x1 - x2).powi(2)
        + (x1 - 1.0).powi(2)
        + (x3 - 1.0).powi(2)
        + 90.0 * (x3 * x3 - x4).powi(2)
        + 10.1 * ((x2 - 1.0).powi(2) + (x4 - 1.0).powi(2))
        + 19.8 * (x2 - 1.0) * (x4 - 1.0)
}

/// The six-hump camel function.
#[autodiff(forward)]
pub fn six_hump_camel(x: f64, y: f64) -> f64 {
    (4.0 - 2.1 * x * x + x.powi(4) / 3.0) * x * x + x * y + (-4.0 + 4.0 * y * y) * y * y
}

/// Branin–Hoo with its standard constants.
#[autodiff(forward)]
pub fn branin(x1: f64, x2: f64) -> f64 {
    let a = 1.0;
    let b = 5.1 / (4.0 * PI * PI);
    let c = 5.0 / PI;
    let r = 6.0;
    let s = 10.0;
    let t = 1.0 / (8.0 * PI);
    a * (x2 - b * x1 * x1 + c * x1 - r).powi(2) + s * (1.0 - t) * x1.cos() + s
}

/// Bohachevsky's first function.
#[autodiff(forward)]
pub fn bohachevsky(x: f64, y: f64) -> f64 {
    x * x + 2.0 * y * y - 0.3 * (3.0 * PI * x).cos() - 0.4 * (4.0 * PI * y).cos() + 0.7
}

/// The Perm function (β = 10) with nested loops.
#[autodiff(forward)]
pub fn perm(x: &[f64]) -> f64 {
    let d = x.len();
    let beta = 10.0;
    let mut outer = 0.0;
    for i in 1..=d {
        let mut inner = 0.0;
        for j in 1..=d {
            inner +=
                (j as f64 + beta) * (x[j - 1].powi(i as i32) - 1.0 / (j as f64).powi(i as i32));
        }
        outer += inner * inner;
    }
    outer
}

/// The Alpine function Σ |xᵢ sin xᵢ + 0.1 xᵢ|.
#[autodiff(forward)]
pub fn alpine(x: &[f64]) -> f64 {
    x.iter().map(|&v| (v * v.sin() + 0.1 * v).abs()).sum()
}

/// The Salomon function 1 − cos(2π‖x‖) + 0.1‖x‖.
#[autodiff(forward)]
pub fn salomon(x: &[f64]) -> f64 {
    let r = x.iter().map(|v| v * v).sum::<f64>().sqrt();
    1.0 - (2.0 * PI * r).cos() + 0.1 * r
}

crate::cases! {
    sphere(&[0.3, -1.2, 2.1, 0.7]),
    sum_of_squares(&[0.3, -1.2, 2.1, 0.7, -0.4]),
    rosenbrock(&[0.4, 1.3, -0.6, 0.9, 1.1]),
    rastrigin(&[0.31, -1.17, 2.08, 0.66]),
    ackley(&[0.8, -1.3, 2.2]),
    beale(1.7, 0.4),
    booth([0.6, 2.3]),
    himmelblau(2.4, 1.7),
    styblinski_tang(&[-2.1, 1.4, 0.3, -0.8]),
    griewank(&[3.1, -5.2, 7.7, 1.4, -2.6]),
    levy(&[1.3, -0.7, 2.4, 0.2]),
    zakharov(&[0.4, -0.2, 0.9, 0.1]),
    michalewicz(&[2.2, 1.57, 1.28, 0.9]),
    schwefel(&[120.3, -45.6, 310.2]),
    dixon_price(&[0.7, -1.1, 0.4, 1.6]),
    rotated_hyper_ellipsoid(&[0.5, -1.5, 2.5, -0.3]),
    sum_of_different_powers(&[0.5, -0.8, 0.6, 0.9]),
    powell(&[3.0, -1.0, 0.2, 1.0, 0.7, 0.3, -0.4, 1.2]),
    colville(&[0.8, 1.2, -0.5, 0.9]),
    six_hump_camel(0.3, -0.6),
    branin(-2.5, 7.3),
    bohachevsky(0.31, -0.22),
    perm(&[0.9, 1.7, 2.6]),
    alpine(&[0.7, -2.3, 1.9, 4.1]),
    salomon(&[0.7, -0.4, 1.1]),
}
