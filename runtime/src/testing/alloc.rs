//! The allocation hook and check: a library cannot install a global allocator, so the
//! test binary that does registers a counter here; `check_rule` counts each run of the
//! rule with it and the tally below gives the allocation check's verdict.

use std::sync::OnceLock;

use super::options::{Allocations, CheckOptions};
use super::report::{Status, Verdict};

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

/// The most allocations seen in one rule run, and where.
#[derive(Default)]
pub(super) struct AllocationTally {
    runs: usize,
    uncounted: bool,
    most: u64,
    where_most: String,
}

impl AllocationTally {
    pub(super) fn add(&mut self, allocations: Option<u64>, what: &str) {
        self.runs += 1;
        match allocations {
            None => self.uncounted = true,
            Some(a) if a > self.most => {
                self.most = a;
                self.where_most = what.to_string();
            }
            Some(_) => {}
        }
    }

    pub(super) fn verdict(
        &self,
        options: &CheckOptions,
        scalar: bool,
        primal_allocations: Option<u64>,
    ) -> Verdict {
        if options.allocations == Allocations::Allowed {
            return (
                Status::Unchecked,
                None,
                "allocations allowed by the options".to_string(),
            );
        }
        if self.uncounted {
            let status = if options.require_counter {
                Status::Failed
            } else {
                Status::Unchecked
            };
            return (
                status,
                None,
                "no allocation counter registered (see lifted::testing::set_allocation_counter)"
                    .to_string(),
            );
        }
        if options.allocations == Allocations::Auto && !scalar {
            return (
                Status::Unchecked,
                None,
                format!(
                    "not a scalar rule (the primal allocates {} times or its arguments or result own heap data); \
                     the rule allocates at most {} times per run",
                    primal_allocations.unwrap_or(0),
                    self.most
                ),
            );
        }
        if self.most == 0 {
            (
                Status::Passed,
                Some(0.0),
                format!("no allocation in {} runs of the rule", self.runs),
            )
        } else {
            (
                Status::Failed,
                Some(self.most as f64),
                format!(
                    "the rule allocates {} times in one run ({}), a scalar rule must not allocate",
                    self.most, self.where_most
                ),
            )
        }
    }
}
