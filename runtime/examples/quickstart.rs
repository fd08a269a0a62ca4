//! Quickstart: the gradient of a small scalar function with `NDual<f64, 2>`.
//!
//! f(x, y) = x·sin(y) + exp(x·y)/y is written once, generic over its reading: at `f64`
//! it is the plain function, at `NDual<f64, 2>` it also carries the two partial
//! derivatives. The gradient is checked against central finite differences; the
//! program exits with a non-zero status when the check fails.
//!
//! Run with `cargo run --release -p lifted --example quickstart`.

use std::process::ExitCode;

use lifted::{NDual, Real};

/// f(x, y) = x·sin(y) + exp(x·y)/y, for any reading `D`.
fn f<D: Real>(x: D, y: D) -> D {
    x * y.sin() + (x * y).exp() / y
}

/// Relative error of `approx` against `exact`, guarded for values near zero.
fn relative_error(approx: f64, exact: f64) -> f64 {
    (approx - exact).abs() / exact.abs().max(1.0)
}

fn main() -> ExitCode {
    let (x, y) = (0.7, 1.3);

    // Seed x in direction 0 and y in direction 1: one evaluation gives both partials.
    let fx = f(NDual::<f64, 2>::variable(x, 0), NDual::variable(y, 1));
    let value = fx.value();
    let gradient = *fx.partials();

    // The f64 reading is the primal function itself: same operations, same bits.
    let primal = f(x, y);

    // Central finite differences, step scaled to the argument.
    let h = 1e-6;
    let hx = h * x.abs().max(1.0);
    let hy = h * y.abs().max(1.0);
    let fd = [
        (f(x + hx, y) - f(x - hx, y)) / (2.0 * hx),
        (f(x, y + hy) - f(x, y - hy)) / (2.0 * hy),
    ];
    let errors = [
        relative_error(fd[0], gradient[0]),
        relative_error(fd[1], gradient[1]),
    ];
    let worst = errors[0].max(errors[1]);
    let tolerance = 1e-7;

    println!("f(x, y) = x·sin(y) + exp(x·y)/y at (x, y) = ({x}, {y})");
    println!("value              {value:.15}");
    println!(
        "gradient (NDual)   [{:.15}, {:.15}]",
        gradient[0], gradient[1]
    );
    println!("gradient (central) [{:.15}, {:.15}]", fd[0], fd[1]);
    println!("relative error     {worst:.3e} (tolerance {tolerance:.0e})");

    let value_ok = value.to_bits() == primal.to_bits();
    if !value_ok {
        eprintln!("the dual's value {value} differs from the primal {primal}");
    }
    if value_ok && worst <= tolerance {
        println!("check passed");
        ExitCode::SUCCESS
    } else {
        eprintln!("check FAILED");
        ExitCode::FAILURE
    }
}
