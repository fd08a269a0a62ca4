//! W2: the Rosenbrock gradient at n = 16, 256, 4096, lifted's `gradient` against the
//! hand-written analytic gradient and against num-dual's chunked forward mode.
//!
//! * lifted: a [`GradientPlan`](lifted::drivers::GradientPlan) prepared from the forward
//!   driver (`Driver::new(rule)`, named so that another mode of `lifted::gradient`
//!   would not change what is measured) and evaluated with `gradient_into`, of the
//!   `#[autodiff(forward, chunk = 8)]` Rosenbrock with nothing else set: passes at the
//!   rule's width 8, dense `NDual`s up to 16 inputs and zero-skipping `ZDual`s beyond;
//!   for reference also dense passes at widths 8 and 16 and zero-skipping passes at
//!   widths 4, 16 and 64. The arguments are borrowed, and the gradient buffer and the
//!   lifted arguments are reused across calls, as num-dual's buffers are. For
//!   reference, the plain `lifted::gradient` call (a new driver, new lifted arguments
//!   and a new gradient vector per call).
//! * num-dual: `DualSVec64<C>` for C = 1, 2, 4, 8, 16, C inputs seeded per pass
//!   (`Derivative::some` of a unit vector, every other input `Derivative::none()`, so
//!   num-dual skips their tangents as `ZDual` does), the dual input buffer built once
//!   per gradient and only the seeds moved between passes.
//!
//! Every implementation's gradient is checked against the hand-written one (1e-12
//! relative) before anything is timed. After criterion, a post-pass times all of them
//! again in interleaved rounds and prints, per n, each implementation ÷ the
//! hand-written gradient, and lifted ÷ num-dual's best chunk (target ≤ 1).

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion};
use lifted::drivers::{Driver, PassReading, PassWidth};
use lifted_benches::interleave::{Batch, ROUNDS, batch, benchmarking, median, ratio, rounds, show};
use lifted_benches::jvp::rosenbrock;
use lifted_benches::w2;

/// Target of lifted ÷ num-dual's best chunk.
const TARGET_NUM_DUAL: f64 = 1.0;

#[path = "../shared/w2_num_dual.rs"]
mod w2_num_dual;
use w2_num_dual::num_dual_gradient;

/// One timed implementation: a gradient into its own buffer.
struct Implementation {
    name: String,
    run: Batch,
}

/// Panics unless `got` matches the hand-written gradient to 1e-12 relative.
#[track_caller]
fn check(name: &str, n: usize, got: &[f64], want: &[f64]) {
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let ok = g == w || (g - w).abs() <= 1e-12 * g.abs().max(w.abs());
        assert!(ok, "n = {n}, {name}: ∂f/∂x{i} = {g}, hand-written {w}");
    }
}

/// A lifted gradient through a plan prepared from `driver`, checked, as a timed batch.
fn lifted_impl<W: PassWidth>(
    name: &str,
    n: usize,
    want: &[f64],
    driver: Driver<rosenbrock::Rule, W>,
) -> Implementation {
    let args = (w2::input(n),);
    let mut grad = vec![0.0; n];
    let mut plan = driver.prepare_gradient(&args).expect("plan");
    plan.gradient_into(&args, &mut grad).expect("gradient");
    check(name, n, &grad, want);
    Implementation {
        name: name.to_string(),
        run: batch(move || {
            plan.gradient_into(black_box(&args), black_box(&mut grad))
                .expect("gradient")
        }),
    }
}

/// The plain [`lifted::gradient`] call (a fresh `Driver`, the gradient returned in a new
/// vector), checked, as a timed batch: for reference next to [`LIFTED`].
fn lifted_plain_impl(n: usize, want: &[f64]) -> Implementation {
    let args = (w2::input(n),);
    let (_, grad) = lifted::gradient(rosenbrock::Rule, &args).expect("gradient");
    check(LIFTED_PLAIN, n, &grad, want);
    Implementation {
        name: LIFTED_PLAIN.to_string(),
        run: batch(move || lifted::gradient(rosenbrock::Rule, black_box(&args)).expect("gradient")),
    }
}

/// num-dual at chunk C, checked, as a timed batch.
fn num_dual_impl<const C: usize>(n: usize, want: &[f64]) -> Implementation {
    let x = w2::input(n);
    let mut duals = Vec::new();
    let mut grad = vec![0.0; n];
    num_dual_gradient::<C>(&x, &mut duals, &mut grad);
    let name = format!("num-dual C={C}");
    check(&name, n, &grad, want);
    Implementation {
        name,
        run: batch(move || num_dual_gradient::<C>(black_box(&x), &mut duals, black_box(&mut grad))),
    }
}

/// The names of the num-dual implementations start with this.
const NUM_DUAL: &str = "num-dual";
/// The name of lifted's default `gradient`.
const LIFTED: &str = "lifted gradient";
/// The name of the plain `lifted::gradient` call.
const LIFTED_PLAIN: &str = "lifted::gradient (plain call)";

/// Every implementation at size `n`, the hand-written gradient first.
fn implementations(n: usize) -> Vec<Implementation> {
    let x = w2::input(n);
    let mut want = vec![0.0; n];
    w2::rosenbrock_gradient(&x, &mut want);
    let hand = {
        let mut grad = vec![0.0; n];
        Implementation {
            name: "hand-written".to_string(),
            run: batch(move || w2::rosenbrock_gradient(black_box(&x), black_box(&mut grad))),
        }
    };
    let driver = || Driver::new(rosenbrock::Rule);
    let mut all = vec![
        hand,
        lifted_impl(LIFTED, n, &want, driver()),
        lifted_plain_impl(n, &want),
    ];
    for (reading, name, widths) in [
        (PassReading::Dense, "dense", &[8, 16][..]),
        (PassReading::ZeroSkipping, "zero-skipping", &[4, 16, 64][..]),
    ] {
        for &w in widths {
            let label = format!("lifted {name} N={w}");
            all.push(lifted_impl(
                &label,
                n,
                &want,
                driver().reading(reading).width(w),
            ));
        }
    }
    all.extend([
        num_dual_impl::<1>(n, &want),
        num_dual_impl::<2>(n, &want),
        num_dual_impl::<4>(n, &want),
        num_dual_impl::<8>(n, &want),
        num_dual_impl::<16>(n, &want),
    ]);
    all
}

/// One criterion group per size.
fn criterion_groups(c: &mut Criterion, sizes: &mut [(usize, Vec<Implementation>)]) {
    for (n, impls) in sizes {
        let mut group = c.benchmark_group(format!("w2_gradient/{n}"));
        for imp in impls.iter_mut() {
            group.bench_function(BenchmarkId::from_parameter(&imp.name), |b| {
                b.iter_custom(&mut imp.run)
            });
        }
        group.finish();
    }
}

/// Times every implementation again in interleaved rounds and prints the ratios.
fn ratio_table(sizes: &mut [(usize, Vec<Implementation>)]) {
    println!();
    println!(
        "W2 Rosenbrock gradient. Ratios: median (quartiles) over {ROUNDS} interleaved rounds \
         of the ratio within a round; times: medians, µs per gradient; ✗: target missed."
    );
    for (n, impls) in sizes {
        let mut batches: Vec<&mut Batch> = impls.iter_mut().map(|i| &mut i.run).collect();
        let samples = rounds(&mut batches);
        let hand = &samples[0];
        println!();
        println!("n = {n}");
        println!();
        println!("| implementation | ÷ hand-written | time (µs) |");
        println!("|---|---|---|");
        for (imp, s) in impls.iter().zip(&samples) {
            println!(
                "| {} | {} | {:.2} |",
                imp.name,
                show(ratio(s, hand), None),
                median(s) / 1e3
            );
        }
        let lifted = impls.iter().position(|i| i.name == LIFTED).expect("lifted");
        let best = impls
            .iter()
            .enumerate()
            .filter(|(_, i)| i.name.starts_with(NUM_DUAL))
            .min_by(|a, b| median(&samples[a.0]).total_cmp(&median(&samples[b.0])))
            .map(|(k, _)| k)
            .expect("num-dual");
        let plain = impls
            .iter()
            .position(|i| i.name == LIFTED_PLAIN)
            .expect("lifted plain");
        println!();
        println!(
            "n = {n}: {LIFTED} ÷ {} (num-dual's best chunk; target ≤ {TARGET_NUM_DUAL:.2}): {}",
            impls[best].name,
            show(
                ratio(&samples[lifted], &samples[best]),
                Some(TARGET_NUM_DUAL)
            )
        );
        println!(
            "n = {n}: {LIFTED_PLAIN} ÷ {}: {}",
            impls[best].name,
            show(ratio(&samples[plain], &samples[best]), None)
        );
    }
    println!();
}

fn main() {
    let mut sizes: Vec<(usize, Vec<Implementation>)> =
        w2::SIZES.iter().map(|&n| (n, implementations(n))).collect();
    let mut criterion = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20)
        .configure_from_args();
    criterion_groups(&mut criterion, &mut sizes);
    criterion.final_summary();

    // Only when benchmarking (`cargo bench`): `cargo test --benches` runs each
    // benchmark once as a test, and `--list` lists them.
    if benchmarking() {
        ratio_table(&mut sizes);
    }
}
