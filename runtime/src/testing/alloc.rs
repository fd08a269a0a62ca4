//! The allocation hook: a library cannot install a global allocator, so the test
//! binary that does registers a counter here, and `check_rule` reads it.

use std::sync::OnceLock;

static COUNTER: OnceLock<fn() -> u64> = OnceLock::new();

/// Registers the allocation counter [`check_rule`](super::check_rule) uses to check
/// that scalar rules do not allocate.
///
/// `counter` must return the number of heap allocations (`alloc`, `alloc_zeroed` and
/// `realloc` calls) made so far **by the calling thread**: test harnesses run tests on
/// several threads at once, and a process-wide count would see the other tests'
/// allocations. A counting global allocator with a thread-local counter gives exactly
/// that (see the example in the [module docs](super)).
///
/// The first registration wins; later calls change nothing. Returns `true` when this
/// call installed `counter`. Without a registered counter, the allocation check is
/// reported as unchecked (or fails, with
/// [`CheckOptions::require_allocation_counter`](super::CheckOptions::require_allocation_counter)).
pub fn set_allocation_counter(counter: fn() -> u64) -> bool {
    COUNTER.set(counter).is_ok()
}

/// The registered allocation counter, if any.
pub fn allocation_counter() -> Option<fn() -> u64> {
    COUNTER.get().copied()
}

/// Runs `f` and counts the allocations the current thread made meanwhile (`None`
/// without a registered counter).
pub(crate) fn counting<T>(f: impl FnOnce() -> T) -> (T, Option<u64>) {
    match allocation_counter() {
        Some(count) => {
            let before = count();
            let out = f();
            let after = count();
            (out, Some(after.wrapping_sub(before)))
        }
        None => (f(), None),
    }
}
