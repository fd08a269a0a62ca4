//! Checking rules: [`check_rule`], after Mooncake's `test_rule`.
//!
//! Every rule — hand-written or derived — satisfies the [`FRule`](crate::FRule)
//! contract; `check_rule` tests it at a point: the rule reproduces the primal function
//! (result and mutated arguments, bit for bit, at the primal reading and at every
//! width), its tangents agree with finite differences of the primal function, its
//! lanes are independent, and a scalar rule does not allocate. It returns a
//! [`CheckReport`] listing every check with its measured error, or a
//! [`CheckFailure`] naming what failed and by how much.
//!
//! ```
//! use lifted::testing::{check_rule, CheckKind, CheckOptions, SplitMix64};
//! use lifted::{FRule, Reading};
//!
//! /// x·y + sin(x), as a hand-written rule.
//! #[derive(Clone, Copy)]
//! struct Bilinear;
//!
//! impl FRule for Bilinear {
//!     type Float = f64;
//!     type Args = (f64, f64);
//!     type Output = f64;
//!     const CHUNK: usize = 2;
//!     const NAME: &'static str = "bilinear";
//!     fn primal(self, args: &mut (f64, f64)) -> f64 {
//!         args.0 * args.1 + args.0.sin()
//!     }
//!     fn frule<D: Reading<f64>>(self, args: &mut (D, D)) -> D {
//!         let (x, y) = *args;
//!         x * y + x.sin()
//!     }
//! }
//!
//! // Random points, every width up to 64.
//! let mut rng = SplitMix64::new(1);
//! let options = CheckOptions::new().widths(&[1, 2, 3, 8, 64]);
//! for _ in 0..3 {
//!     let point = (rng.uniform(-2.0, 2.0), rng.uniform(-2.0, 2.0));
//!     let report = check_rule(Bilinear, point, &options).unwrap();
//!     assert!(report.kind_passed(CheckKind::Derivative));
//! }
//! ```
//!
//! # Counting allocations
//!
//! A library cannot install a global allocator, so the allocation check needs the test
//! binary's help: it installs a counting allocator whose counter is **per thread**
//! (tests run in parallel), and registers the counter with
//! [`set_allocation_counter`] before checking. Without one, the check is reported as
//! unchecked. The `lifted-tests` crate has such an allocator; this is all it takes:
//!
//! ```
//! use std::alloc::{GlobalAlloc, Layout, System};
//! use std::cell::Cell;
//!
//! thread_local! {
//!     static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
//! }
//!
//! fn bump() {
//!     // `try_with`: the thread-local may already be gone while a thread exits.
//!     let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
//! }
//!
//! struct Counting;
//!
//! // SAFETY: every call is forwarded to the system allocator unchanged.
//! unsafe impl GlobalAlloc for Counting {
//!     unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
//!         bump();
//!         unsafe { System.alloc(layout) }
//!     }
//!     unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
//!         bump();
//!         unsafe { System.alloc_zeroed(layout) }
//!     }
//!     unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, size: usize) -> *mut u8 {
//!         bump();
//!         unsafe { System.realloc(ptr, layout, size) }
//!     }
//!     unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
//!         unsafe { System.dealloc(ptr, layout) }
//!     }
//! }
//!
//! #[global_allocator]
//! static GLOBAL: Counting = Counting;
//!
//! fn allocations_on_this_thread() -> u64 {
//!     ALLOCATIONS.with(Cell::get)
//! }
//!
//! lifted::testing::set_allocation_counter(allocations_on_this_thread);
//! // … check_rule(…) now checks that scalar rules do not allocate.
//! # let before = allocations_on_this_thread();
//! # let v = vec![1u8; 10];
//! # assert_eq!(allocations_on_this_thread() - before, 1);
//! # drop(v);
//! ```

mod alloc;
mod check;
mod derivative;
mod lanes;
mod options;
mod primal_state;
mod report;
mod rng;
mod ulps;
mod width;

pub use alloc::{allocation_counter, set_allocation_counter};
pub use check::check_rule;
pub use options::{
    Allocations, CheckOptions, DEFAULT_WIDTHS, LaneCheck, SUPPORTED_WIDTHS, Tolerances,
};
pub use report::{Check, CheckFailure, CheckKind, CheckReport, Status};
pub use rng::SplitMix64;
