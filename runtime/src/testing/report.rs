//! What `check_rule` found: one line per check, with the measured error.

use core::fmt;

/// The kinds of check [`check_rule`](super::check_rule) runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CheckKind {
    /// The options themselves (an unsupported width).
    Options,
    /// The rule at the primal reading (`D = Float`) reproduces the primal function: its
    /// result and the arguments after mutation, bit for bit.
    PrimalReading,
    /// At width N, the primals of the result and of the arguments after the rule equal
    /// those after the primal function.
    PrimalState,
    /// At width N, lane by lane, ⟨ȳ, ẏ⟩ + ⟨x̄, ẋ⟩ agrees with central finite
    /// differences of the primal function along the lane's tangent.
    Derivative,
    /// A width-N run equals N width-1 runs, lane by lane.
    LaneIndependence,
    /// Scalar rules do not allocate.
    Allocation,
}

impl CheckKind {
    /// The name reports use.
    pub fn name(self) -> &'static str {
        match self {
            Self::Options => "options",
            Self::PrimalReading => "primal reading",
            Self::PrimalState => "primal state",
            Self::Derivative => "derivative",
            Self::LaneIndependence => "lane independence",
            Self::Allocation => "allocation",
        }
    }
}

impl fmt::Display for CheckKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The outcome of one check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// The check ran and passed.
    Passed,
    /// The check ran and failed.
    Failed,
    /// The check could not run (no allocation counter) or does not apply.
    Unchecked,
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Passed => "ok",
            Self::Failed => "FAILED",
            Self::Unchecked => "unchecked",
        })
    }
}

/// One check of a [`CheckReport`].
#[derive(Clone, Debug, PartialEq)]
pub struct Check {
    /// What was checked.
    pub kind: CheckKind,
    /// The chunk width, for the checks that run per width.
    pub width: Option<usize>,
    /// The outcome.
    pub status: Status,
    /// The measured error, in the check's own unit: ulps between primals (primal
    /// reading, primal state, bitwise lanes), the worst ratio of error to tolerance
    /// (derivative, lanes within ulps; below 1 passes), the number of allocations.
    pub error: Option<f64>,
    /// What was measured, in words.
    pub detail: String,
}

impl Check {
    /// `true` unless the check failed.
    pub fn ok(&self) -> bool {
        self.status != Status::Failed
    }

    /// The check's name with its width: `derivative (N = 8)`.
    pub fn label(&self) -> String {
        match self.width {
            Some(n) => format!("{} (N = {n})", self.kind),
            None => self.kind.name().to_string(),
        }
    }
}

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:<9}  {:<28}  {}",
            self.status.to_string(),
            self.label(),
            self.detail
        )
    }
}

/// Everything [`check_rule`](super::check_rule) checked, with the measured errors.
/// `Display` shows one line per check.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckReport {
    /// The rule's name ([`FRule::NAME`](crate::FRule::NAME)).
    pub rule: &'static str,
    /// The float type's name.
    pub float: &'static str,
    /// The seed the random tangents came from.
    pub seed: u64,
    /// The checks, in the order they ran.
    pub checks: Vec<Check>,
}

impl CheckReport {
    pub(crate) fn new(rule: &'static str, float: &'static str, seed: u64) -> Self {
        Self {
            rule,
            float,
            seed,
            checks: Vec::new(),
        }
    }

    pub(crate) fn push(
        &mut self,
        kind: CheckKind,
        width: Option<usize>,
        status: Status,
        error: Option<f64>,
        detail: String,
    ) {
        self.checks.push(Check {
            kind,
            width,
            status,
            error,
            detail,
        });
    }

    /// `true` when no check failed.
    pub fn passed(&self) -> bool {
        self.checks.iter().all(Check::ok)
    }

    /// The failed checks.
    pub fn failures(&self) -> impl Iterator<Item = &Check> {
        self.checks.iter().filter(|c| !c.ok())
    }

    /// The checks of one kind.
    pub fn of_kind(&self, kind: CheckKind) -> impl Iterator<Item = &Check> {
        self.checks.iter().filter(move |c| c.kind == kind)
    }

    /// `true` when some check of this kind ran and none of them failed.
    pub fn kind_passed(&self, kind: CheckKind) -> bool {
        let mut ran = false;
        for c in self.of_kind(kind) {
            match c.status {
                Status::Failed => return false,
                Status::Passed => ran = true,
                Status::Unchecked => {}
            }
        }
        ran
    }

    /// `true` when some check of this kind failed.
    pub fn kind_failed(&self, kind: CheckKind) -> bool {
        self.of_kind(kind).any(|c| c.status == Status::Failed)
    }
}

impl fmt::Display for CheckReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let failed = self.failures().count();
        write!(
            f,
            "check_rule `{}` ({}, seed {:#x}): ",
            self.rule, self.float, self.seed
        )?;
        if failed == 0 {
            writeln!(f, "all {} checks passed", self.checks.len())?;
        } else {
            writeln!(f, "{failed} of {} checks FAILED", self.checks.len())?;
        }
        for c in &self.checks {
            writeln!(f, "  {c}")?;
        }
        Ok(())
    }
}

/// A failed [`check_rule`](super::check_rule): the full report, with the failed checks
/// named first. `Debug` shows the same text as `Display`, so `.unwrap()` in a test
/// prints a readable message.
#[derive(Clone, PartialEq)]
pub struct CheckFailure {
    report: CheckReport,
}

impl CheckFailure {
    pub(crate) fn new(report: CheckReport) -> Self {
        Self { report }
    }

    /// The full report.
    pub fn report(&self) -> &CheckReport {
        &self.report
    }

    /// Unwraps the full report.
    pub fn into_report(self) -> CheckReport {
        self.report
    }

    /// The failed checks.
    pub fn failures(&self) -> impl Iterator<Item = &Check> {
        self.report.failures()
    }

    /// `true` when a check of this kind failed.
    pub fn failed(&self, kind: CheckKind) -> bool {
        self.report.kind_failed(kind)
    }
}

impl fmt::Display for CheckFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<String> = self.failures().map(Check::label).collect();
        writeln!(
            f,
            "rule `{}` ({}) failed: {}",
            self.report.rule,
            self.report.float,
            names.join(", ")
        )?;
        for c in self.failures() {
            writeln!(f, "  {}: {}", c.label(), c.detail)?;
        }
        write!(f, "{}", self.report)
    }
}

impl fmt::Debug for CheckFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for CheckFailure {}

/// What one check found: its status, its measured error, and the detail line.
pub(super) type Verdict = (Status, Option<f64>, String);
