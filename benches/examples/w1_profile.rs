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
//! six-stream residual pass, same GEMM and tanh). `race K` runs K interleaved rounds of
//! the three and prints the medians and the residual's ratios to them (median and
//! quartiles of the ratio within a round).

use std::hint::black_box;

use lifted::pinn::{self, Batching};
use lifted_benches::interleave::{Batch, batch, median, ratio, rounds_n, show};
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

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let count = |i: usize| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(1usize);
    match args.get(1).map(String::as_str) {
        Some("race") => {
            let names = ["residual", "R", "hand"];
            let mut batches: Vec<Batch> = names.iter().map(|n| batch(implementation(n))).collect();
            let mut refs: Vec<&mut Batch> = batches.iter_mut().collect();
            let samples = rounds_n(&mut refs, count(2));
            for (name, s) in names.iter().zip(&samples) {
                println!(
                    "{name:>9}: {:8.2} ms   residual ÷ {name}: {}",
                    median(s) / 1e6,
                    show(ratio(&samples[0], s), None)
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
