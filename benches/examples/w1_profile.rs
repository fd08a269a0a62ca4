//! W1 alone, for finding where a residual's time goes: one implementation in a loop,
//! on the current thread.
//!
//! ```text
//! valgrind --tool=callgrind target/release/examples/w1_profile residual 2
//! target/release/examples/w1_profile race 10
//! ```
//!
//! Implementations: `residual` (lifted's `navier_stokes_batched`, one thread), `R` (the
//! hand-written batched primal with lifted's GEMM and tanh) and `hand` (the hand-written
//! six-stream residual pass, same GEMM and tanh). `race K` times each K times in turn
//! and prints the medians and the residual's ratios to them.

use std::hint::black_box;
use std::time::Instant;

use lifted::pinn::{self, Batching};
use lifted_benches::w1;
use lifted_benches::w1_hand::{self, Gemm, Tanh};

/// One unit of the implementation named `which`.
fn implementation(which: &str) -> Box<dyn FnMut()> {
    let net = w1::network();
    let points = w1::points();
    match which {
        "residual" => {
            let net = net.to_pinn();
            let batching = Batching::default().block(w1::BLOCK);
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(1)
                .build()
                .expect("a thread pool");
            Box::new(move || {
                pool.install(|| {
                    black_box(
                        pinn::navier_stokes_batched(&net, black_box(&points), w1::NU, batching)
                            .expect("W1 residual"),
                    );
                });
            })
        }
        "R" => Box::new(move || {
            black_box(w1_hand::primal(
                &net,
                black_box(&points),
                w1::BLOCK,
                Gemm::Gemm,
                Tanh::Lifted,
            ));
        }),
        "hand" => Box::new(move || {
            black_box(w1_hand::residual(
                &net,
                black_box(&points),
                w1::BLOCK,
                Gemm::Gemm,
                Tanh::Lifted,
            ));
        }),
        other => {
            eprintln!("unknown implementation {other:?}: residual, R or hand");
            std::process::exit(2);
        }
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let count = |i: usize| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(1usize);
    match args.get(1).map(String::as_str) {
        Some("race") => {
            let names = ["residual", "R", "hand"];
            let mut runs: Vec<_> = names.iter().map(|n| implementation(n)).collect();
            let mut times = vec![Vec::new(); names.len()];
            let mut ratios = vec![Vec::new(); names.len()];
            for _ in 0..count(2) {
                let mut round = vec![0.0; names.len()];
                for (k, run) in runs.iter_mut().enumerate() {
                    let start = Instant::now();
                    run();
                    round[k] = start.elapsed().as_secs_f64() * 1e3;
                    times[k].push(round[k]);
                }
                for k in 0..names.len() {
                    ratios[k].push(round[0] / round[k]);
                }
            }
            for (k, name) in names.iter().enumerate() {
                println!(
                    "{name:>9}: {:8.2} ms   residual ÷ {name}: {:.3}",
                    median(times[k].clone()),
                    median(ratios[k].clone())
                );
            }
        }
        Some(which) => {
            let mut run = implementation(which);
            for _ in 0..count(2) {
                run();
            }
        }
        None => {
            eprintln!("usage: w1_profile (residual | R | hand) [COUNT] | race [ROUNDS]");
            std::process::exit(2);
        }
    }
}
