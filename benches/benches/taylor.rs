//! Derivative towers: Taylor mode against nested forward-over-forward.
//!
//! The order-4 tower `[u, u′, u″, u‴, u⁗]` of one scalar function at one point, by
//! * `derivatives_1d` (one pass at `Taylor<f64, 4>`, the driver included),
//! * the rule at `Taylor<f64, 4>` called directly (no driver),
//! * `nested_derivative` four deep: one pass at `NDual<NDual<NDual<NDual<f64, 1>, 1>, 1>, 1>`
//!   (16 numbers per value) returning u⁗ (the lower derivatives sit in the same value,
//!   so a tower costs this one pass).
//!
//! The fourth derivatives are checked to agree (1e-12 relative) before timing. After
//! criterion, interleaved rounds print Taylor ÷ nested.

use std::hint::black_box;

use criterion::Criterion;
use lifted::drivers::nested_derivative;
use lifted::{NDual, Reading, Taylor, autodiff};
use lifted_benches::interleave::{Batch, ROUNDS, batch, benchmarking, median, ratio, rounds, show};

/// The point the towers are taken at.
const POINT: f64 = 0.3;

/// A smooth profile with a product, a quotient and two transcendentals.
#[autodiff(forward)]
fn u(x: f64) -> f64 {
    x.sin() * (-x * x).exp() / (1.0 + x * x)
}

/// u′ at any reading, by one nested derivative.
fn d1<D: Reading<f64>>(x: D) -> D
where
    NDual<D, 1>: Reading<f64>,
{
    nested_derivative(u::frule::<NDual<D, 1>>, x).1
}

/// u″, nesting [`d1`].
fn d2<D: Reading<f64>>(x: D) -> D
where
    NDual<D, 1>: Reading<f64>,
    NDual<NDual<D, 1>, 1>: Reading<f64>,
{
    nested_derivative(d1::<NDual<D, 1>>, x).1
}

/// u‴, nesting [`d2`].
fn d3<D: Reading<f64>>(x: D) -> D
where
    NDual<D, 1>: Reading<f64>,
    NDual<NDual<D, 1>, 1>: Reading<f64>,
    NDual<NDual<NDual<D, 1>, 1>, 1>: Reading<f64>,
{
    nested_derivative(d2::<NDual<D, 1>>, x).1
}

/// u⁗ at `f64`: one pass at the four-deep nest.
fn d4(x: f64) -> f64 {
    nested_derivative(d3::<NDual<f64, 1>>, x).1
}

fn main() {
    let tower = lifted::derivatives_1d(u::Rule, POINT, 1.0, 4).expect("tower");
    let direct = u::frule::<Taylor<f64, 4>>(Taylor::variable(POINT, 1.0)).derivative(4);
    let nested = d4(POINT);
    for (name, v) in [("derivatives_1d", tower[4]), ("Taylor rule", direct)] {
        assert!(
            (v - nested).abs() <= 1e-12 * nested.abs(),
            "{name}: u⁗ = {v}, nested {nested}"
        );
    }

    let mut taylor_driver: Batch =
        batch(|| lifted::derivatives_1d(u::Rule, black_box(POINT), 1.0, 4).expect("tower"));
    let mut taylor_rule: Batch = batch(|| {
        let y = u::frule::<Taylor<f64, 4>>(Taylor::variable(black_box(POINT), 1.0));
        (0..=4).map(|j| y.derivative(j)).sum::<f64>()
    });
    let mut nested_run: Batch = batch(|| d4(black_box(POINT)));

    let mut criterion = Criterion::default().configure_from_args();
    {
        let mut group = criterion.benchmark_group("tower_order4");
        group.bench_function("derivatives_1d", |b| b.iter_custom(&mut taylor_driver));
        group.bench_function("taylor_rule", |b| b.iter_custom(&mut taylor_rule));
        group.bench_function("nested_ndual", |b| b.iter_custom(&mut nested_run));
        group.finish();
    }
    criterion.final_summary();

    // Only when benchmarking (`cargo bench`), not under `cargo test --benches`.
    if benchmarking() {
        let samples = rounds(&mut [&mut taylor_driver, &mut taylor_rule, &mut nested_run]);
        println!();
        println!(
            "Order-4 tower of u at x = {POINT}: median (quartiles) over {ROUNDS} interleaved \
             rounds; times: medians, ns."
        );
        println!();
        println!("| | ÷ nested forward-over-forward | time (ns) |");
        println!("|---|---|---|");
        for (name, s) in [
            ("derivatives_1d (Taylor, driver)", &samples[0]),
            ("Taylor<f64, 4> rule", &samples[1]),
            ("nested_derivative ×4", &samples[2]),
        ] {
            println!(
                "| {name} | {} | {:.1} |",
                show(ratio(s, &samples[2]), None),
                median(s)
            );
        }
        println!();
    }
}
