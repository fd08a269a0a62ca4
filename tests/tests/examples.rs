//! The examples that check themselves run as tests too, so CI runs them.

/// `runtime/examples/primitives.rs`: user primitives (FFI, implicit function, a local
/// function with a faster rule) called from annotated functions.
#[allow(dead_code)]
#[path = "../../runtime/examples/primitives.rs"]
mod primitives;

#[test]
fn user_primitives_pass_check_rule() {
    assert!(primitives::run());
}
