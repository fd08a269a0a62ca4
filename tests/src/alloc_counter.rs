//! A counting global allocator for test binaries, so `lifted::testing::check_rule` can
//! check that scalar rules do not allocate.
//!
//! A library cannot install a global allocator for the binaries that link it, so each
//! test binary that wants the check opts in with two lines:
//!
//! ```ignore
//! #[global_allocator]
//! static ALLOCATOR: lifted_tests::alloc_counter::CountingAllocator =
//!     lifted_tests::alloc_counter::CountingAllocator;
//! ```
//!
//! and calls [`install`] before checking (it is idempotent; call it at the top of each
//! test). The count is per thread, because the test harness runs tests on several
//! threads at once.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

thread_local! {
    // `const` initialisation with a type without `Drop`: no lazy registration, so
    // touching it from inside the allocator cannot allocate or recurse.
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn bump() {
    // `try_with`: the thread-local may be gone while the thread exits.
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

/// The system allocator, counting `alloc`, `alloc_zeroed` and `realloc` calls per
/// thread. Install it with `#[global_allocator]` in a test binary.
#[derive(Clone, Copy, Debug, Default)]
pub struct CountingAllocator;

// SAFETY: every method forwards to the system allocator with the caller's arguments
// unchanged, so `System`'s guarantees carry over; the counting touches only a
// thread-local `Cell` and never allocates.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        bump();
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract, which is `System`'s.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        bump();
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        bump();
        // SAFETY: `ptr` was allocated by this allocator, i.e. by `System`, with `layout`
        // (the caller's contract).
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` with `layout` (the caller's contract).
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// The number of allocations the calling thread has made so far. Counts only where
/// [`CountingAllocator`] is the global allocator; 0 otherwise.
pub fn allocations_on_this_thread() -> u64 {
    ALLOCATIONS.try_with(Cell::get).unwrap_or(0)
}

/// `true` when [`CountingAllocator`] is this binary's global allocator (an allocation
/// made now is counted).
pub fn is_counting() -> bool {
    let before = allocations_on_this_thread();
    drop(std::hint::black_box(Box::new(0u64)));
    allocations_on_this_thread() > before
}

/// Registers [`allocations_on_this_thread`] with
/// `lifted::testing::set_allocation_counter`. Idempotent.
///
/// # Panics
///
/// When [`CountingAllocator`] is not this binary's `#[global_allocator]`: the counter
/// would read 0 and the allocation check would pass without checking anything.
#[track_caller]
pub fn install() {
    assert!(
        is_counting(),
        "lifted_tests::alloc_counter::install: this binary's #[global_allocator] is not CountingAllocator"
    );
    lifted::testing::set_allocation_counter(allocations_on_this_thread);
}
