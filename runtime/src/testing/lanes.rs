//! The lane-independence check: a width-N run against N width-1 runs, one per lane.

use super::alloc::AllocationTally;
use super::options::LaneCheck;
use super::report::{Status, Verdict};
use super::ulps::{describe_ulps, same_bits, ulps_between};
use super::width::{Run, run_at_width};
use crate::drivers::ChunkScalar;
use crate::{FRule, Scalar};

/// Compares a width-`n` run with `n` width-1 runs, one per lane.
pub(super) fn check_lane_independence<R>(
    rule: R,
    args: &R::Args,
    run: &Run<R>,
    tangents: &[R::Float],
    n: usize,
    lanes: LaneCheck,
    tally: &mut AllocationTally,
) -> Verdict
where
    R: FRule,
    R::Float: ChunkScalar,
{
    let dim = tangents.len() / n;
    let eps = <R::Float as Scalar>::EPS;
    let mut worst = 0.0f64;
    let mut first_bad: Option<String> = None;
    let mut bad = 0usize;
    for k in 0..n {
        let column: Vec<R::Float> = (0..dim).map(|i| tangents[i * n + k]).collect();
        let Some(single) = run_at_width(rule, args, &column, 1) else {
            continue;
        };
        tally.add(single.allocations, "width 1 (lane runs)");
        let scale = run
            .output_tangent
            .iter()
            .chain(&run.args_tangent)
            .skip(k)
            .step_by(n)
            .fold(0.0f64, |m, v| m.max(v.to_f64().abs()));
        for (name, wide, one) in [
            ("result", &run.output_tangent, &single.output_tangent),
            ("argument", &run.args_tangent, &single.args_tangent),
        ] {
            if wide.len() != one.len() * n {
                return (
                    Status::Failed,
                    None,
                    format!(
                        "lane {k}: the {name} tangents hold {} values at width {n}, {} at width 1",
                        wide.len(),
                        one.len()
                    ),
                );
            }
            for (j, &b) in one.iter().enumerate() {
                let a = wide[j * n + k];
                if same_bits(a, b) {
                    continue;
                }
                let (ok, how) = match lanes {
                    LaneCheck::Bitwise => {
                        let ulps = ulps_between(a, b);
                        worst = worst.max(ulps as f64);
                        (false, describe_ulps(ulps))
                    }
                    LaneCheck::Ulps(allowed) => {
                        let (a64, b64) = (a.to_f64(), b.to_f64());
                        let s = scale.max(a64.abs()).max(b64.abs());
                        let mut e = (a64 - b64).abs() / (eps * s);
                        if e.is_nan() {
                            e = f64::INFINITY;
                        }
                        worst = worst.max(e);
                        (
                            e <= allowed,
                            format!("{e:.1} ulps of the lane's scale apart, allowed {allowed}"),
                        )
                    }
                };
                if !ok {
                    bad += 1;
                    if first_bad.is_none() {
                        first_bad = Some(format!(
                            "lane {k}, {name} tangent {j}: {a:?} at width {n}, {b:?} in a width-1 run ({how})"
                        ));
                    }
                }
            }
        }
    }
    match (first_bad, lanes) {
        (Some(first), _) => (
            Status::Failed,
            Some(worst),
            format!("{first}; {bad} tangent values differ"),
        ),
        (None, LaneCheck::Bitwise) => (
            Status::Passed,
            Some(0.0),
            format!("the {n} lanes equal {n} width-1 runs bit for bit"),
        ),
        (None, LaneCheck::Ulps(allowed)) => (
            Status::Passed,
            Some(worst),
            format!(
                "the {n} lanes equal {n} width-1 runs within {worst:.1} ulps (allowed {allowed})"
            ),
        ),
    }
}
