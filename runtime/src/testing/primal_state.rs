//! The primal checks: the result and the (mutated) arguments after a run of the rule
//! against those after the primal function, bit for bit or within some ulps.

use super::report::{Status, Verdict};
use super::ulps::{describe_ulps, same_bits, ulps_between};
use crate::{Param, Scalar};

/// The primal state after a run: floats flattened, everything in `Debug` form (for the
/// parts without degrees of freedom: integers, lengths, constants).
pub(super) struct State<F> {
    pub(super) output: Vec<F>,
    pub(super) args: Vec<F>,
    output_debug: String,
    args_debug: String,
}

impl<F: Scalar> State<F> {
    pub(super) fn of<O: Param<F>, A: Param<F>>(output: &O, args: &A) -> Self {
        let mut out = Vec::new();
        output.flatten(&mut out);
        let mut flat_args = Vec::new();
        args.flatten(&mut flat_args);
        Self {
            output: out,
            args: flat_args,
            output_debug: format!("{output:?}"),
            args_debug: format!("{args:?}"),
        }
    }
}

/// Compares the primal state after a run with the primal function's.
pub(super) fn compare_states<F: Scalar>(
    reference: &State<F>,
    got: &State<F>,
    allowed_ulps: u64,
    what: &str,
) -> Verdict {
    for (name, r, g) in [
        ("result", &reference.output, &got.output),
        ("arguments", &reference.args, &got.args),
    ] {
        if r.len() != g.len() {
            return (
                Status::Failed,
                None,
                format!(
                    "the {name} hold {} values after {what}, {} after the primal",
                    g.len(),
                    r.len()
                ),
            );
        }
    }
    let mut worst = 0u64;
    let mut first_bad: Option<String> = None;
    let mut bad = 0usize;
    let pairs = reference
        .output
        .iter()
        .zip(&got.output)
        .map(|p| ("result", p))
        .chain(
            reference
                .args
                .iter()
                .zip(&got.args)
                .map(|p| ("argument", p)),
        );
    let mut index = [0usize; 2];
    for (name, (&r, &g)) in pairs {
        let slot = usize::from(name == "argument");
        let i = index[slot];
        index[slot] += 1;
        if same_bits(r, g) {
            continue;
        }
        let ulps = ulps_between(r, g);
        worst = worst.max(ulps);
        if allowed_ulps == 0 || ulps > allowed_ulps {
            bad += 1;
            if first_bad.is_none() {
                first_bad = Some(format!(
                    "{name} value {i} is {g:?} after {what}, {r:?} after the primal ({})",
                    describe_ulps(ulps)
                ));
            }
        }
    }
    let count = reference.output.len() + reference.args.len();
    if let Some(first) = first_bad {
        return (
            Status::Failed,
            Some(worst as f64),
            format!("{first}; {bad} of {count} values differ"),
        );
    }
    if allowed_ulps == 0 {
        for (name, r, g) in [
            ("result", &reference.output_debug, &got.output_debug),
            ("arguments", &reference.args_debug, &got.args_debug),
        ] {
            if r != g {
                return (
                    Status::Failed,
                    Some(0.0),
                    format!(
                        "the {name} differ after {what}: {} instead of {}",
                        shorten(g),
                        shorten(r)
                    ),
                );
            }
        }
        (
            Status::Passed,
            Some(0.0),
            format!(
                "result and arguments bit for bit as the primal's ({} + {} values)",
                reference.output.len(),
                reference.args.len()
            ),
        )
    } else {
        (
            Status::Passed,
            Some(worst as f64),
            format!(
                "result and arguments within {worst} ulps of the primal's (allowed {allowed_ulps}; {count} values)"
            ),
        )
    }
}

fn shorten(s: &str) -> String {
    const MAX: usize = 160;
    if s.chars().count() <= MAX {
        s.to_string()
    } else {
        let head: String = s.chars().take(MAX).collect();
        format!("{head}…")
    }
}
