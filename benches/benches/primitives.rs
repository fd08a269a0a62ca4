//! A user primitive against the derived rule of the same function: the logistic layer
//! of `lifted_benches::primitives` (64 units), one directional derivative of width N = 1
//! and N = 8, seeding included. After criterion, an interleaved post-pass prints
//! primitive ÷ derived (the hand-written rule should win: below 1) and both ÷ primal.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion};
use lifted::NDual;
use lifted_benches::SplitMix64;
use lifted_benches::interleave::{Batch, ROUNDS, batch, benchmarking, median, ratio, rounds, show};
use lifted_benches::primitives::{layer_derived, layer_primitive};

/// Units in the layer.
const UNITS: usize = 64;

fn weights() -> (Vec<f64>, Vec<f64>) {
    let mut rng = SplitMix64::new(21);
    let w = (0..UNITS).map(|_| rng.normal()).collect();
    let b = (0..UNITS).map(|_| rng.normal()).collect();
    (w, b)
}

/// A layer's rule at width N.
type LayerRule<const N: usize> = fn(NDual<f64, N>, &[f64], &[f64]) -> NDual<f64, N>;

/// The width-N run of a layer's rule at `x = 0.3`, seeded in every lane.
fn run<const N: usize>(rule: LayerRule<N>, w: Vec<f64>, b: Vec<f64>) -> Batch {
    batch(move || {
        let x = NDual::new(black_box(0.3), [1.0; N]);
        rule(x, &w, &b)
    })
}

/// Width N: the primitive's rule and the derived one. (Each `frule` is generic in its
/// slice arguments, so a closure names the instance.)
fn row<const N: usize>(w: &[f64], b: &[f64]) -> (usize, Batch, Batch) {
    (
        N,
        run::<N>(
            |x, w, b| layer_primitive::frule(x, w, b),
            w.to_vec(),
            b.to_vec(),
        ),
        run::<N>(
            |x, w, b| layer_derived::frule(x, w, b),
            w.to_vec(),
            b.to_vec(),
        ),
    )
}

fn main() {
    let (w, b) = weights();
    // The two rules agree before anything is timed.
    let p = layer_primitive::frule(NDual::<f64, 8>::new(0.3, [1.0; 8]), &w, &b);
    let d = layer_derived::frule(NDual::<f64, 8>::new(0.3, [1.0; 8]), &w, &b);
    assert!((p.value() - d.value()).abs() <= 1e-12 * d.value().abs());
    assert!((p.partial(0) - d.partial(0)).abs() <= 1e-12 * d.partial(0).abs().max(1.0));

    let (w1, b1) = (w.clone(), b.clone());
    let mut primal = batch(move || layer_derived(black_box(0.3), &w1, &b1));
    let mut rows: Vec<(usize, Batch, Batch)> = vec![row::<1>(&w, &b), row::<8>(&w, &b)];

    let mut criterion = Criterion::default().configure_from_args();
    {
        let mut group = criterion.benchmark_group("primitives/logistic_layer");
        group.bench_function("primal", |bn| bn.iter_custom(&mut primal));
        for (n, prim, der) in &mut rows {
            group.bench_function(BenchmarkId::new("primitive", *n), |bn| {
                bn.iter_custom(&mut *prim)
            });
            group.bench_function(BenchmarkId::new("derived", *n), |bn| {
                bn.iter_custom(&mut *der)
            });
        }
        group.finish();
    }
    criterion.final_summary();

    if !benchmarking() {
        return;
    }
    let mut batches: Vec<&mut Batch> = vec![&mut primal];
    for (_, prim, der) in &mut rows {
        batches.push(prim);
        batches.push(der);
    }
    let samples = rounds(&mut batches);
    println!();
    println!("Ratios: median (quartiles) over {ROUNDS} interleaved rounds; times in ns.");
    println!();
    println!(
        "| N | primitive ÷ derived | primitive ÷ primal | derived ÷ primal | primal | primitive | derived |"
    );
    println!("|---|---|---|---|---|---|---|");
    for (k, (n, _, _)) in rows.iter().enumerate() {
        let (prim, der) = (&samples[1 + 2 * k], &samples[2 + 2 * k]);
        println!(
            "| {n} | {} | {} | {} | {:.1} | {:.1} | {:.1} |",
            show(ratio(prim, der), Some(1.0)),
            show(ratio(prim, &samples[0]), None),
            show(ratio(der, &samples[0]), None),
            median(&samples[0]),
            median(prim),
            median(der),
        );
    }
    println!();
}
