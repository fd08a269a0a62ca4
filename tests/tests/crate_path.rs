//! The runtime reached through another path: a crate that re-exports `lifted` (a
//! framework built on it) names that path with `crate = …`, on `#[autodiff]` and on
//! `#[derive(Lift)]` alike, and the generated code then never names `::lifted`.

/// The runtime under another name, as a framework re-exporting it would offer it.
mod engine {
    pub use lifted as ad;
}

use engine::ad;
use lifted_tests::alloc_counter::CountingAllocator;

/// Counts allocations, so that `check_rule` also checks that the rule allocates nothing.
#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// A spring whose stiffness is differentiated and whose rest length is not.
#[derive(Clone, Debug, PartialEq, ad::Lift)]
#[lift(crate = crate::engine::ad)]
pub struct Spring {
    /// Stiffness.
    pub k: f64,
    /// Rest length (a constant).
    #[constant]
    pub rest: f64,
}

/// Elastic energy `k (x − rest)² / 2`.
#[ad::autodiff(forward, chunk = 2, crate = crate::engine::ad)]
pub fn energy(s: &Spring, x: f64) -> f64 {
    let stretch = x - s.rest;
    0.5 * s.k * stretch * stretch
}

#[test]
fn a_reexported_runtime_path_reaches_the_rule_and_the_derive() {
    let s = Spring { k: 3.0, rest: 0.5 };
    let x = 2.0;
    assert_eq!(energy(&s, x), 0.5 * 3.0 * 1.5 * 1.5);
    lifted_tests::constructs::check_at(energy::Rule, &[(s.clone(), x), (s, -1.25)]);
}

#[test]
fn the_partials_are_the_closed_form() {
    let (k, rest, x) = (3.0, 0.5, 2.0);
    let (value, grad) = ad::gradient(energy::Rule, (Spring { k, rest }, x)).expect("gradient");
    assert_eq!(value, 0.5 * k * (x - rest) * (x - rest));
    // The active inputs in order: the stiffness, then x; the rest length is a constant.
    assert_eq!(grad.len(), 2);
    assert!(
        (grad[0] - 0.5 * (x - rest) * (x - rest)).abs() < 1e-12,
        "∂E/∂k = {}",
        grad[0]
    );
    assert!(
        (grad[1] - k * (x - rest)).abs() < 1e-12,
        "∂E/∂x = {}",
        grad[1]
    );
}
