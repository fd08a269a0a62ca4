//! `check_rule` with the suite's usual options, for integration tests that include it.

use lifted::FRule;
use lifted::drivers::ChunkScalar;
use lifted::testing::{CheckOptions, LaneCheck, check_rule};

/// Runs [`check_rule`] at widths 1, 2, 3, 8 and 16 with a reduction's lane tolerance
/// and asserts it passed.
pub fn check<R: FRule>(rule: R, args: R::Args)
where
    R::Float: ChunkScalar,
{
    let options = CheckOptions::new()
        .widths(&[1, 2, 3, 8, 16])
        .lanes(LaneCheck::reduction(64));
    let report = check_rule(rule, args, &options).expect("check_rule runs");
    assert!(report.passed(), "{report}");
}
