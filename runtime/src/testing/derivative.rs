//! The derivative check: each lane of a run's tangents against a five-point central
//! difference of the primal function.

use core::fmt::Write as _;

use super::options::Tolerances;
use super::report::{Status, Verdict};
use super::width::Run;
use crate::{FRule, Param, Scalar};

/// What the derivative check needs to evaluate the primal function along a lane.
pub(super) struct Probe<'a, R: FRule> {
    pub(super) rule: R,
    pub(super) args: &'a R::Args,
    pub(super) point: &'a [R::Float],
    pub(super) output_cotangent: Vec<f64>,
    pub(super) args_cotangent: Vec<f64>,
    pub(super) tolerances: &'a Tolerances,
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
    pub(super) fn check_lanes(&self, run: &Run<R>, tangents: &[R::Float], n: usize) -> Verdict {
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
