//! `check_rule`: runs a rule at the primal reading and at several widths and compares
//! it with the primal function and with finite differences. This is the driver; each
//! check is in its own module: the primal state in `primal_state`, the derivative in
//! `derivative`, lane independence in `lanes`, allocations in `alloc`.

use super::alloc::{AllocationTally, counting};
use super::derivative::Probe;
use super::lanes::check_lane_independence;
use super::options::{CheckOptions, SUPPORTED_WIDTHS};
use super::primal_state::{State, compare_states};
use super::report::{CheckFailure, CheckKind, CheckReport, Status};
use super::rng::SplitMix64;
use super::width::{run_at_width, run_primal_reading};
use crate::drivers::ChunkScalar;
use crate::{FRule, Param, Scalar};

/// Checks a rule against its primal function, after Mooncake's `test_rule`.
///
/// `args` is the point to check at (owned values, as [`FRule::Args`]). With random
/// tangents ẋ (seeded, uniform in [-1, 1]) and random cotangents ȳ for the result and
/// x̄ for the arguments, it checks:
///
/// * **primal reading** — the rule at `D = Float` leaves the result and the arguments
///   exactly as [`FRule::primal`] does, bit for bit;
/// * for every width N of the options (1, 2, 3 and 8 by default; 64 on request):
///   * **primal state** — the primals of the result and of the (mutated) arguments
///     after the rule equal those after the primal function, bit for bit;
///   * **derivative** — lane by lane, ⟨ȳ, ẏ⟩ + ⟨x̄, ẋ_after⟩ agrees with the
///     five-point central difference of t ↦ ⟨ȳ, y(x + t ẋ)⟩ + ⟨x̄, x_after(x + t ẋ)⟩
///     computed with the primal function, for at least one of the steps, within
///     `atol + rtol · max(|AD|, |FD|)` plus the finite difference's rounding error;
///   * **lane independence** (N > 1) — the width-N run equals N width-1 runs, one
///     per lane, bit for bit or within [`LaneCheck::Ulps`](super::LaneCheck::Ulps);
/// * **allocation** — scalar rules do not allocate (see
///   [`Allocations`](super::Allocations)), counted when the test binary registered a
///   counter with [`set_allocation_counter`](super::set_allocation_counter), reported as
///   unchecked otherwise.
///
/// Every check runs; the result is the full [`CheckReport`] when all passed and a
/// [`CheckFailure`] holding it otherwise, whose message names each failed check and
/// says by how much it failed.
///
/// ```
/// use lifted::testing::{check_rule, CheckOptions};
/// use lifted::{FRule, Reading};
///
/// #[derive(Clone, Copy)]
/// struct Square;
///
/// impl FRule for Square {
///     type Float = f64;
///     type Args = (f64,);
///     type Output = f64;
///     const CHUNK: usize = 1;
///     const NAME: &'static str = "square";
///     fn primal(self, args: &mut (f64,)) -> f64 {
///         args.0 * args.0
///     }
///     fn frule<D: Reading<f64>>(self, args: &mut (D,)) -> D {
///         args.0 * args.0
///     }
/// }
///
/// let report = check_rule(Square, (1.5,), &CheckOptions::new()).unwrap();
/// assert!(report.passed());
/// println!("{report}");
/// ```
pub fn check_rule<R>(
    rule: R,
    args: R::Args,
    options: &CheckOptions,
) -> Result<CheckReport, CheckFailure>
where
    R: FRule,
    R::Float: ChunkScalar,
{
    let mut report = CheckReport::new(R::NAME, <R::Float as Scalar>::NAME, options.seed);
    let tolerances = options.tolerances::<R::Float>();
    let mut rng = SplitMix64::new(options.seed);

    let mut widths = Vec::new();
    for &n in &options.widths {
        if SUPPORTED_WIDTHS.contains(&n) {
            widths.push(n);
        } else {
            report.push(
                CheckKind::Options,
                Some(n),
                Status::Failed,
                None,
                format!("width {n} is not supported (supported: {SUPPORTED_WIDTHS:?})"),
            );
        }
    }

    // The reference: the primal function.
    let mut args_after = args.clone();
    let (output, primal_allocations) = counting(|| rule.primal(&mut args_after));
    let reference = State::of(&output, &args_after);
    let (_, heap_allocations) = counting(|| drop((args.clone(), output.clone())));
    let mut tally = AllocationTally::default();

    // The primal reading.
    let (out, after, allocations) = run_primal_reading(rule, &args);
    tally.add(allocations, "the primal reading");
    let (status, error, detail) = compare_states(
        &reference,
        &State::of(&out, &after),
        options.primal_ulps,
        "the primal reading",
    );
    report.push(CheckKind::PrimalReading, None, status, error, detail);

    let mut point = Vec::new();
    args.flatten(&mut point);
    let dim = point.len();

    for n in widths {
        let mut rng = rng.fork();
        let tangents: Vec<R::Float> = (0..dim * n)
            .map(|_| <R::Float as Scalar>::from_f64(rng.uniform(-1.0, 1.0)))
            .collect();
        let Some(run) = run_at_width(rule, &args, &tangents, n) else {
            continue;
        };
        tally.add(run.allocations, &format!("width {n}"));

        let (status, error, detail) = compare_states(
            &reference,
            &State::of(&run.output, &run.args),
            options.primal_ulps,
            &format!("the rule at width {n}"),
        );
        report.push(CheckKind::PrimalState, Some(n), status, error, detail);

        let probe = Probe {
            rule,
            args: &args,
            point: &point,
            output_cotangent: (0..reference.output.len())
                .map(|_| rng.uniform(-1.0, 1.0))
                .collect(),
            args_cotangent: (0..reference.args.len())
                .map(|_| rng.uniform(-1.0, 1.0))
                .collect(),
            tolerances: &tolerances,
        };
        let (status, error, detail) = probe.check_lanes(&run, &tangents, n);
        report.push(CheckKind::Derivative, Some(n), status, error, detail);

        if n > 1 {
            let (status, error, detail) =
                check_lane_independence(rule, &args, &run, &tangents, n, options.lanes, &mut tally);
            report.push(CheckKind::LaneIndependence, Some(n), status, error, detail);
        }
    }

    let scalar = primal_allocations == Some(0) && heap_allocations == Some(0);
    let (status, error, detail) = tally.verdict(options, scalar, primal_allocations);
    report.push(CheckKind::Allocation, None, status, error, detail);

    if report.passed() {
        Ok(report)
    } else {
        Err(CheckFailure::new(report))
    }
}
