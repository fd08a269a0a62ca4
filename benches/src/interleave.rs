//! Interleaved timing for ratio tables: every implementation runs once per round, in
//! rotating order, so drift on a shared machine hits them alike; a ratio is taken
//! within each round and summarised by its median and quartiles over the rounds.
//!
//! criterion times each implementation on its own; the benches print their ratio
//! tables from these rounds after criterion has run.

use std::hint::black_box;
use std::time::{Duration, Instant};

/// Rounds of a ratio post-pass (each runs every implementation once).
pub const ROUNDS: usize = 301;
/// Length of one timed batch of a post-pass.
pub const BATCH: Duration = Duration::from_micros(200);

/// One implementation of one function: runs `iters` timed units, returns the time.
pub type Batch = Box<dyn FnMut(u64) -> Duration>;

/// Times `iters` calls of `f`, the result kept alive by `black_box`.
pub fn batch<R>(mut f: impl FnMut() -> R + 'static) -> Batch {
    Box::new(move |iters| {
        let start = Instant::now();
        for _ in 0..iters {
            black_box(f());
        }
        start.elapsed()
    })
}

/// Whether this run benchmarks (`cargo bench`), not `cargo test --benches` nor
/// `--list`: the interleaved post-passes run only then.
pub fn benchmarking() -> bool {
    let args: Vec<String> = std::env::args().collect();
    let has = |flag: &str| args.iter().any(|a| a == flag);
    has("--bench") && !has("--test") && !has("--list")
}

/// Per-round timings of each batch, in nanoseconds per timed unit: `ROUNDS` rounds,
/// each running every batch once, in rotating order, so that load on the machine hits
/// all of them alike.
pub fn rounds(batches: &mut [&mut Batch]) -> Vec<Vec<f64>> {
    rounds_n(batches, ROUNDS)
}

/// [`rounds`] with `n` rounds, for timed units long enough (tens of milliseconds) that
/// [`ROUNDS`] of them would take minutes.
pub fn rounds_n(batches: &mut [&mut Batch], n: usize) -> Vec<Vec<f64>> {
    // Calibrate: iterations per batch so one batch lasts about BATCH.
    let iters: Vec<u64> = batches
        .iter_mut()
        .map(|run| {
            let mut n = 1u64;
            loop {
                let t = run(n);
                if t >= BATCH / 4 || n >= 1 << 40 {
                    let per = t.as_secs_f64() / n as f64;
                    break ((BATCH.as_secs_f64() / per).ceil() as u64).max(1);
                }
                n *= 2;
            }
        })
        .collect();
    let mut samples = vec![Vec::with_capacity(n); batches.len()];
    for round in 0..n {
        for j in 0..batches.len() {
            let k = (j + round) % batches.len();
            let t = batches[k](iters[k]);
            samples[k].push(t.as_secs_f64() * 1e9 / iters[k] as f64);
        }
    }
    samples
}

/// The quartiles `[q1, median, q3]` of `v`.
pub fn quartiles(mut v: Vec<f64>) -> [f64; 3] {
    v.sort_by(f64::total_cmp);
    [v[v.len() / 4], v[v.len() / 2], v[3 * v.len() / 4]]
}

/// The median of `v`.
pub fn median(v: &[f64]) -> f64 {
    quartiles(v.to_vec())[1]
}

/// The quartiles over rounds of `a / b`, each ratio taken within one round.
pub fn ratio(a: &[f64], b: &[f64]) -> [f64; 3] {
    quartiles(a.iter().zip(b).map(|(x, y)| x / y).collect())
}

/// A ratio's median and quartiles, marked when the median misses `target`.
pub fn show(r: [f64; 3], target: Option<f64>) -> String {
    let miss = target.is_some_and(|t| r[1] > t);
    format!(
        "{:.3}{} ({:.3}–{:.3})",
        r[1],
        if miss { " ✗" } else { "" },
        r[0],
        r[2]
    )
}
