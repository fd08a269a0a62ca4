//! The 2-D Brusselator residual of the sparse-Jacobian benchmark, written as a plain
//! loop over an `m × m` periodic grid: `u` in `y[..m²]`, `v` in `y[m²..]`, so `2m²`
//! unknowns and a five-point stencil in each field plus the coupling of `u` and `v` at
//! each point (6 and 7 non-zeros per row).

/// The residual `f(y)` of `y′ = f(y)`: `A = 3.4`, `B = 1`, diffusion `α = 10` over the
/// grid spacing squared, no forcing.
#[lifted::autodiff(forward)]
pub fn brusselator(y: &[f64], m: usize) -> Vec<f64> {
    let n = m * m;
    let dx = 1.0 / (m as f64 - 1.0);
    let alpha = 10.0 / (dx * dx);
    let mut r = vec![0.0; 2 * n];
    for i in 0..m {
        let (up, down) = ((i + m - 1) % m, (i + 1) % m);
        for j in 0..m {
            let (left, right) = ((j + m - 1) % m, (j + 1) % m);
            let k = i * m + j;
            let (u, v) = (y[k], y[n + k]);
            let lap_u =
                y[up * m + j] + y[down * m + j] + y[i * m + left] + y[i * m + right] - 4.0 * u;
            let lap_v = y[n + up * m + j]
                + y[n + down * m + j]
                + y[n + i * m + left]
                + y[n + i * m + right]
                - 4.0 * v;
            let uuv = u * u * v;
            r[k] = alpha * lap_u + 1.0 + uuv - 4.4 * u;
            r[n + k] = alpha * lap_v + 3.4 * u - uuv;
        }
    }
    r
}

/// The initial state of the benchmark on an `m × m` grid: smooth fields.
pub fn initial(m: usize) -> Vec<f64> {
    let n = m * m;
    let mut y = vec![0.0; 2 * n];
    for i in 0..m {
        for j in 0..m {
            let (x, z) = (i as f64 / m as f64, j as f64 / m as f64);
            y[i * m + j] = 22.0 * (z * (1.0 - z)).powf(1.5);
            y[n + i * m + j] = 27.0 * (x * (1.0 - x)).powf(1.5);
        }
    }
    y
}
