//! Quickstart: an ordinary `f64` function, `#[autodiff]`, and the drivers.
//!
//! The Rosenbrock function of 1000 variables is written once as plain Rust. The
//! attribute adds its forward rule; `lifted::gradient` runs it in chunks of 8
//! directions, `lifted::jvp` gives one directional derivative. Both are checked against
//! central finite differences (and the gradient against the hand-derived formula); the
//! program exits with a non-zero status when a check fails.
//!
//! Run with `cargo run --release -p lifted --example quickstart`.

use std::process::ExitCode;
use std::time::Instant;

use lifted::autodiff;

/// Σ (1 − xᵢ)² + 100 (xᵢ₊₁ − xᵢ²)²: plain Rust, no generics.
#[autodiff(forward, chunk = 8)]
pub fn rosenbrock(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        s += (1.0 - x[i]).powi(2) + 100.0 * (x[i + 1] - x[i] * x[i]).powi(2);
    }
    s
}

/// The gradient derived by hand, to compare with.
fn rosenbrock_gradient(x: &[f64]) -> Vec<f64> {
    let n = x.len();
    let mut g = vec![0.0; n];
    for i in 0..n - 1 {
        let t = x[i + 1] - x[i] * x[i];
        g[i] += -2.0 * (1.0 - x[i]) - 400.0 * x[i] * t;
        g[i + 1] += 200.0 * t;
    }
    g
}

fn relative_error(approx: f64, exact: f64) -> f64 {
    (approx - exact).abs() / exact.abs().max(1.0)
}

fn main() -> ExitCode {
    let n = 1000;
    let x: Vec<f64> = (0..n)
        .map(|i| 0.5 + 0.4 * ((i as f64) * 0.37).sin())
        .collect();

    let start = Instant::now();
    let y = rosenbrock(&x);
    let primal_time = start.elapsed();

    let start = Instant::now();
    let (value, grad) = match lifted::gradient(rosenbrock::Rule, &x) {
        Ok(out) => out,
        Err(e) => {
            eprintln!("gradient failed: {e}");
            return ExitCode::FAILURE;
        }
    };
    let gradient_time = start.elapsed();

    // One directional derivative, along d = (1, 1, …, 1).
    let d = vec![1.0; n];
    let (_, dy) = match lifted::jvp(rosenbrock::Rule, &x, &d) {
        Ok(out) => out,
        Err(e) => {
            eprintln!("jvp failed: {e}");
            return ExitCode::FAILURE;
        }
    };

    // Checks: the value is the primal's, bit for bit; the gradient matches the hand
    // formula; sample components and the directional derivative match central
    // differences.
    let hand = rosenbrock_gradient(&x);
    let worst_hand = grad
        .iter()
        .zip(&hand)
        .map(|(a, b)| relative_error(*a, *b))
        .fold(0.0, f64::max);
    let h = 1e-6;
    let mut worst_fd: f64 = 0.0;
    for &i in &[0, 1, n / 2, n - 1] {
        let (mut xp, mut xm) = (x.clone(), x.clone());
        xp[i] += h;
        xm[i] -= h;
        let fd = (rosenbrock(&xp) - rosenbrock(&xm)) / (2.0 * h);
        worst_fd = worst_fd.max(relative_error(fd, grad[i]));
    }
    let xp: Vec<f64> = x.iter().zip(&d).map(|(a, b)| a + h * b).collect();
    let xm: Vec<f64> = x.iter().zip(&d).map(|(a, b)| a - h * b).collect();
    let fd_dir = (rosenbrock(&xp) - rosenbrock(&xm)) / (2.0 * h);
    worst_fd = worst_fd.max(relative_error(fd_dir, dy));

    println!("Rosenbrock, n = {n}");
    println!("value               {value:.12}");
    println!(
        "‖∇f‖∞               {:.6}",
        grad.iter().fold(0.0f64, |m, g| m.max(g.abs()))
    );
    println!("∇f · (1, …, 1)      {dy:.9} (central difference {fd_dir:.9})");
    println!("vs hand gradient    max relative error {worst_hand:.2e}");
    println!("vs finite diff.     max relative error {worst_fd:.2e}");
    println!(
        "time                primal {:.1} µs, gradient {:.1} µs ({} chunk passes of width {})",
        primal_time.as_secs_f64() * 1e6,
        gradient_time.as_secs_f64() * 1e6,
        n.div_ceil(rosenbrock::CHUNK),
        rosenbrock::CHUNK
    );

    let ok = value.to_bits() == y.to_bits() && worst_hand <= 1e-12 && worst_fd <= 1e-6;
    if ok {
        println!("checks passed");
        ExitCode::SUCCESS
    } else {
        eprintln!("check FAILED");
        ExitCode::FAILURE
    }
}
