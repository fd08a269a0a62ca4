//! `check_rule` must reject wrong rules — a wrong derivative, a mutation that differs
//! from the primal's, mixed lanes, a primal reading that is not the primal — naming the
//! failed check, and must pass good ones.
//!
//! This binary installs no counting allocator: the allocation check is reported as
//! unchecked here (`check_rule_alloc.rs` runs it).

use std::any::Any;

use lifted::array::{ArrayRead, ArrayWrite};
use lifted::testing::{
    CheckFailure, CheckKind, CheckOptions, CheckReport, LaneCheck, SplitMix64, Status, check_rule,
};
use lifted::{Constant, FRule, NDual, Param, Reading, Real};
use lifted_tests::rules::{DoubleInPlace, scale_leading};

/// Asserts that the check failed with a check of `kind`, named in the message.
#[track_caller]
fn assert_fails(result: Result<CheckReport, CheckFailure>, kind: CheckKind) -> CheckFailure {
    match result {
        Ok(report) => panic!("expected `{kind}` to fail, but every check passed:\n{report}"),
        Err(failure) => {
            assert!(
                failure.failed(kind),
                "expected `{kind}` to fail:\n{failure}"
            );
            let message = failure.to_string();
            assert!(
                message.lines().next().unwrap_or("").contains(kind.name()),
                "the first line should name `{kind}`:\n{message}"
            );
            failure
        }
    }
}

/// Asserts that the check passed, printing the failure otherwise.
#[track_caller]
fn assert_passes(result: Result<CheckReport, CheckFailure>) -> CheckReport {
    match result {
        Ok(report) => report,
        Err(failure) => panic!("{failure}"),
    }
}

fn wide() -> CheckOptions {
    CheckOptions::new().widths(&[1, 2, 3, 8, 64])
}

// ---------------------------------------------------------------------------------
// Good rules.

/// 2·hypot(x, y), the pattern for hand-written rules, in `f64` and `f32`.
macro_rules! scaled_hypot {
    ($name:ident, $f:ident, $label:literal) => {
        #[derive(Clone, Copy, Debug, Default)]
        struct $name;

        impl FRule for $name {
            type Float = $f;
            type Args = ($f, $f);
            type Output = $f;
            const CHUNK: usize = 2;
            const NAME: &'static str = $label;
            fn primal(self, args: &mut ($f, $f)) -> $f {
                args.0.hypot(args.1) * 2.0
            }
            fn frule<D: Reading<$f>>(self, args: &mut (D, D)) -> D {
                let (x, y) = *args;
                x.hypot(y) * 2.0
            }
        }
    };
}

scaled_hypot!(ScaledHypot, f64, "scaled_hypot");
scaled_hypot!(ScaledHypot32, f32, "scaled_hypot_f32");

/// A rule with a constant, an integer and a fixed array among its arguments, and a
/// tuple result: `(c·Σ aᵢ^n, x·y)`.
#[derive(Clone, Copy, Debug, Default)]
struct Mixed;

impl FRule for Mixed {
    type Float = f64;
    type Args = (Constant<f64>, i32, [f64; 3], f64, f64);
    type Output = (f64, f64);
    const CHUNK: usize = 3;
    const NAME: &'static str = "mixed";
    fn primal(self, args: &mut Self::Args) -> (f64, f64) {
        let (c, n, a, x, y) = *args;
        (c.0 * a.iter().map(|v| v.powi(n)).sum::<f64>(), x * y)
    }
    fn frule<D: Reading<f64>>(self, args: &mut <Self::Args as Param<f64>>::Store<D>) -> (D, D) {
        let (c, n, a, x, y) = *args;
        (a.iter().map(|v| v.powi(n)).sum::<D>() * c, x * y)
    }
}

#[test]
fn good_rules_pass_every_check() {
    let mut rng = SplitMix64::new(11);
    for _ in 0..4 {
        let (x, y) = (rng.uniform(-3.0, 3.0), rng.uniform(-3.0, 3.0));
        let report = assert_passes(check_rule(ScaledHypot, (x, y), &wide()));
        for kind in [
            CheckKind::PrimalReading,
            CheckKind::PrimalState,
            CheckKind::Derivative,
            CheckKind::LaneIndependence,
        ] {
            assert!(report.kind_passed(kind), "{kind} did not run:\n{report}");
        }
        assert_passes(check_rule(ScaledHypot32, (x as f32, y as f32), &wide()));
    }
    let v: Vec<f64> = (0..7).map(|_| rng.uniform(-1.0, 1.0)).collect();
    assert_passes(check_rule(DoubleInPlace, (v,), &wide()));
    assert_passes(check_rule(
        Mixed,
        (Constant(1.5), 3, [0.5, -1.25, 2.0], 0.75, -2.0),
        &wide(),
    ));
}

#[test]
fn the_report_shows_every_check_and_its_error() {
    let report = assert_passes(check_rule(ScaledHypot, (0.3, -1.2), &wide()));
    let text = report.to_string();
    assert!(text.contains("scaled_hypot"), "{text}");
    for label in [
        "primal reading",
        "primal state (N = 1)",
        "derivative (N = 64)",
        "lane independence (N = 64)",
        "allocation",
    ] {
        assert!(text.contains(label), "no `{label}` line:\n{text}");
    }
    // 1 primal reading + 5 widths × (state, derivative) + 4 lane checks + allocation.
    assert_eq!(report.checks.len(), 1 + 5 * 2 + 4 + 1, "{text}");
    for check in &report.checks {
        if check.kind != CheckKind::Allocation {
            assert!(check.error.is_some(), "{check} has no measured error");
        }
    }
}

#[test]
fn allocations_are_unchecked_without_a_counter() {
    let report = assert_passes(check_rule(ScaledHypot, (1.0, 2.0), &CheckOptions::new()));
    let allocation = report
        .of_kind(CheckKind::Allocation)
        .next()
        .expect("an allocation line");
    assert_eq!(allocation.status, Status::Unchecked);
    assert!(allocation.detail.contains("no allocation counter"));

    let strict = CheckOptions::new().require_allocation_counter(true);
    assert_fails(
        check_rule(ScaledHypot, (1.0, 2.0), &strict),
        CheckKind::Allocation,
    );
}

#[test]
fn unsupported_widths_are_reported() {
    let options = CheckOptions::new().widths(&[1, 5]);
    let failure = assert_fails(
        check_rule(ScaledHypot, (1.0, 2.0), &options),
        CheckKind::Options,
    );
    assert!(failure.to_string().contains("width 5 is not supported"));
}

// ---------------------------------------------------------------------------------
// Wrong derivatives.

/// sin(x) with derivative `factor · cos(x)`, through `Reading::compose`, in `f64` and
/// `f32`.
macro_rules! scaled_sin_derivative {
    ($name:ident, $f:ident, $label:literal) => {
        #[derive(Clone, Copy, Debug)]
        struct $name($f);

        impl FRule for $name {
            type Float = $f;
            type Args = ($f,);
            type Output = $f;
            const CHUNK: usize = 1;
            const NAME: &'static str = $label;
            fn primal(self, args: &mut ($f,)) -> $f {
                args.0.sin()
            }
            fn frule<D: Reading<$f>>(self, args: &mut (D,)) -> D {
                let x = args.0.primal_scalar();
                args.0.compose(&[x.sin(), self.0 * x.cos()])
            }
        }
    };
}

scaled_sin_derivative!(ScaledSinDerivative, f64, "sin_with_wrong_derivative");
scaled_sin_derivative!(ScaledSinDerivative32, f32, "sin_with_wrong_derivative_f32");

/// x·y whose rule forgets the derivative in y.
#[derive(Clone, Copy, Debug, Default)]
struct ProductDropsY;

impl FRule for ProductDropsY {
    type Float = f64;
    type Args = (f64, f64);
    type Output = f64;
    const CHUNK: usize = 2;
    const NAME: &'static str = "product_drops_y";
    fn primal(self, args: &mut (f64, f64)) -> f64 {
        args.0 * args.1
    }
    fn frule<D: Reading<f64>>(self, args: &mut (D, D)) -> D {
        args.0 * args.1.primal_scalar()
    }
}

#[test]
fn a_wrong_derivative_fails() {
    // The right factor passes; twice the derivative fails at every width.
    assert_passes(check_rule(ScaledSinDerivative(1.0), (0.7,), &wide()));
    let failure = assert_fails(
        check_rule(ScaledSinDerivative(2.0), (0.7,), &wide()),
        CheckKind::Derivative,
    );
    let report = failure.report();
    // Only the derivative is wrong: primals and lanes are fine.
    assert!(report.kind_passed(CheckKind::PrimalReading), "{failure}");
    assert!(report.kind_passed(CheckKind::PrimalState), "{failure}");
    assert!(report.kind_passed(CheckKind::LaneIndependence), "{failure}");
    assert_eq!(
        report
            .of_kind(CheckKind::Derivative)
            .filter(|c| !c.ok())
            .count(),
        5,
        "{failure}"
    );
    let message = failure.to_string();
    assert!(message.contains("by finite differences"), "{message}");
    assert!(message.contains("off by"), "{message}");
}

#[test]
fn a_slightly_wrong_derivative_fails() {
    // One part in a million is far beyond the finite differences' error in f64…
    assert_fails(
        check_rule(ScaledSinDerivative(1.0 + 1e-6), (0.7,), &wide()),
        CheckKind::Derivative,
    );
    // …and one percent in f32.
    assert_passes(check_rule(ScaledSinDerivative32(1.0), (0.7,), &wide()));
    assert_fails(
        check_rule(ScaledSinDerivative32(1.01), (0.7,), &wide()),
        CheckKind::Derivative,
    );
}

#[test]
fn a_missing_partial_derivative_fails() {
    let failure = assert_fails(
        check_rule(ProductDropsY, (1.5, -0.5), &wide()),
        CheckKind::Derivative,
    );
    assert!(failure.report().kind_passed(CheckKind::PrimalState));
}

// ---------------------------------------------------------------------------------
// Mutations that differ from the primal's.

/// `x ← 2·x` in the primal; the rule scales by the next float above 2.
#[derive(Clone, Copy, Debug, Default)]
struct DoubleInPlaceOffByAnUlp;

impl FRule for DoubleInPlaceOffByAnUlp {
    type Float = f64;
    type Args = (Vec<f64>,);
    type Output = ();
    const CHUNK: usize = 4;
    const NAME: &'static str = "double_in_place_off_by_an_ulp";
    fn primal(self, args: &mut (Vec<f64>,)) {
        DoubleInPlace.primal(args);
    }
    fn frule<D: Reading<f64>>(self, args: &mut (D::Vec,)) {
        let x = &mut args.0;
        let len = ArrayRead::len(x);
        scale_leading::<D>(x, len, f64::from_bits(2.0f64.to_bits() + 1));
    }
}

/// `x ← 2·x` in the primal; the rule skips the last element.
#[derive(Clone, Copy, Debug, Default)]
struct DoubleInPlaceSkipsLast;

impl FRule for DoubleInPlaceSkipsLast {
    type Float = f64;
    type Args = (Vec<f64>,);
    type Output = ();
    const CHUNK: usize = 4;
    const NAME: &'static str = "double_in_place_skips_last";
    fn primal(self, args: &mut (Vec<f64>,)) {
        DoubleInPlace.primal(args);
    }
    fn frule<D: Reading<f64>>(self, args: &mut (D::Vec,)) {
        let x = &mut args.0;
        let len = ArrayRead::len(x);
        scale_leading::<D>(x, len.saturating_sub(1), 2.0);
    }
}

/// Σ x in the primal; the rule also zeroes `x[0]`, which the primal only reads.
#[derive(Clone, Copy, Debug, Default)]
struct SumClobbersInput;

impl FRule for SumClobbersInput {
    type Float = f64;
    type Args = (Vec<f64>,);
    type Output = f64;
    const CHUNK: usize = 4;
    const NAME: &'static str = "sum_clobbers_input";
    fn primal(self, args: &mut (Vec<f64>,)) -> f64 {
        args.0.iter().sum()
    }
    fn frule<D: Reading<f64>>(self, args: &mut (D::Vec,)) -> D {
        let x = &mut args.0;
        let mut s = D::constant(-0.0);
        for i in 0..ArrayRead::len(x) {
            s += ArrayRead::get(x, i);
        }
        ArrayWrite::set(x, 0, D::constant(0.0));
        s
    }
}

fn vector(seed: u64) -> Vec<f64> {
    let mut rng = SplitMix64::new(seed);
    (0..6).map(|_| rng.uniform(-2.0, 2.0)).collect()
}

#[test]
fn a_mutation_off_by_an_ulp_fails() {
    let failure = assert_fails(
        check_rule(DoubleInPlaceOffByAnUlp, (vector(1),), &wide()),
        CheckKind::PrimalState,
    );
    assert!(failure.failed(CheckKind::PrimalReading), "{failure}");
    // The derivative itself is right to far below the tolerance.
    assert!(!failure.failed(CheckKind::Derivative), "{failure}");
    let message = failure.to_string();
    assert!(message.contains("argument value"), "{message}");
    assert!(message.contains("1 ulp apart"), "{message}");
}

#[test]
fn a_missing_mutation_fails() {
    let failure = assert_fails(
        check_rule(DoubleInPlaceSkipsLast, (vector(2),), &wide()),
        CheckKind::PrimalState,
    );
    assert!(failure.failed(CheckKind::Derivative), "{failure}");
    assert!(
        failure.to_string().contains("argument value 5"),
        "{failure}"
    );
}

#[test]
fn mutating_a_read_only_argument_fails() {
    let failure = assert_fails(
        check_rule(SumClobbersInput, (vector(3),), &wide()),
        CheckKind::PrimalState,
    );
    assert!(
        failure.to_string().contains("argument value 0"),
        "{failure}"
    );
}

// ---------------------------------------------------------------------------------
// Mixed lanes. A rule generic over its reading cannot see lanes; these reach them by
// downcasting the reading to the concrete `NDual<f64, N>`.

/// Applies `f` to the partials when `d` is an `NDual<f64, N>` with N > 1.
fn on_partials<D: Real>(d: D, f: &dyn Fn(&mut [f64])) -> D {
    fn at<D: Real, const N: usize>(d: D, f: &dyn Fn(&mut [f64])) -> Option<D> {
        let x = (&d as &dyn Any).downcast_ref::<NDual<f64, N>>()?;
        let mut partials = *x.partials();
        f(&mut partials);
        let out = NDual::<f64, N>::new(x.value(), partials);
        (&out as &dyn Any).downcast_ref::<D>().copied()
    }
    at::<D, 2>(d, f)
        .or_else(|| at::<D, 3>(d, f))
        .or_else(|| at::<D, 8>(d, f))
        .or_else(|| at::<D, 64>(d, f))
        .unwrap_or(d)
}

/// sin(x), each lane's partial then adding `weight` times the next lane's.
#[derive(Clone, Copy, Debug)]
struct SinMixingLanes(f64);

impl FRule for SinMixingLanes {
    type Float = f64;
    type Args = (f64,);
    type Output = f64;
    const CHUNK: usize = 2;
    const NAME: &'static str = "sin_mixing_lanes";
    fn primal(self, args: &mut (f64,)) -> f64 {
        args.0.sin()
    }
    fn frule<D: Reading<f64>>(self, args: &mut (D,)) -> D {
        let weight = self.0;
        on_partials(args.0.sin(), &|p| {
            let first = p[0];
            let n = p.len();
            for k in 0..n {
                let next = if k + 1 < n { p[k + 1] } else { first };
                p[k] += weight * next;
            }
        })
    }
}

/// sin(x), its partials nudged by one ulp at widths above 1 (as a reduction whose
/// summation order depends on N might).
#[derive(Clone, Copy, Debug, Default)]
struct SinOffByAnUlpWhenWide;

impl FRule for SinOffByAnUlpWhenWide {
    type Float = f64;
    type Args = (f64,);
    type Output = f64;
    const CHUNK: usize = 2;
    const NAME: &'static str = "sin_off_by_an_ulp_when_wide";
    fn primal(self, args: &mut (f64,)) -> f64 {
        args.0.sin()
    }
    fn frule<D: Reading<f64>>(self, args: &mut (D,)) -> D {
        on_partials(args.0.sin(), &|p| {
            for v in p {
                *v = f64::from_bits(v.to_bits() + 1);
            }
        })
    }
}

#[test]
fn mixing_lanes_fails() {
    let failure = assert_fails(
        check_rule(SinMixingLanes(0.5), (0.4,), &wide()),
        CheckKind::LaneIndependence,
    );
    // Width 1 has nothing to mix; every wider run is wrong.
    let report = failure.report();
    assert!(
        report
            .of_kind(CheckKind::Derivative)
            .any(|c| c.width == Some(1) && c.ok())
    );
    assert!(failure.failed(CheckKind::Derivative), "{failure}");
    assert!(
        failure.to_string().contains("in a width-1 run"),
        "{failure}"
    );
}

#[test]
fn mixing_lanes_below_the_derivative_tolerance_still_fails() {
    // 10⁻¹² of the next lane: invisible to finite differences, not to the bitwise
    // lane check.
    let failure = assert_fails(
        check_rule(SinMixingLanes(1e-12), (0.4,), &wide()),
        CheckKind::LaneIndependence,
    );
    assert!(!failure.failed(CheckKind::Derivative), "{failure}");
    assert!(!failure.failed(CheckKind::PrimalState), "{failure}");
}

#[test]
fn lane_tolerance_admits_reductions_and_nothing_more() {
    let bitwise = wide();
    assert_fails(
        check_rule(SinOffByAnUlpWhenWide, (0.4,), &bitwise),
        CheckKind::LaneIndependence,
    );
    let reducing = wide().lanes(LaneCheck::reduction(1));
    let report = assert_passes(check_rule(SinOffByAnUlpWhenWide, (0.4,), &reducing));
    assert!(report.kind_passed(CheckKind::LaneIndependence));
    // A tolerance does not hide real mixing.
    assert_fails(
        check_rule(SinMixingLanes(1e-9), (0.4,), &reducing),
        CheckKind::LaneIndependence,
    );
}

// ---------------------------------------------------------------------------------
// A primal reading that is not the primal.

/// hypot(x, y) in the primal; √(x² + y²) in the rule: the same function, not the same
/// operations.
#[derive(Clone, Copy, Debug, Default)]
struct HypotBySqrt;

impl FRule for HypotBySqrt {
    type Float = f64;
    type Args = (f64, f64);
    type Output = f64;
    const CHUNK: usize = 2;
    const NAME: &'static str = "hypot_by_sqrt";
    fn primal(self, args: &mut (f64, f64)) -> f64 {
        args.0.hypot(args.1)
    }
    fn frule<D: Reading<f64>>(self, args: &mut (D, D)) -> D {
        let (x, y) = *args;
        (x * x + y * y).sqrt()
    }
}

#[test]
fn a_primal_reading_with_other_operations_fails() {
    // A point where the two formulas round differently.
    let mut rng = SplitMix64::new(5);
    let point = loop {
        let (x, y) = (rng.uniform(-3.0, 3.0), rng.uniform(-3.0, 3.0));
        let exact = x.hypot(y);
        let other = (x * x + y * y).sqrt();
        if exact.to_bits() != other.to_bits() {
            assert!((exact - other).abs() <= 2.0 * f64::EPSILON * exact);
            break (x, y);
        }
    };
    let failure = assert_fails(
        check_rule(HypotBySqrt, point, &wide()),
        CheckKind::PrimalReading,
    );
    assert!(failure.failed(CheckKind::PrimalState), "{failure}");
    assert!(!failure.failed(CheckKind::Derivative), "{failure}");
    assert!(failure.to_string().contains("result value 0"), "{failure}");
    // Allowed a few ulps, it passes.
    assert_passes(check_rule(HypotBySqrt, point, &wide().primal_ulps(4)));
}
