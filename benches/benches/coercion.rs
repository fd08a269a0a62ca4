//! What the coercions at a call cost at `NDual<f64, 8>`: a `&[f64]` rule called with a
//! fixed array, a sub-slice of one and (`&mut`) a fixed array, each against the same
//! rule given a view (`lifted_benches::coercion`). The timed unit is one call of the
//! caller's rule on prepared duals. After criterion, an interleaved post-pass prints
//! each ÷ the view call: what the copy into the element-major layout costs.

use std::hint::black_box;

use criterion::Criterion;
use lifted::{NDual, NDualArray};
use lifted_benches::coercion::{
    K, via_fixed, via_fixed_mut, via_slice, via_slice_mut, via_sub_slice,
};
use lifted_benches::interleave::{Batch, ROUNDS, batch, benchmarking, median, ratio, rounds, show};

/// Duals of width 8.
type D = NDual<f64, 8>;

/// The point: values `0.1 i − 0.3`, element `i` seeded in lane `i`.
fn point() -> [D; K] {
    core::array::from_fn(|i| D::variable(0.1 * i as f64 - 0.3, i))
}

fn main() {
    let a = point();
    let arr: NDualArray<f64, 8> = a.iter().copied().collect();
    // The callers agree before anything is timed.
    let view_value = via_slice::frule::<D>(arr.view());
    let fixed_value = via_fixed::frule::<D>(a);
    assert_eq!(view_value.value(), fixed_value.value());
    assert_eq!(view_value.partials(), fixed_value.partials());

    // Scaling by one keeps the values (each timed call scales the view in place).
    let s = D::constant(1.0);
    let arr2 = arr.clone();
    let mut arr3 = arr.clone();
    let mut cases: Vec<(&str, Batch)> = vec![
        (
            "view passed on (`&[f64]` → `&[f64]`)",
            batch(move || via_slice::frule::<D>(black_box(&arr2).view())),
        ),
        (
            "fixed array (`&[f64; 8]` → `&[f64]`)",
            batch(move || via_fixed::frule::<D>(black_box(a))),
        ),
        (
            "sub-slice of a fixed array (`&a[..]` → `&[f64]`)",
            batch(move || via_sub_slice::frule::<D>(black_box(a))),
        ),
        (
            "mutable view passed on (`&mut [f64]` → `&mut [f64]`)",
            batch(move || via_slice_mut::frule::<D>(black_box(&mut arr3).view_mut(), s)),
        ),
        (
            "fixed array (`&mut [f64; 8]` → `&mut [f64]`)",
            batch(move || via_fixed_mut::frule::<D>(black_box(a), s)),
        ),
    ];
    // Each coerced call and the view call it is measured against.
    let pairs = [(1, 0), (2, 0), (4, 3)];

    let mut criterion = Criterion::default().configure_from_args();
    {
        let mut group = criterion.benchmark_group("coercion");
        for (name, run) in &mut cases {
            group.bench_function(*name, |bn| bn.iter_custom(&mut *run));
        }
        group.finish();
    }
    criterion.final_summary();

    if !benchmarking() {
        return;
    }
    let mut batches: Vec<&mut Batch> = cases.iter_mut().map(|(_, b)| b).collect();
    let samples = rounds(&mut batches);
    println!();
    println!("Coercions at NDual<f64, 8>, K = {K}: median (quartiles) over {ROUNDS} rounds; ns.");
    println!();
    println!("| call | ÷ the view call | time | view call's time |");
    println!("|---|---|---|---|");
    for (c, v) in pairs {
        println!(
            "| {} | {} | {:.1} | {:.1} |",
            cases[c].0,
            show(ratio(&samples[c], &samples[v]), None),
            median(&samples[c]),
            median(&samples[v])
        );
    }
    println!();
}
