//! The allocation check of `check_rule`, in a binary that installs the counting
//! allocator: scalar rules must not allocate, rules over heap data are not held to it
//! unless asked.

use lifted::array::{ArrayOwned, ArrayRead};
use lifted::testing::{Allocations, CheckKind, CheckOptions, Status, check_rule};
use lifted::{FRule, Reading};
use lifted_tests::alloc_counter::{self, CountingAllocator};
use lifted_tests::rules::DoubleInPlace;

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

fn options() -> CheckOptions {
    alloc_counter::install();
    CheckOptions::new()
        .widths(&[1, 2, 3, 8, 64])
        .require_allocation_counter(true)
}

/// x·sin(y) + y.
#[derive(Clone, Copy, Debug, Default)]
struct Scalar2;

impl FRule for Scalar2 {
    type Float = f64;
    type Args = (f64, f64);
    type Output = f64;
    const CHUNK: usize = 2;
    const NAME: &'static str = "scalar2";
    fn primal(self, args: &mut (f64, f64)) -> f64 {
        args.0 * args.1.sin() + args.1
    }
    fn frule<D: Reading<f64>>(self, args: &mut (D, D)) -> D {
        let (x, y) = *args;
        x * y.sin() + y
    }
}

/// x + x + x, whose rule goes through a heap buffer the primal does not need.
#[derive(Clone, Copy, Debug, Default)]
struct TripleThroughVec;

impl FRule for TripleThroughVec {
    type Float = f32;
    type Args = (f32,);
    type Output = f32;
    const CHUNK: usize = 1;
    const NAME: &'static str = "triple_through_vec";
    fn primal(self, args: &mut (f32,)) -> f32 {
        args.0 + args.0 + args.0
    }
    fn frule<D: Reading<f32>>(self, args: &mut (D,)) -> D {
        #[expect(clippy::useless_vec, reason = "the heap allocation is the point")]
        let terms = vec![args.0; 3];
        terms[0] + terms[1] + terms[2]
    }
}

/// exp of each element, into a new vector.
#[derive(Clone, Copy, Debug, Default)]
struct ExpMap;

impl FRule for ExpMap {
    type Float = f64;
    type Args = (Vec<f64>,);
    type Output = Vec<f64>;
    const CHUNK: usize = 4;
    const NAME: &'static str = "exp_map";
    fn primal(self, args: &mut (Vec<f64>,)) -> Vec<f64> {
        args.0.iter().map(|v| v.exp()).collect()
    }
    fn frule<D: Reading<f64>>(self, args: &mut (D::Vec,)) -> D::Vec {
        let x = &args.0;
        let mut out = <D::Vec as ArrayOwned<D>>::with_capacity(ArrayRead::len(x));
        for i in 0..ArrayRead::len(x) {
            out.push(ArrayRead::get(x, i).exp());
        }
        out
    }
}

fn allocation_status(report: &lifted::testing::CheckReport) -> Status {
    report
        .of_kind(CheckKind::Allocation)
        .map(|c| c.status)
        .next()
        .expect("an allocation line")
}

#[test]
fn scalar_rules_are_checked_allocation_free() {
    let report = check_rule(Scalar2, (0.5, -1.5), &options()).unwrap();
    assert_eq!(allocation_status(&report), Status::Passed, "{report}");
}

#[test]
fn a_scalar_rule_that_allocates_fails() {
    let failure = check_rule(TripleThroughVec, (0.5,), &options()).unwrap_err();
    assert!(failure.failed(CheckKind::Allocation), "{failure}");
    // Everything else about the rule is right.
    assert_eq!(failure.failures().count(), 1, "{failure}");
    assert!(
        failure.to_string().contains("allocates 1 times"),
        "{failure}"
    );
    // Allowed, it passes.
    let allowed = options().allocations(Allocations::Allowed);
    let report = check_rule(TripleThroughVec, (0.5,), &allowed).unwrap();
    assert_eq!(allocation_status(&report), Status::Unchecked);
}

#[test]
fn rules_over_heap_data_are_not_held_to_it_unless_asked() {
    let x = vec![0.25, -1.0, 0.5];
    let report = check_rule(DoubleInPlace, (x.clone(),), &options()).unwrap();
    assert_eq!(allocation_status(&report), Status::Unchecked, "{report}");
    assert!(report.to_string().contains("not a scalar rule"), "{report}");

    // In place, the rule allocates nothing even over vectors.
    let forbidden = options().allocations(Allocations::Forbidden);
    let report = check_rule(DoubleInPlace, (x.clone(),), &forbidden).unwrap();
    assert_eq!(allocation_status(&report), Status::Passed, "{report}");

    // A rule returning a new vector must allocate.
    let report = check_rule(ExpMap, (x.clone(),), &options()).unwrap();
    assert_eq!(allocation_status(&report), Status::Unchecked, "{report}");
    let failure = check_rule(ExpMap, (x,), &forbidden).unwrap_err();
    assert!(failure.failed(CheckKind::Allocation), "{failure}");
}

#[test]
fn the_counter_counts_this_thread() {
    alloc_counter::install();
    let before = alloc_counter::allocations_on_this_thread();
    let v: Vec<u64> = std::hint::black_box(Vec::with_capacity(4));
    assert_eq!(alloc_counter::allocations_on_this_thread() - before, 1);
    drop(v);
    let other = std::thread::spawn(|| {
        let mut v = Vec::new();
        for i in 0..100u64 {
            v.push(i);
        }
        v.len()
    });
    let here = alloc_counter::allocations_on_this_thread();
    assert_eq!(other.join().ok(), Some(100));
    // The other thread's reallocations while its vector grew are not counted here.
    assert_eq!(alloc_counter::allocations_on_this_thread(), here);
}
