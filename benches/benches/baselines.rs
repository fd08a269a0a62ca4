//! Primal and hand-written baselines of workloads W1–W3, with the derivative side
//! where it exists, in the same groups so each derivative is reported next to its
//! baseline from the same run (`WORKLOADS.md`, measurement protocol).

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use lifted_benches::{w1, w2, w3};

/// W1: the network on all 8192 points, one GEMM per layer and 128-point block; and
/// the residuals point by point through `lifted::pinn` (`value_and_jacfwd` +
/// `hessian_diag` on the annotated network: the nested version).
fn w1_primal(c: &mut Criterion) {
    let net = w1::network();
    let points = w1::points();
    let pinn_net = net.to_pinn();
    let mut group = c.benchmark_group("w1");
    group.sample_size(10);
    group.bench_function("primal_batched", |b| {
        b.iter(|| net.forward_batched(black_box(&points), w1::BLOCK))
    });
    group.bench_function("primal_point_by_point", |b| {
        b.iter(|| points.iter().map(|p| net.forward_point(*p)[0]).sum::<f64>())
    });
    group.bench_function("residuals_nested_point_by_point", |b| {
        b.iter(|| lifted::pinn::navier_stokes_all(&pinn_net, black_box(&points), w1::NU))
    });
    group.finish();
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

criterion_group!(baselines, w1_primal, w2_hand_gradient, w3_primal);
criterion_main!(baselines);
