//! `check_rule`: runs a rule at the primal reading and at several widths and compares
//! it with the primal function and with finite differences.

use core::fmt::Write as _;

use super::alloc::counting;
use super::options::{Allocations, CheckOptions, LaneCheck, SUPPORTED_WIDTHS, Tolerances};
use super::report::{CheckFailure, CheckKind, CheckReport, Status};
use super::rng::SplitMix64;
use super::width::{CheckScalar, Run, run_at_width, run_primal_reading};
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
///     per lane, bit for bit or within [`LaneCheck::Ulps`];
/// * **allocation** — scalar rules do not allocate (see [`Allocations`]), counted when
///   the test binary registered a counter with
///   [`set_allocation_counter`](super::set_allocation_counter), reported as unchecked
///   otherwise.
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
    R::Float: CheckScalar,
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

/// The primal state after a run: floats flattened, everything in `Debug` form (for the
/// parts without degrees of freedom: integers, lengths, constants).
struct State<F> {
    output: Vec<F>,
    args: Vec<F>,
    output_debug: String,
    args_debug: String,
}

impl<F: Scalar> State<F> {
    fn of<O: Param<F>, A: Param<F>>(output: &O, args: &A) -> Self {
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

type Verdict = (Status, Option<f64>, String);

/// Compares the primal state after a run with the primal function's.
fn compare_states<F: Scalar>(
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

/// What the derivative check needs to evaluate the primal function along a lane.
struct Probe<'a, R: FRule> {
    rule: R,
    args: &'a R::Args,
    point: &'a [R::Float],
    output_cotangent: Vec<f64>,
    args_cotangent: Vec<f64>,
    tolerances: &'a Tolerances,
}

/// The best agreement of one lane with finite differences.
struct LaneResult {
    ad: f64,
    fd: f64,
    step: f64,
    /// Error over tolerance: at most 1 passes.
    ratio: f64,
    allowed: f64,
}

impl<R: FRule> Probe<'_, R> {
    /// ⟨ȳ, y⟩ + ⟨x̄, x_after⟩ at `point + t · direction`, and the sum of the magnitudes
    /// of its terms (for the rounding error). `None` when the shapes change.
    fn eval(&self, direction: &[f64], t: f64) -> Option<(f64, f64)> {
        let moved: Vec<R::Float> = self
            .point
            .iter()
            .zip(direction)
            .map(|(&x, &d)| <R::Float as Scalar>::from_f64(x.to_f64() + t * d))
            .collect();
        let mut args = self.args.clone();
        args.unflatten(&mut moved.into_iter());
        let output = self.rule.primal(&mut args);
        let (mut out, mut after) = (Vec::new(), Vec::new());
        output.flatten(&mut out);
        args.flatten(&mut after);
        if out.len() != self.output_cotangent.len() || after.len() != self.args_cotangent.len() {
            return None;
        }
        let mut value = 0.0;
        let mut magnitude = 0.0;
        for (v, w) in out
            .iter()
            .zip(&self.output_cotangent)
            .chain(after.iter().zip(&self.args_cotangent))
        {
            let term = v.to_f64() * w;
            value += term;
            magnitude += term.abs();
        }
        Some((value, magnitude))
    }

    /// The five-point central difference along `direction` with step `t`, and a
    /// bound on its rounding error.
    fn difference(&self, direction: &[f64], t: f64) -> Option<(f64, f64)> {
        let (m2, a) = self.eval(direction, -2.0 * t)?;
        let (m1, b) = self.eval(direction, -t)?;
        let (p1, c) = self.eval(direction, t)?;
        let (p2, d) = self.eval(direction, 2.0 * t)?;
        let fd = (m2 - 8.0 * m1 + 8.0 * p1 - p2) / (12.0 * t);
        // Each evaluation is off by about an ulp of its terms' magnitudes.
        let noise = <R::Float as Scalar>::EPS * (a + 8.0 * b + 8.0 * c + d) / (12.0 * t);
        Some((fd, noise))
    }

    /// Checks one lane: tries the steps in order until one agrees. A step `h` moves
    /// the largest argument component by `h · max(1, |x|∞)`, whatever the size of the
    /// tangent, so the perturbation stays resolvable in the float type.
    fn lane(&self, ad: f64, direction: &[f64]) -> Option<LaneResult> {
        let dir_scale = direction.iter().fold(0.0f64, |m, d| m.max(d.abs()));
        let x_scale = self
            .point
            .iter()
            .fold(1.0f64, |m, x| m.max(x.to_f64().abs()));
        let mut best: Option<LaneResult> = None;
        for &h in &self.tolerances.steps {
            let (fd, noise) = if dir_scale > 0.0 {
                let Some(d) = self.difference(direction, h * x_scale / dir_scale) else {
                    continue;
                };
                d
            } else {
                (0.0, 0.0)
            };
            let allowed =
                self.tolerances.atol + self.tolerances.rtol * ad.abs().max(fd.abs()) + noise;
            let mut ratio = (ad - fd).abs() / allowed;
            if ratio.is_nan() {
                ratio = f64::INFINITY;
            }
            if best.as_ref().is_none_or(|b| ratio < b.ratio) {
                best = Some(LaneResult {
                    ad,
                    fd,
                    step: h,
                    ratio,
                    allowed,
                });
            }
            if ratio <= 1.0 {
                break;
            }
        }
        best
    }

    /// Checks every lane of a width-`n` run.
    fn check_lanes(&self, run: &Run<R>, tangents: &[R::Float], n: usize) -> Verdict {
        let (ny, nx) = (self.output_cotangent.len(), self.args_cotangent.len());
        if run.output_tangent.len() != ny * n || run.args_tangent.len() != nx * n {
            return (
                Status::Failed,
                None,
                format!(
                    "the rule's tangents hold {} + {} values, expected ({ny} + {nx}) × {n}",
                    run.output_tangent.len(),
                    run.args_tangent.len()
                ),
            );
        }
        let mut worst: Option<(usize, LaneResult)> = None;
        let mut failed = 0;
        for k in 0..n {
            let ad: f64 = (0..ny)
                .map(|j| self.output_cotangent[j] * run.output_tangent[j * n + k].to_f64())
                .chain(
                    (0..nx).map(|i| self.args_cotangent[i] * run.args_tangent[i * n + k].to_f64()),
                )
                .sum();
            let direction: Vec<f64> = (0..self.point.len())
                .map(|i| tangents[i * n + k].to_f64())
                .collect();
            let Some(result) = self.lane(ad, &direction) else {
                return (
                    Status::Failed,
                    None,
                    format!(
                        "lane {k}: the primal function's result or arguments change shape \
                         at every step, so finite differences cannot be taken"
                    ),
                );
            };
            if result.ratio > 1.0 {
                failed += 1;
            }
            if worst.as_ref().is_none_or(|(_, w)| result.ratio > w.ratio) {
                worst = Some((k, result));
            }
        }
        let Some((k, w)) = worst else {
            return (Status::Passed, Some(0.0), "no lanes".to_string());
        };
        let diff = (w.ad - w.fd).abs();
        let scale = w.ad.abs().max(w.fd.abs());
        let relative = if scale > 0.0 { diff / scale } else { 0.0 };
        if failed == 0 {
            let mut detail = if n == 1 {
                "the lane agrees with finite differences: ".to_string()
            } else {
                format!("{n} lanes agree with finite differences; worst lane {k}: ")
            };
            let _ = write!(
                detail,
                "AD {:.6e}, FD {:.6e} at step {:.0e}, off by {diff:.1e} (relative {relative:.1e}; {:.1e} of the tolerance)",
                w.ad, w.fd, w.step, w.ratio
            );
            (Status::Passed, Some(w.ratio), detail)
        } else {
            (
                Status::Failed,
                Some(w.ratio),
                format!(
                    "{failed} of {n} lanes disagree with finite differences; lane {k}: \
                     ⟨ȳ, ẏ⟩ + ⟨x̄, ẋ⟩ = {:.9e} by the rule, {:.9e} by finite differences \
                     (closest at step {:.0e}): off by {diff:.2e} (relative {relative:.2e}), \
                     tolerance {:.2e}",
                    w.ad, w.fd, w.step, w.allowed
                ),
            )
        }
    }
}

/// Compares a width-`n` run with `n` width-1 runs, one per lane.
fn check_lane_independence<R>(
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
    R::Float: CheckScalar,
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

/// The most allocations seen in one rule run, and where.
#[derive(Default)]
struct AllocationTally {
    runs: usize,
    uncounted: bool,
    most: u64,
    where_most: String,
}

impl AllocationTally {
    fn add(&mut self, allocations: Option<u64>, what: &str) {
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

    fn verdict(
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

/// Equal bits, or both NaN.
fn same_bits<F: Scalar>(a: F, b: F) -> bool {
    a.to_bits_u64() == b.to_bits_u64() || (a.is_nan() && b.is_nan())
}

/// The number of representable values between `a` and `b` (0 for `+0` and `-0`,
/// `u64::MAX` when exactly one is NaN).
fn ulps_between<F: Scalar>(a: F, b: F) -> u64 {
    if a.is_nan() || b.is_nan() {
        return if a.is_nan() && b.is_nan() {
            0
        } else {
            u64::MAX
        };
    }
    let sign = 1u64 << (F::BITS - 1);
    let key = |x: F| -> i128 {
        let bits = x.to_bits_u64();
        if bits & sign == 0 {
            i128::from(bits)
        } else {
            -i128::from(bits & !sign)
        }
    };
    u64::try_from((key(a) - key(b)).unsigned_abs()).unwrap_or(u64::MAX)
}

fn describe_ulps(ulps: u64) -> String {
    match ulps {
        0 => "zeros of opposite sign".to_string(),
        1 => "1 ulp apart".to_string(),
        u64::MAX => "one is NaN".to_string(),
        u => format!("{u} ulps apart"),
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

#[cfg(test)]
mod tests {
    use super::{same_bits, ulps_between};

    #[test]
    fn ulps_count_representable_values() {
        assert_eq!(ulps_between(1.0f64, 1.0 + f64::EPSILON), 1);
        assert_eq!(ulps_between(-1.0f64, -1.0 - f64::EPSILON), 1);
        assert_eq!(ulps_between(1.0f32, 1.0 + f32::EPSILON), 1);
        assert_eq!(ulps_between(0.0f64, -0.0), 0);
        assert_eq!(ulps_between(f64::from_bits(1), -f64::from_bits(1)), 2);
        assert_eq!(ulps_between(f64::NAN, 1.0), u64::MAX);
        assert!(!same_bits(0.0f64, -0.0));
        assert!(same_bits(f64::NAN, -f64::NAN));
    }
}
