//! Primal and hand-written baselines of workloads W1–W3, with the derivative side
//! where it exists, in the same groups so each derivative is reported next to its
//! baseline from the same run (`WORKLOADS.md`, measurement protocol).
//!
//! After criterion, a post-pass times W1's batched residual and batched primals again
//! in interleaved rounds (every implementation once per round, rotating order, so load
//! on the shared machine hits them alike) and prints the ratios residual ÷ primal
//! within a round: median and quartiles over the rounds.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion};
use lifted::pinn::{self, Batching};
use lifted_benches::interleave::{Batch, batch, benchmarking, median, ratio, rounds_n, show};
use lifted_benches::{w1, w1_hand, w2, w3};
use rayon::{ThreadPool, ThreadPoolBuilder};

/// W1's target: the batched residual at most this many times `R`, the batched primal
/// with the same GEMM and tanh, on one thread.
const W1_TARGET: f64 = 3.6;
/// Interleaved rounds of the W1 post-pass (each runs every implementation once, a
/// fraction of a second each).
const W1_ROUNDS: usize = 25;

/// A rayon pool of `n` threads.
fn pool(n: usize) -> ThreadPool {
    ThreadPoolBuilder::new()
        .num_threads(n)
        .build()
        .expect("a thread pool")
}

/// W1's timed units, in the order of [`W1_NAMES`]: the batched primals (faer and
/// `gemm` with libm's tanh; `R`, the hand-written primal with lifted's GEMM and tanh;
/// the anchor's `R`, matrixmultiply and its tanh), the hand-written six-stream
/// residual pass (lifted's GEMM and tanh; the anchor's) and lifted's batched residual
/// (`lifted::pinn::navier_stokes_batched`), blocks of [`w1::BLOCK`] points, on one
/// thread; then the `gemm` primal and lifted's residual on two threads.
fn w1_batches() -> Vec<Batch> {
    use w1_hand::{Gemm, Tanh};
    let net = std::sync::Arc::new(w1::network());
    let points = std::sync::Arc::new(w1::points());
    let pinn_net = std::sync::Arc::new(net.to_pinn());
    let mut out = Vec::new();
    {
        let (net, points) = (net.clone(), points.clone());
        out.push(batch(move || {
            net.forward_batched(black_box(&points), w1::BLOCK)
        }));
    }
    let gemm_primal = |threads| {
        let (net, points) = (net.clone(), points.clone());
        let pool = pool(threads);
        batch(move || pool.install(|| net.forward_batched_gemm(black_box(&points), w1::BLOCK)))
    };
    out.push(gemm_primal(1));
    for (gemm, tanh) in [
        (Gemm::Gemm, Tanh::Lifted),
        (Gemm::MatrixMultiply, Tanh::Anchor),
    ] {
        let (net, points) = (net.clone(), points.clone());
        out.push(batch(move || {
            w1_hand::primal(&net, black_box(&points), w1::BLOCK, gemm, tanh)
        }));
    }
    for (gemm, tanh) in [
        (Gemm::Gemm, Tanh::Lifted),
        (Gemm::MatrixMultiply, Tanh::Anchor),
    ] {
        let (net, points) = (net.clone(), points.clone());
        out.push(batch(move || {
            w1_hand::residual(&net, black_box(&points), w1::BLOCK, gemm, tanh)
        }));
    }
    let residual = |threads| {
        let (net, points) = (pinn_net.clone(), points.clone());
        let pool = pool(threads);
        let batching = Batching::default().block(w1::BLOCK);
        batch(move || {
            pool.install(|| {
                pinn::navier_stokes_batched(&net, black_box(&points), w1::NU, batching)
                    .expect("W1 residual")
            })
        })
    };
    out.push(residual(1));
    out.push(gemm_primal(2));
    out.push(residual(2));
    out
}

/// Names of [`w1_batches`], in order.
const W1_NAMES: [&str; 9] = [
    "primal_batched_faer_libm",
    "primal_batched_gemm_libm/1",
    "primal_R",
    "primal_R_anchor",
    "residuals_hand",
    "residuals_hand_anchor",
    "residuals_batched/1",
    "primal_batched_gemm_libm/2",
    "residuals_batched/2",
];

/// W1: the batched primals and residuals of [`w1_batches`], and the residuals point by
/// point through `lifted::pinn` (`value_and_jacfwd` + `hessian_diag` on the annotated
/// network: the nested version).
fn w1_group(c: &mut Criterion, batches: &mut [Batch]) {
    let net = w1::network();
    let points = w1::points();
    let pinn_net = net.to_pinn();
    let mut group = c.benchmark_group("w1");
    group.sample_size(10);
    for (name, run) in W1_NAMES.iter().zip(batches.iter_mut()) {
        group.bench_function(*name, |b| b.iter_custom(&mut *run));
    }
    group.bench_function("primal_point_by_point", |b| {
        b.iter(|| points.iter().map(|p| net.forward_point(*p)[0]).sum::<f64>())
    });
    group.bench_function("residuals_nested_point_by_point", |b| {
        b.iter(|| lifted::pinn::navier_stokes_all(&pinn_net, black_box(&points), w1::NU))
    });
    group.finish();
}

/// Times W1's batched units again in interleaved rounds and prints the ratios.
fn w1_ratio_table(batches: &mut [Batch]) {
    let mut refs: Vec<&mut Batch> = batches.iter_mut().collect();
    let s = rounds_n(&mut refs, W1_ROUNDS);
    let at = |name: &str| W1_NAMES.iter().position(|n| *n == name).expect("a W1 unit");
    println!();
    println!(
        "W1 ratios: median (quartiles) over {W1_ROUNDS} interleaved rounds of the ratio \
         within a round; ✗: target missed. R: the hand-written batched primal with \
         lifted's GEMM and tanh; anchor: matrixmultiply and the anchor's tanh."
    );
    println!();
    println!("| unit | time (ms) | lifted residual ÷ unit |");
    println!("|---|---|---|");
    let lifted = &s[at("residuals_batched/1")];
    for (k, name) in W1_NAMES.iter().enumerate().take(7) {
        let target = (*name == "primal_R").then_some(W1_TARGET);
        println!(
            "| {name} | {:.1} | {} |",
            median(&s[k]) / 1e6,
            show(ratio(lifted, &s[k]), target)
        );
    }
    println!();
    println!(
        "2 threads: lifted residual ÷ gemm primal (libm tanh) {}; residual {:.1} ms",
        show(
            ratio(
                &s[at("residuals_batched/2")],
                &s[at("primal_batched_gemm_libm/2")]
            ),
            None
        ),
        median(&s[at("residuals_batched/2")]) / 1e6
    );
    println!();
}

/// W2: the hand-written Rosenbrock gradient at each size.
fn w2_hand_gradient(c: &mut Criterion) {
    let mut group = c.benchmark_group("w2");
    for n in w2::SIZES {
        let x = w2::input(n);
        let mut grad = vec![0.0; n];
        group.bench_with_input(BenchmarkId::new("hand_gradient", n), &x, |b, x| {
            b.iter(|| w2::rosenbrock_gradient(black_box(x), black_box(&mut grad)))
        });
    }
    group.finish();
}

/// W3: the primal chain, three GEMVs and 768 tanh.
fn w3_primal(c: &mut Criterion) {
    let chain = w3::TanhChain::new();
    let x = w3::point();
    let mut group = c.benchmark_group("w3");
    group.bench_function("primal_chain", |b| b.iter(|| chain.primal(black_box(&x))));
    group.finish();
}

fn main() {
    let mut w1 = w1_batches();
    let mut criterion = Criterion::default().configure_from_args();
    w1_group(&mut criterion, &mut w1);
    w2_hand_gradient(&mut criterion);
    w3_primal(&mut criterion);
    criterion.final_summary();

    // Only when benchmarking (`cargo bench`, not `cargo test --benches` nor `--list`),
    // and only when W1 is selected (no filter, or one naming it).
    let args: Vec<String> = std::env::args().skip(1).collect();
    let filters: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    let w1_selected = filters.is_empty()
        || filters
            .iter()
            .any(|f| "w1".contains(f.as_str()) || f.contains("w1"));
    if benchmarking() && w1_selected {
        w1_ratio_table(&mut w1);
    }
}
