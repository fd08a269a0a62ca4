//! The linear-algebra primitives: W3 (a dense tanh chain's JVP with N = 1, 4, 16
//! lanes), the layout ablation (element-major block against parallel arrays) and an
//! LU solve of a 200 × 200 system with 8 lanes.
//!
//! * **W3** (`shared/benchmarks/WORKLOADS.md`): `y = tanh(W₃ tanh(W₂ tanh(W₁ x)))`,
//!   256 × 256 constant weights. The derived rule of the annotated chain (one GEMM per
//!   layer over every lane) against the primal GEMV chain (faer), a per-lane loop of
//!   GEMVs, and num-dual's `DualSVec64<N>` through the same chain. Target: N = 16 ÷
//!   primal ≤ 2.4.
//! * **Layout**: a scalar-heavy indexing loop (`sin(x_i)·x_{i+1} + x_i²` over 4096
//!   elements) and a BLAS-heavy product (`W x`, 256 × 256), both with 16 lanes, over the
//!   element-major block and over parallel arrays (lane-major, one buffer).
//! * **LU**: `A x = b`, n = 200, 8 lanes: `b` active with `A` constant (the factorization
//!   reused, the 8 tangent right-hand sides in one solve; target ÷ primal solve ≤ 1.5)
//!   and `A` active.
//!
//! criterion times each implementation; a post-pass then times them again in
//! interleaved rounds and prints the ratios (median and quartiles over the rounds).

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion};
use lifted::NDual;
use lifted::linalg::{Mat, solve};
use lifted_benches::interleave::{Batch, ROUNDS, batch, benchmarking, median, ratio, rounds, show};
use lifted_benches::layout::{
    self, LANES, LOOP_LEN, LU_DIM, LU_LANES, Lanes, MATRIX_DIM, seeded_block, system_matrix,
};
use lifted_benches::w3::{self, DIM, TanhChain};
use num_dual::{Derivative, DualNum, DualSVec64};

/// Target of the W3 N = 16 JVP ÷ the primal chain.
const TARGET_W3: f64 = 2.4;
/// Target of the LU solve with `b` active ÷ the primal solve.
const TARGET_LU: f64 = 1.5;

/// The W3 chain over num-dual's `DualSVec64<N>`: the same products and `tanh`.
fn num_dual_chain<const N: usize>(chain: &TanhChain, x: &[f64], t: &[f64]) -> Vec<DualSVec64<N>> {
    let mut h: Vec<DualSVec64<N>> = (0..DIM)
        .map(|i| {
            let partials: [f64; N] = core::array::from_fn(|k| t[k * DIM + i]);
            DualSVec64::new(x[i], Derivative::some(partials.into()))
        })
        .collect();
    for w in &chain.matrices {
        h = w
            .chunks_exact(DIM)
            .map(|row| {
                let mut s = DualSVec64::from(0.0);
                for (hj, &wj) in h.iter().zip(row) {
                    s += *hj * wj;
                }
                s.tanh()
            })
            .collect();
    }
    h
}

/// One named implementation with its batch.
struct Entry {
    name: String,
    run: Batch,
}

fn entry(name: impl Into<String>, run: Batch) -> Entry {
    Entry {
        name: name.into(),
        run,
    }
}

fn w3_entries() -> Vec<Entry> {
    let chain = std::rc::Rc::new(TanhChain::new());
    let (x, t) = (w3::point(), w3::tangents());
    let mut out = Vec::new();
    let (c, xc) = (chain.clone(), x.clone());
    out.push(entry(
        "primal (faer GEMV chain)",
        batch(move || c.primal(black_box(&xc))),
    ));
    let (c, xc) = (chain.clone(), x.clone());
    out.push(entry(
        "primal (annotated chain at f64)",
        batch(move || {
            let [w1, w2, w3] = &c.matrices;
            w3::chain(w1, w2, w3, black_box(&xc))
        }),
    ));
    macro_rules! widths {
        ($($n:literal),*) => {$(
            let (c, xc, tc) = (chain.clone(), x.clone(), t.clone());
            out.push(entry(
                concat!("lifted N=", $n),
                batch(move || c.jvp::<$n>(black_box(&xc), &tc)),
            ));
            let (c, xc, tc) = (chain.clone(), x.clone(), t.clone());
            let mut buf = w3::HandBuffers::default();
            out.push(entry(
                concat!("hand-written GEMM JVP N=", $n),
                batch(move || c.jvp_hand(black_box(&xc), &tc, $n, &mut buf)[0]),
            ));
            let (c, xc, tc) = (chain.clone(), x.clone(), t.clone());
            out.push(entry(
                concat!("per-lane GEMVs N=", $n),
                batch(move || c.jvp_per_lane(black_box(&xc), &tc, $n)),
            ));
            let (c, xc, tc) = (chain.clone(), x.clone(), t.clone());
            out.push(entry(
                concat!("num-dual DualSVec64 N=", $n),
                batch(move || num_dual_chain::<$n>(&c, black_box(&xc), &tc)),
            ));
        )*};
    }
    widths!(1, 4, 16);
    out
}

fn layout_entries() -> Vec<Entry> {
    let x = seeded_block::<LANES>(LOOP_LEN, 31);
    let lanes = Lanes::from_block(&x);
    let xm = seeded_block::<LANES>(MATRIX_DIM, 33);
    let lanes_m = Lanes::from_block(&xm);
    let w = layout::uniform(MATRIX_DIM * MATRIX_DIM, 35);
    let w2 = w.clone();
    vec![
        entry(
            "scalar loop, element-major",
            batch(move || layout::scalar_element_major(black_box(&x))),
        ),
        entry(
            "scalar loop, parallel arrays",
            batch(move || layout::scalar_parallel(black_box(&lanes))),
        ),
        entry(
            "W x, element-major",
            batch(move || layout::blas_element_major(&w, black_box(&xm))),
        ),
        entry(
            "W x, parallel arrays",
            batch(move || layout::blas_parallel(&w2, black_box(&lanes_m))),
        ),
    ]
}

fn lu_entries() -> Vec<Entry> {
    let n = LU_DIM;
    let a = system_matrix(n, 41);
    let b = layout::uniform(n, 43);
    let b_active = seeded_block::<LU_LANES>(n, 45);
    let a_active = {
        let mut block = seeded_block::<LU_LANES>(n * n, 47);
        block.as_primal_mut_slice().copy_from_slice(&a);
        block
    };
    let (a1, a2) = (a.clone(), a.clone());
    let b_for_a = b_active.clone();
    vec![
        entry(
            "primal solve",
            batch(move || solve(Mat::new(&a1[..], n, n), black_box(&b[..])).expect("regular")),
        ),
        entry(
            "b active, A constant",
            batch(move || {
                solve::frule::<NDual<f64, LU_LANES>>(Mat::new(&a2[..], n, n), black_box(&b_active))
                    .expect("regular")
            }),
        ),
        entry(
            "A and b active",
            batch(move || {
                solve::frule::<NDual<f64, LU_LANES>>(Mat::new(&a_active, n, n), black_box(&b_for_a))
                    .expect("regular")
            }),
        ),
    ]
}

fn criterion_group(c: &mut Criterion, name: &str, entries: &mut [Entry]) {
    let mut group = c.benchmark_group(name);
    group.sample_size(20);
    for e in entries {
        group.bench_function(BenchmarkId::from_parameter(&e.name), |b| {
            b.iter_custom(&mut e.run)
        });
    }
    group.finish();
}

/// The interleaved samples of every entry, ns per unit.
fn samples(entries: &mut [Entry]) -> Vec<Vec<f64>> {
    let mut batches: Vec<&mut Batch> = entries.iter_mut().map(|e| &mut e.run).collect();
    rounds(&mut batches)
}

fn index(entries: &[Entry], name: &str) -> usize {
    entries
        .iter()
        .position(|e| e.name == name)
        .unwrap_or_else(|| panic!("no entry {name}"))
}

fn w3_table(entries: &mut [Entry]) {
    let s = samples(entries);
    let primal = &s[index(entries, "primal (faer GEMV chain)")];
    println!("W3: dense tanh chain JVP, 3 × (256 × 256), ratios to the primal GEMV chain (faer)");
    println!();
    println!("| implementation | ÷ primal | median ns |");
    println!("|---|---|---|");
    for (e, t) in entries.iter().zip(&s) {
        let target = (e.name == "lifted N=16").then_some(TARGET_W3);
        println!(
            "| {} | {} | {:.0} |",
            e.name,
            show(ratio(t, primal), target),
            median(t)
        );
    }
    let (n1, n16) = (index(entries, "lifted N=1"), index(entries, "lifted N=16"));
    println!();
    println!(
        "lifted N=16 ÷ lifted N=1: {}",
        show(ratio(&s[n16], &s[n1]), None)
    );
    let lane = index(entries, "per-lane GEMVs N=16");
    println!(
        "lifted N=16 ÷ per-lane GEMVs N=16: {}",
        show(ratio(&s[n16], &s[lane]), None)
    );
    let hand = index(entries, "hand-written GEMM JVP N=16");
    println!(
        "lifted N=16 ÷ hand-written GEMM JVP N=16: {}",
        show(ratio(&s[n16], &s[hand]), None)
    );
    let nd = index(entries, "num-dual DualSVec64 N=16");
    println!(
        "lifted N=16 ÷ num-dual N=16: {}",
        show(ratio(&s[n16], &s[nd]), None)
    );
    println!();
}

fn pair_table(title: &str, entries: &mut [Entry], pairs: &[(&str, &str)]) {
    let s = samples(entries);
    println!("{title}");
    println!();
    println!("| numerator | denominator | ratio | numerator ns | denominator ns |");
    println!("|---|---|---|---|---|");
    for &(a, b) in pairs {
        let (i, j) = (index(entries, a), index(entries, b));
        let target = (a == "b active, A constant").then_some(TARGET_LU);
        println!(
            "| {a} | {b} | {} | {:.0} | {:.0} |",
            show(ratio(&s[i], &s[j]), target),
            median(&s[i]),
            median(&s[j])
        );
    }
    println!();
}

fn main() {
    let mut w3 = w3_entries();
    let mut layout = layout_entries();
    let mut lu = lu_entries();
    let mut criterion = Criterion::default().configure_from_args();
    criterion_group(&mut criterion, "linalg/w3", &mut w3);
    criterion_group(&mut criterion, "linalg/layout", &mut layout);
    criterion_group(&mut criterion, "linalg/lu", &mut lu);
    criterion.final_summary();

    // Only when benchmarking (`cargo bench`), not under `cargo test --benches` / `--list`.
    if benchmarking() {
        println!();
        println!(
            "Ratios: median (quartiles) over {ROUNDS} interleaved rounds of the ratio within a \
             round; ✗: target missed."
        );
        println!();
        w3_table(&mut w3);
        pair_table(
            &format!("Layout ablation, {LANES} lanes: element-major ÷ parallel arrays"),
            &mut layout,
            &[
                ("scalar loop, element-major", "scalar loop, parallel arrays"),
                ("W x, element-major", "W x, parallel arrays"),
            ],
        );
        pair_table(
            &format!("LU solve, n = {LU_DIM}, {LU_LANES} lanes, ÷ the primal solve"),
            &mut lu,
            &[
                ("b active, A constant", "primal solve"),
                ("A and b active", "primal solve"),
            ],
        );
    }
}
