//! Sparse Jacobians of the 2-D Brusselator residual (`lifted_benches::brusselator`) on
//! m × m grids, 10⁴ to 10⁶ unknowns: the prepared plan's evaluation, pattern detection
//! and the local pattern's checking pass, each against one residual evaluation, and at
//! 10⁴ unknowns the sparse Jacobian against the dense one (`lifted::jacobian`).
//!
//! criterion times each case; an interleaved post-pass prints the ratios, each taken
//! within one round.

use std::hint::black_box;

use criterion::Criterion;
use lifted::sparse::{PatternMode, SparseJacobian, SparseOptions, sparsity};
use lifted_benches::brusselator::{brusselator, initial};
use lifted_benches::interleave::{Batch, batch, benchmarking, median, ratio, rounds_n, show};

/// Grid sides: 2m² ≈ 10⁴, 10⁵, 10⁶ unknowns.
const SIDES: [usize; 3] = [71, 224, 708];
/// The targets: sparse Jacobian ÷ residual at 10⁶ unknowns, sparse ÷ dense at 10⁴.
const TARGET_VS_RESIDUAL: f64 = 10.0;
const TARGET_VS_DENSE: f64 = 0.01;

/// The width of the one-pass plan: at least every grid's number of colors.
const WIDE: usize = 12;

type Args = (Vec<f64>, usize);

fn args(m: usize) -> Args {
    (initial(m), m)
}

fn residual_batch(a: &Args) -> Batch {
    let a = a.clone();
    batch(move || brusselator(black_box(&a.0), a.1))
}

/// The prepared plan's evaluation at width `K`: the default 8, or `WIDE` for the
/// Brusselator's 10–12 colors in one pass.
fn plan_batch<const K: usize>(a: &Args) -> Batch {
    let a = a.clone();
    let mut plan = SparseJacobian::prepare(brusselator::Rule, &a)
        .expect("a global pattern")
        .with_width::<K>();
    let (_, mut jac) = plan.jacobian(&a).expect("the Jacobian");
    batch(move || {
        plan.jacobian_into(black_box(&a), &mut jac)
            .map(|_| jac.val()[0])
    })
}

fn detect_batch(a: &Args) -> Batch {
    let a = a.clone();
    batch(move || {
        sparsity(brusselator::Rule, black_box(&a), PatternMode::Global).map(|p| p.col_idx().len())
    })
}

fn check_batch(a: &Args) -> Batch {
    let a = a.clone();
    let options = SparseOptions::new().mode(PatternMode::Local);
    let mut plan =
        SparseJacobian::prepare_with(brusselator::Rule, &a, options).expect("a local pattern");
    batch(move || plan.check(black_box(&a)))
}

fn dense_batch(a: &Args) -> Batch {
    let a = a.clone();
    batch(move || lifted::jacobian(brusselator::Rule, black_box(&a)).map(|(_, j)| j.data()[0]))
}

fn main() {
    // The plan's values are the dense Jacobian's before anything is timed.
    {
        let a = args(8);
        let (_, dense) = lifted::jacobian(brusselator::Rule, &a).unwrap();
        let mut plan = SparseJacobian::prepare(brusselator::Rule, &a).unwrap();
        let (_, jac) = plan.jacobian(&a).unwrap();
        for i in 0..jac.nrows() {
            for (&j, &v) in jac
                .symbolic()
                .col_idx_of_row_raw(i)
                .iter()
                .zip(jac.val_of_row(i))
            {
                assert!((v - dense[(i, j)]).abs() <= 1e-12 * dense[(i, j)].abs().max(1.0));
            }
        }
    }

    let mut criterion = Criterion::default().configure_from_args();
    for m in SIDES {
        let a = args(m);
        let mut group = criterion.benchmark_group(format!("sparse/brusselator/{}", 2 * m * m));
        group.sample_size(10);
        let mut cases: Vec<(&str, Batch)> = vec![
            ("residual", residual_batch(&a)),
            ("sparse jacobian", plan_batch::<8>(&a)),
            ("sparse jacobian, one pass", plan_batch::<WIDE>(&a)),
            ("detect", detect_batch(&a)),
            ("local check", check_batch(&a)),
        ];
        if m == SIDES[0] {
            cases.push(("dense jacobian", dense_batch(&a)));
        }
        for (name, mut f) in cases {
            group.bench_function(name, |b| b.iter_custom(&mut f));
        }
        group.finish();
    }
    criterion.final_summary();

    if !benchmarking() {
        return;
    }
    println!();
    println!("Ratios: median (quartiles) over interleaved rounds; times in ms.");
    println!();
    println!(
        "| unknowns | colors | sparse J ÷ residual | one pass (width {WIDE}) ÷ residual | detection ÷ residual | local check ÷ residual | sparse ÷ dense | residual | sparse J |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for m in SIDES {
        let a = args(m);
        let colors = SparseJacobian::prepare(brusselator::Rule, &a)
            .unwrap()
            .colors();
        assert!(
            colors <= WIDE,
            "{colors} colors need more than one pass at width {WIDE}"
        );
        let (mut r, mut s, mut d, mut c, mut w) = (
            residual_batch(&a),
            plan_batch::<8>(&a),
            detect_batch(&a),
            check_batch(&a),
            plan_batch::<WIDE>(&a),
        );
        let mut dense = (m == SIDES[0]).then(|| dense_batch(&a));
        let mut batches: Vec<&mut Batch> = vec![&mut r, &mut s, &mut d, &mut c, &mut w];
        if let Some(dense) = dense.as_mut() {
            batches.push(dense);
        }
        let rounds = if m == SIDES[0] { 5 } else { 11 };
        let t = rounds_n(&mut batches, rounds);
        let target = (m == SIDES[2]).then_some(TARGET_VS_RESIDUAL);
        let vs_dense = if t.len() > 5 {
            show(ratio(&t[1], &t[5]), Some(TARGET_VS_DENSE))
        } else {
            "–".into()
        };
        println!(
            "| {} | {colors} | {} | {} | {} | {} | {vs_dense} | {:.3} | {:.3} |",
            2 * m * m,
            show(ratio(&t[1], &t[0]), target),
            show(ratio(&t[4], &t[0]), target),
            show(ratio(&t[2], &t[0]), None),
            show(ratio(&t[3], &t[0]), None),
            median(&t[0]) / 1e6,
            median(&t[1]) / 1e6,
        );
    }
    println!();
}
