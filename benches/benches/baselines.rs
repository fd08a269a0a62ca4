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
use lifted_benches::interleave::{Batch, batch, median, ratio, rounds_n, show};
use lifted_benches::{w1, w2, w3};
use rayon::{ThreadPool, ThreadPoolBuilder};

/// W1's target: the batched residual at most this many times the batched primal, on
/// one thread.
const W1_TARGET: f64 = 3.7;
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

/// W1's timed units: the batched primals (faer, sequential; gemm, on 1 and 2 threads)
/// and the batched residual (`lifted::pinn::navier_stokes_batched`, on 1 and 2
/// threads), in the order of [`W1_NAMES`].
fn w1_batches() -> Vec<Batch> {
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
    for threads in [1, 2] {
        let (net, points) = (net.clone(), points.clone());
        let pool = pool(threads);
        out.push(batch(move || {
            pool.install(|| net.forward_batched_gemm(black_box(&points), w1::BLOCK))
        }));
    }
    for threads in [1, 2] {
        let (net, points) = (pinn_net.clone(), points.clone());
        let pool = pool(threads);
        let batching = Batching::default().block(w1::BLOCK);
        out.push(batch(move || {
            pool.install(|| {
                pinn::navier_stokes_batched(&net, black_box(&points), w1::NU, batching)
                    .expect("W1 residual")
            })
        }));
    }
    out
}

/// Names of [`w1_batches`], in order.
const W1_NAMES: [&str; 5] = [
    "primal_batched",
    "primal_batched_gemm/1",
    "primal_batched_gemm/2",
    "residuals_batched/1",
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
    let ms = |v: &[f64]| median(v) / 1e6;
    println!();
    println!(
        "W1 ratios: median (quartiles) over {W1_ROUNDS} interleaved rounds of the ratio \
         within a round; ✗: target missed."
    );
    println!();
    println!(
        "| threads | residual ÷ primal (gemm) | residual ÷ primal (faer, 1 thread) | residual ms | primal gemm ms | primal faer ms |"
    );
    println!("|---|---|---|---|---|---|");
    for (t, (res, prim)) in [(1, (&s[3], &s[1])), (2, (&s[4], &s[2]))] {
        let target = (t == 1).then_some(W1_TARGET);
        println!(
            "| {t} | {} | {} | {:.1} | {:.1} | {:.1} |",
            show(ratio(res, prim), target),
            show(ratio(res, &s[0]), None),
            ms(res),
            ms(prim),
            ms(&s[0]),
        );
    }
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
    let has = |flag: &str| args.iter().any(|a| a == flag);
    let filters: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    let w1_selected = filters.is_empty()
        || filters
            .iter()
            .any(|f| "w1".contains(f.as_str()) || f.contains("w1"));
    if has("--bench") && !has("--test") && !has("--list") && w1_selected {
        w1_ratio_table(&mut w1);
    }
}
