//! trybuild cases: every supported construct compiles (`ui/pass`), every diagnostic
//! reads as written (`ui/fail`, with `.stderr`).

/// Every supported construct compiles and runs at the primal and dual readings.
#[test]
fn ui_pass() {
    trybuild::TestCases::new().pass("ui/pass/*.rs");
}

/// Diagnostics, compared against `.stderr` files written by this compiler version.
#[rustversion::stable(1.95)]
#[test]
fn ui_fail() {
    trybuild::TestCases::new().compile_fail("ui/fail/*.rs");
}

/// The `.stderr` files are tied to one compiler's wording: on another compiler the
/// fail cases are not compared, and this says so instead of passing silently.
#[rustversion::not(stable(1.95))]
#[test]
#[ignore = "ui/fail .stderr files are written for rustc 1.95"]
fn ui_fail() {
    eprintln!("skipped: ui/fail cases compare rustc 1.95 diagnostics");
}
