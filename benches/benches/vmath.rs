//! `lifted::vmath` against libm: `tanh` and `exp` over 16 384 values in [−4, 4], the
//! vectorised slice functions against a loop of `f64::tanh` / `f64::exp`, in one group.
//!
//! criterion times each in place, a fresh copy of the input per batch (the copy is not
//! timed). After criterion, an interleaved post-pass prints vmath ÷ libm, both written
//! from the input into a second buffer so that neither pays a copy.

use std::hint::black_box;

use criterion::{BatchSize, Criterion};
use lifted::vmath;
use lifted_benches::SplitMix64;
use lifted_benches::interleave::{Batch, ROUNDS, batch, benchmarking, median, ratio, rounds, show};

/// Values per call.
const LEN: usize = 16_384;

/// A function applied to a slice in place.
type InPlace = fn(&mut [f64]);

/// The input: uniform in [−4, 4], where `tanh` takes both of its forms.
fn input() -> Vec<f64> {
    let mut rng = SplitMix64::new(11);
    (0..LEN).map(|_| 8.0 * rng.uniform() - 4.0).collect()
}

fn libm_tanh(xs: &mut [f64]) {
    for x in xs {
        *x = x.tanh();
    }
}

fn libm_exp(xs: &mut [f64]) {
    for x in xs {
        *x = x.exp();
    }
}

/// `f` from `src` into a buffer of its own, for the post-pass.
fn into_batch(src: &[f64], f: fn(&[f64], &mut [f64])) -> Batch {
    let (src, mut dst) = (src.to_vec(), vec![0.0; src.len()]);
    batch(move || {
        f(black_box(&src), &mut dst);
        dst[0]
    })
}

fn main() {
    let xs = input();
    // Both give the same values to an ulp or two before anything is timed.
    let close = |a: &[f64], b: &[f64]| {
        a.iter()
            .zip(b)
            .all(|(x, y)| (x - y).abs() <= 4.0 * f64::EPSILON * y.abs())
    };
    let (mut v, mut l) = (xs.clone(), xs.clone());
    vmath::tanh_in_place(&mut v);
    libm_tanh(&mut l);
    assert!(close(&v, &l), "tanh");
    let (mut v, mut l) = (xs.clone(), xs.clone());
    vmath::exp_in_place(&mut v);
    libm_exp(&mut l);
    assert!(close(&v, &l), "exp");

    let mut criterion = Criterion::default().configure_from_args();
    {
        let mut group = criterion.benchmark_group("vmath/16384");
        let cases: [(&str, InPlace); 4] = [
            ("tanh/libm", libm_tanh),
            ("tanh/vmath", vmath::tanh_in_place),
            ("exp/libm", libm_exp),
            ("exp/vmath", vmath::exp_in_place),
        ];
        for (name, f) in cases {
            group.bench_function(name, |b| {
                b.iter_batched_ref(|| xs.clone(), |buf| f(buf), BatchSize::LargeInput)
            });
        }
        group.finish();
    }
    criterion.final_summary();

    if !benchmarking() {
        return;
    }
    let mut pairs = [
        (
            "tanh",
            into_batch(&xs, |s, d| {
                for (d, &s) in d.iter_mut().zip(s) {
                    *d = s.tanh();
                }
            }),
            into_batch(&xs, vmath::tanh_into),
        ),
        (
            "exp",
            into_batch(&xs, |s, d| {
                for (d, &s) in d.iter_mut().zip(s) {
                    *d = s.exp();
                }
            }),
            into_batch(&xs, vmath::exp_into),
        ),
    ];
    let mut batches: Vec<&mut Batch> = Vec::new();
    for (_, libm, vm) in &mut pairs {
        batches.push(libm);
        batches.push(vm);
    }
    let samples = rounds(&mut batches);
    println!();
    println!(
        "Ratios: median (quartiles) over {ROUNDS} interleaved rounds; times in µs per {LEN} values."
    );
    println!();
    println!("| function | vmath ÷ libm | libm | vmath |");
    println!("|---|---|---|---|");
    for (k, (name, _, _)) in pairs.iter().enumerate() {
        let (libm, vm) = (&samples[2 * k], &samples[2 * k + 1]);
        println!(
            "| {name} | {} | {:.1} | {:.1} |",
            show(ratio(vm, libm), Some(1.0)),
            median(libm) / 1e3,
            median(vm) / 1e3,
        );
    }
    println!();
}
