//! Helpers shared by the `elementwise*` integration tests.

use lifted::testing::SplitMix64;

/// Deterministic data, uniform in `[lo, hi)`.
pub fn data(n: usize, seed: u64, lo: f64, hi: f64) -> Vec<f64> {
    let mut rng = SplitMix64::new(seed);
    (0..n).map(|_| rng.uniform(lo, hi)).collect()
}

#[track_caller]
pub fn assert_bits(what: &str, got: &[f64], want: &[f64]) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert_eq!(g.to_bits(), w.to_bits(), "{what}[{i}]: {g} vs {w}");
    }
}

/// Entry-wise `|got − want| ≤ rtol · max(1, |want|)`.
#[track_caller]
pub fn assert_close(what: &str, got: &[f64], want: &[f64], rtol: f64) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= rtol * w.abs().max(1.0),
            "{what}[{i}]: {g} vs {w} (rtol {rtol})"
        );
    }
}

/// The row-major Jacobian of `f` at `x` by central differences.
pub fn fd_jacobian(f: impl Fn(&[f64]) -> Vec<f64>, x: &[f64], h: f64) -> Vec<f64> {
    let m = f(x).len();
    let n = x.len();
    let mut jac = vec![0.0; m * n];
    for j in 0..n {
        let (mut xp, mut xm) = (x.to_vec(), x.to_vec());
        xp[j] += h;
        xm[j] -= h;
        let (yp, ym) = (f(&xp), f(&xm));
        for i in 0..m {
            jac[i * n + j] = (yp[i] - ym[i]) / (2.0 * h);
        }
    }
    jac
}

/// The `(m·len) × len` Jacobian of `m` element-wise functions of `x` stacked: block `k`
/// is diagonal with `derivs[k](xᵢ)`.
pub fn stacked_diagonals(derivs: &[fn(f64) -> f64], x: &[f64]) -> Vec<f64> {
    let n = x.len();
    let mut jac = vec![0.0; derivs.len() * n * n];
    for (k, d) in derivs.iter().enumerate() {
        for i in 0..n {
            jac[(k * n + i) * n + i] = d(x[i]);
        }
    }
    jac
}

pub type Partials = fn(f64, f64) -> (f64, f64);

/// A binary function's name, value and partials.
pub type BinaryEntry = (&'static str, fn(f64, f64) -> f64, Partials);

/// Each binary function of `lifted::elementwise`, in kernel order: its value and its two
/// partials.
pub const BINARY_STACK: &[BinaryEntry] = &[
    ("add", |a, b| a + b, |_, _| (1.0, 1.0)),
    ("sub", |a, b| a - b, |_, _| (1.0, -1.0)),
    ("mul", |a, b| a * b, |a, b| (b, a)),
    ("div", |a, b| a / b, |a, b| (1.0 / b, -a / (b * b))),
    ("rem", |a, b| a % b, |a, b| (1.0, -(a / b).trunc())),
    ("atan2", f64::atan2, |a, b| {
        let r = a * a + b * b;
        (b / r, -a / r)
    }),
    ("log", f64::log, |a, b| {
        (1.0 / (a * b.ln()), -a.ln() / (b * b.ln() * b.ln()))
    }),
    ("powf", f64::powf, |a, b| {
        (b * a.powf(b - 1.0), a.powf(b) * a.ln())
    }),
    ("hypot", f64::hypot, |a, b| {
        let h = a.hypot(b);
        (a / h, b / h)
    }),
    ("copysign", f64::copysign, |a, b| {
        (a.signum() * b.signum(), 0.0)
    }),
    (
        "min",
        f64::min,
        |a, b| if a < b { (1.0, 0.0) } else { (0.0, 1.0) },
    ),
    (
        "max",
        f64::max,
        |a, b| if a > b { (1.0, 0.0) } else { (0.0, 1.0) },
    ),
    ("rem_euclid", f64::rem_euclid, |a, b| {
        (1.0, -(a / b).div_euclid(1.0))
    }),
    ("div_euclid", f64::div_euclid, |_, _| (0.0, 0.0)),
];

/// The Jacobian of `op(a[i % la], b[i % lb])` for `i < max(la, lb)` with respect to
/// `(a, b)` flattened, from the partials.
pub fn broadcast_jacobian(partials: Partials, a: &[f64], b: &[f64]) -> Vec<f64> {
    let (la, lb) = (a.len(), b.len());
    let n = la.max(lb);
    let cols = la + lb;
    let mut jac = vec![0.0; n * cols];
    for i in 0..n {
        let (da, db) = partials(a[i % la], b[i % lb]);
        jac[i * cols + i % la] += da;
        jac[i * cols + la + i % lb] += db;
    }
    jac
}
