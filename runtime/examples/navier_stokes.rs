//! The flagship: the residual of 2-D incompressible Navier–Stokes for a
//! physics-informed network, on 8192 collocation points.
//!
//! The network (`lifted::pinn::forward`) is plain Rust over `f64` with
//! `#[autodiff(forward)]`; its weights are `#[constant]`. Each point needs the values
//! (u, v, p), their 3 × 3 Jacobian over (t, x, y) and u_xx, u_yy, v_xx, v_yy.
//! `pinn::navier_stokes_batched` gets them all in one pass per block of 128 points:
//! six streams (value, three first-order, two pure second-order) through each layer as
//! one GEMM, then the `tanh` jet rule, blocks in parallel. The network and points are
//! those of benchmark workload W1, so the sums printed can be compared with its
//! reference values; one point is checked against finite differences of the primal.
//!
//! Run with `cargo run --release -p lifted --example navier_stokes`. Writes
//! `target/navier_stokes_residual.svg`.

use std::io::Write;
use std::time::Instant;

use lifted::pinn::{self, Batching, NavierStokes, Network};
use lifted::testing::SplitMix64;
use plotters::prelude::*;

/// W1: layer widths, seeds, viscosity, and the reference Σ|r| of its definition.
const WIDTHS: [usize; 6] = [3, 128, 128, 128, 128, 3];
const WEIGHT_SEED: u64 = 42;
const POINT_SEED: u64 = 7;
const POINTS: usize = 8192;
const NU: f64 = 0.01;
const REFERENCE_SUMS: [f64; 3] = [329.74681203850, 1259.4034342138, 1048.6276228167];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut rng = SplitMix64::new(WEIGHT_SEED);
    let net = Network::from_fn(&WIDTHS, |i, o| (2.0 / (i + o) as f64).sqrt() * rng.normal());
    let mut rng = SplitMix64::new(POINT_SEED);
    let points: Vec<[f64; 3]> = (0..POINTS)
        .map(|_| [rng.next_f64(), rng.next_f64(), rng.next_f64()])
        .collect();
    let weights: usize = net.layers.iter().map(|l| l.weights.len()).sum();
    println!(
        "network {WIDTHS:?} ({weights} weights, seed {WEIGHT_SEED}), {POINTS} points (seed {POINT_SEED}), ν = {NU}"
    );

    // The primal: values only, batched the same way (one GEMM per layer and block).
    let batching = Batching::default();
    let start = Instant::now();
    let values = pinn::forward_batched(&net, points.as_flattened(), batching)?;
    let primal = start.elapsed();
    let checksum: f64 = values.iter().step_by(3).sum();

    // The residuals, a slice of points at a time for a progress line.
    let start = Instant::now();
    let mut residuals: Vec<NavierStokes> = Vec::with_capacity(POINTS);
    for slice in points.chunks(2048) {
        residuals.extend(pinn::navier_stokes_batched(&net, slice, NU, batching)?);
        eprint!("\rresiduals: {:5} / {POINTS}", residuals.len());
        std::io::stderr().flush()?;
    }
    eprintln!();
    let derived = start.elapsed();

    let stats = |f: fn(&NavierStokes) -> f64| {
        let abs: Vec<f64> = residuals.iter().map(|r| f(r).abs()).collect();
        let sum: f64 = abs.iter().sum();
        (
            sum,
            sum / abs.len() as f64,
            abs.iter().fold(0.0_f64, |a, &b| a.max(b)),
        )
    };
    let names = ["continuity u_x + v_y", "momentum x", "momentum y"];
    let fields: [fn(&NavierStokes) -> f64; 3] =
        [|r| r.continuity, |r| r.momentum_x, |r| r.momentum_y];
    println!(
        "{:<22} {:>16} {:>12} {:>12} {:>10}",
        "residual", "Σ|r|", "mean |r|", "max |r|", "vs W1"
    );
    for ((name, f), reference) in names.iter().zip(fields).zip(REFERENCE_SUMS) {
        let (sum, mean, max) = stats(f);
        let rel = ((sum - reference) / reference).abs();
        println!("{name:<22} {sum:>16.11} {mean:>12.3e} {max:>12.3e} {rel:>10.1e}");
    }
    println!(
        "time: batched primal {:.1} ms, residuals {:.1} ms ({:.1} × the batched primal; {} threads; checksum {checksum:.6})",
        primal.as_secs_f64() * 1e3,
        derived.as_secs_f64() * 1e3,
        derived.as_secs_f64() / primal.as_secs_f64(),
        rayon::current_num_threads()
    );

    // One point against central finite differences of the primal network.
    let k = 1234;
    let fd = finite_difference_residual(&net, points[k]);
    let r = residuals[k];
    let err = [
        (r.continuity - fd.continuity).abs(),
        (r.momentum_x - fd.momentum_x).abs(),
        (r.momentum_y - fd.momentum_y).abs(),
    ];
    println!(
        "point {k}: residuals {:.6e} {:.6e} {:.6e}, finite differences differ by {:.1e} {:.1e} {:.1e}",
        r.continuity, r.momentum_x, r.momentum_y, err[0], err[1], err[2]
    );
    if err.iter().any(|&e| e > 1e-5) {
        return Err("the derivatives disagree with finite differences".into());
    }

    let dir = output_dir();
    std::fs::create_dir_all(&dir)
        .map_err(|e| format!("cannot create the output folder {}: {e}", dir.display()))?;
    let path = dir.join("navier_stokes_residual.svg");
    draw(&path, &points, &residuals)
        .map_err(|e| format!("cannot write the picture {}: {e}", path.display()))?;
    println!("picture of |momentum x| over (x, y): {}", path.display());
    Ok(())
}

/// Cargo's target folder, wherever `CARGO_TARGET_DIR` or the workspace put it: the
/// program runs as `<target>/<profile>/examples/navier_stokes`. Outside cargo, the
/// current folder.
fn output_dir() -> std::path::PathBuf {
    std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.parent()?.parent()?.to_path_buf()))
        .or_else(|| std::env::var_os("CARGO_TARGET_DIR").map(Into::into))
        .unwrap_or_else(|| ".".into())
}

/// The residuals at `p` from central differences of the primal network (step 1e-4).
fn finite_difference_residual(net: &Network, p: [f64; 3]) -> NavierStokes {
    let h = 1e-4;
    let f = |q: [f64; 3]| pinn::forward(net, &q);
    let shifted = |c: usize, s: f64| {
        let mut q = p;
        q[c] += s;
        f(q)
    };
    let v = f(p);
    let d1 = |k: usize, c: usize| (shifted(c, h)[k] - shifted(c, -h)[k]) / (2.0 * h);
    let d2 = |k: usize, c: usize| (shifted(c, h)[k] - 2.0 * v[k] + shifted(c, -h)[k]) / (h * h);
    NavierStokes {
        continuity: d1(0, 1) + d1(1, 2),
        momentum_x: d1(0, 0) + v[0] * d1(0, 1) + v[1] * d1(0, 2) + d1(2, 1)
            - NU * (d2(0, 1) + d2(0, 2)),
        momentum_y: d1(1, 0) + v[0] * d1(1, 1) + v[1] * d1(1, 2) + d1(2, 2)
            - NU * (d2(1, 1) + d2(1, 2)),
    }
}

/// A scatter plot of |momentum x| over the (x, y) square, coloured blue (small) to
/// red (large).
fn draw(
    path: &std::path::Path,
    points: &[[f64; 3]],
    residuals: &[NavierStokes],
) -> Result<(), Box<dyn std::error::Error>> {
    let root = SVGBackend::new(path, (720, 640)).into_drawing_area();
    root.fill(&WHITE)?;
    let max = residuals
        .iter()
        .map(|r| r.momentum_x.abs())
        .fold(0.0_f64, f64::max)
        .max(f64::MIN_POSITIVE);
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "|u_t + u u_x + v u_y + p_x − ν Δu| at 8192 points",
            ("sans-serif", 20),
        )
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(44)
        .build_cartesian_2d(0.0..1.0, 0.0..1.0)?;
    chart.configure_mesh().x_desc("x").y_desc("y").draw()?;
    chart.draw_series(points.iter().zip(residuals).map(|(p, r)| {
        let s = (r.momentum_x.abs() / max).sqrt();
        let colour = HSLColor(0.66 * (1.0 - s), 0.85, 0.45);
        Circle::new((p[1], p[2]), 2, colour.filled())
    }))?;
    root.present()?;
    Ok(())
}
