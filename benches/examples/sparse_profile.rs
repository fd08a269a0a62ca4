//! The Brusselator's sparse Jacobian at one grid side, for finding where an
//! evaluation's time goes: `residual`, `plan` (width 8), `w10`, `w12`, `wide` (width 16), `detect` or `prepare`
//! in a loop.
//!
//! ```text
//! perf record -g target/release/examples/sparse_profile plan 708 20
//! ```

use std::hint::black_box;
use std::time::Instant;

use lifted::sparse::{PatternMode, SparseJacobian, sparsity};
use lifted_benches::brusselator::{brusselator, initial};

/// Prepares outside the clock, so the time is the evaluations' alone.
fn plan_loop<const K: usize>(a: &(Vec<f64>, usize), reps: usize, start: &mut Instant) -> f64 {
    let mut plan = SparseJacobian::prepare(brusselator::Rule, a)
        .expect("a global pattern")
        .with_width::<K>();
    let (_, mut jac) = plan.jacobian(a).expect("the Jacobian");
    let mut acc = 0.0;
    *start = Instant::now();
    for _ in 0..reps {
        plan.jacobian_into(black_box(a), &mut jac)
            .expect("the Jacobian");
        acc += jac.val()[0];
    }
    acc
}

fn main() {
    let argv: Vec<String> = std::env::args().collect();
    let what = argv.get(1).map_or("plan", String::as_str);
    let m: usize = argv.get(2).and_then(|s| s.parse().ok()).unwrap_or(708);
    let reps: usize = argv.get(3).and_then(|s| s.parse().ok()).unwrap_or(20);
    let a = (initial(m), m);
    let mut start = Instant::now();
    let acc = match what {
        "residual" => (0..reps).map(|_| brusselator(black_box(&a.0), m)[0]).sum(),
        "plan" => plan_loop::<8>(&a, reps, &mut start),
        "w10" => plan_loop::<10>(&a, reps, &mut start),
        "w12" => plan_loop::<12>(&a, reps, &mut start),
        "wide" => plan_loop::<16>(&a, reps, &mut start),
        "prepare" => (0..reps)
            .map(|_| {
                SparseJacobian::prepare(brusselator::Rule, black_box(&a))
                    .expect("a global pattern")
                    .colors() as f64
            })
            .sum(),
        "detect" => (0..reps)
            .map(|_| {
                sparsity(brusselator::Rule, black_box(&a), PatternMode::Global)
                    .expect("a global pattern")
                    .col_idx()
                    .len() as f64
            })
            .sum(),
        other => panic!("unknown case {other}: residual, plan, w10, w12, wide, detect or prepare"),
    };
    let per = start.elapsed().as_secs_f64() / reps as f64;
    println!("{what} m = {m}: {:.3} ms per call ({acc})", per * 1e3);
}
