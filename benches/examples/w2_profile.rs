//! W2 at one size, for finding where a gradient's time goes: one implementation in a
//! loop (for instruction counts) or all of them in interleaved rounds (for times).
//!
//! ```text
//! valgrind --tool=callgrind target/release/examples/w2_profile lifted 16 1000
//! target/release/examples/w2_profile race 16
//! target/release/examples/w2_profile race 256 zs-16 zs-64 num-dual-4
//! ```
//!
//! Implementations: `hand` (the analytic gradient), `rule` (the derived rule alone at
//! `NDual<f64, 16>` on arguments lifted once, n ≤ 16), `lift` (lifting the arguments
//! alone, n ≤ 16), `lifted` (a prepared `GradientPlan`'s `gradient_into`, arguments
//! borrowed, buffers reused, as the bench times it), `lifted-into` (the driver's
//! `gradient_into`, which lifts into new buffers per call), `lifted-plain` (the plain
//! `lifted::gradient` call), `num-dual-C` (num-dual at chunk C = 1, 2, 4, 8 or 16; 2 is
//! its best at n = 16), `dense-W` and `zs-W` (a plan at a fixed reading and width W).
//! Take the difference of two loop lengths to leave out start-up.

use std::hint::black_box;
use std::time::Instant;

use lifted::drivers::{Driver, PassReading, PassWidth};
use lifted::{FRule, NDual, NDualArray, Param};
use lifted_benches::jvp::rosenbrock;
use lifted_benches::w2;

#[path = "../shared/w2_num_dual.rs"]
mod w2_num_dual;
use w2_num_dual::num_dual_gradient;

/// The arguments lifted to `NDual<f64, 16>`, input `i` seeded in lane `i`.
fn lift16(args: &(Vec<f64>,)) -> NDualArray<f64, 16> {
    let mut lane = 0;
    let (store,) = args.lift(&mut |v| {
        lane += 1;
        NDual::<f64, 16>::variable(v, lane - 1)
    });
    store
}

/// One gradient (or one piece of one) per call.
type Run = Box<dyn FnMut()>;

/// num-dual's gradient at chunk C.
fn num_dual_run<const C: usize>(x: Vec<f64>, mut grad: Vec<f64>) -> Run {
    let mut duals = Vec::new();
    Box::new(move || {
        black_box(num_dual_gradient::<C>(
            black_box(&x),
            &mut duals,
            black_box(&mut grad),
        ));
    })
}

/// The implementation named `which` at size `n`.
fn implementation(which: &str, n: usize) -> Run {
    let x = w2::input(n);
    let args = (x.clone(),);
    let mut grad = vec![0.0; n];
    match which {
        "hand" => Box::new(move || {
            black_box(w2::rosenbrock_gradient(black_box(&x), black_box(&mut grad)));
        }),
        "rule" => {
            let mut store = (lift16(&args),);
            Box::new(move || {
                black_box(rosenbrock::Rule.frule::<NDual<f64, 16>>(black_box(&mut store)));
            })
        }
        "lift" => Box::new(move || {
            black_box(lift16(black_box(&args)));
        }),
        "lifted" => planned(Driver::new(rosenbrock::Rule), args, grad),
        "lifted-into" => {
            let driver = Driver::new(rosenbrock::Rule);
            Box::new(move || {
                black_box(driver.gradient_into(black_box(&args), black_box(&mut grad))).ok();
            })
        }
        "lifted-plain" => Box::new(move || {
            black_box(lifted::gradient(rosenbrock::Rule, black_box(&args))).ok();
        }),
        "num-dual-1" => num_dual_run::<1>(x, grad),
        "num-dual-2" => num_dual_run::<2>(x, grad),
        "num-dual-4" => num_dual_run::<4>(x, grad),
        "num-dual-8" => num_dual_run::<8>(x, grad),
        "num-dual-16" => num_dual_run::<16>(x, grad),
        other => {
            let (reading, width) = other
                .strip_prefix("dense-")
                .map(|w| (PassReading::Dense, w))
                .or_else(|| {
                    other
                        .strip_prefix("zs-")
                        .map(|w| (PassReading::ZeroSkipping, w))
                })
                .unwrap_or_else(|| panic!("unknown implementation {other}"));
            let driver = Driver::new(rosenbrock::Rule)
                .reading(reading)
                .width(width.parse().expect("a width"));
            planned(driver, args, grad)
        }
    }
}

/// A plan prepared from `driver`, evaluated per call.
fn planned<W: PassWidth>(
    driver: Driver<rosenbrock::Rule, W>,
    args: (Vec<f64>,),
    mut grad: Vec<f64>,
) -> Run {
    let mut plan = driver.prepare_gradient(&args).expect("a plan");
    Box::new(move || {
        black_box(plan.gradient_into(black_box(&args), black_box(&mut grad))).ok();
    })
}

/// Interleaved rounds of every implementation that runs at size `n`: the median time of
/// each, and its ratio to num-dual's.
fn race(n: usize, extra: &[String]) {
    let mut names = vec![
        "hand",
        "lifted",
        "lifted-plain",
        "num-dual-2",
        "lifted-into",
    ];
    if n <= 16 {
        names.extend(["rule", "lift"]);
    }
    names.extend(extra.iter().map(String::as_str));
    let mut runs: Vec<Run> = names.iter().map(|w| implementation(w, n)).collect();
    let iters = (6400 / n).max(1);
    let mut samples = vec![Vec::new(); runs.len()];
    for round in 0..301 {
        for j in 0..runs.len() {
            let k = (j + round) % runs.len();
            let start = Instant::now();
            for _ in 0..iters {
                runs[k]();
            }
            samples[k].push(start.elapsed().as_secs_f64() * 1e9 / iters as f64);
        }
    }
    let medians: Vec<f64> = samples
        .iter_mut()
        .map(|v| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        })
        .collect();
    let num_dual = medians[3];
    for (name, m) in names.iter().zip(&medians) {
        println!("{name:>13}: {m:9.1} ns  ÷ num-dual-2 {:.3}", m / num_dual);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let which = args.get(1).map_or("lifted", String::as_str);
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(16);
    if which == "race" {
        race(n, args.get(3..).unwrap_or_default());
        return;
    }
    let iters: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let mut run = implementation(which, n);
    let start = Instant::now();
    for _ in 0..iters {
        run();
    }
    let per = start.elapsed().as_secs_f64() * 1e9 / iters as f64;
    println!("{which} n = {n}: {per:.0} ns per call");
}
