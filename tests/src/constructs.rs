//! Shared by the `constructs_*` tests: checking a rule at several points, and building
//! the reproducer of a construct the macro does not compile yet.

use std::fs;
use std::path::Path;

use lifted::FRule;
use lifted::drivers::ChunkScalar;
use lifted::testing::{CheckOptions, check_rule};

use crate::alloc_counter;

/// Checks `rule` at every point, at widths 1, 2, 3 and 8, allocation counter required
/// (the test binary installs `alloc_counter::CountingAllocator`).
pub fn check_at<R: FRule>(rule: R, points: &[R::Args])
where
    R::Float: ChunkScalar,
{
    alloc_counter::install();
    let options = CheckOptions::new()
        .widths(&[1, 2, 3, 8])
        .require_allocation_counter(true);
    for args in points {
        match check_rule(rule, args.clone(), &options) {
            Ok(report) => assert!(report.passed(), "at {args:?}:\n{report}"),
            Err(failure) => panic!("at {args:?}:\n{failure}"),
        }
    }
}

/// The `main` of a reproducer: checks `RULE_AND_ARGS` at widths 1, 2, 3 and 8.
const REPRODUCER_MAIN: &str = r#"
fn main() {
    let options = lifted::testing::CheckOptions::new().widths(&[1, 2, 3, 8]);
    let report = lifted::testing::check_rule(RULE_AND_ARGS, &options)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(report.passed(), "{report}");
}
"#;

/// Builds and runs, with trybuild, a binary holding `items` and a `main` that checks
/// `rule_and_args` (`f::Rule, (…)`), written under `dir` (the test's
/// `CARGO_TARGET_TMPDIR`): the reproducer of a construct the macro does not compile yet.
pub fn reproducer_passes(dir: &str, name: &str, items: &str, rule_and_args: &str) {
    let source = format!(
        "use lifted::autodiff;\n{items}{}",
        REPRODUCER_MAIN.replace("RULE_AND_ARGS", rule_and_args)
    );
    let dir = Path::new(dir).join("constructs");
    fs::create_dir_all(&dir).expect("create the reproducer directory");
    let path = dir.join(format!("{name}.rs"));
    fs::write(&path, source).expect("write the reproducer");
    trybuild::TestCases::new().pass(&path);
}
