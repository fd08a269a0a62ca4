//! What `check_rule` checks and how strictly.

use crate::Scalar;

/// The chunk widths [`check_rule`](super::check_rule) can run a rule at. Each width is
/// a const generic (`NDual<F, N>`), so the set is fixed at compile time.
pub const SUPPORTED_WIDTHS: [usize; 8] = [1, 2, 3, 4, 8, 16, 32, 64];

/// The widths checked by default: 1, 2, 3 (odd, past the unrolled cases) and 8.
pub const DEFAULT_WIDTHS: [usize; 4] = [1, 2, 3, 8];

/// How a width-N run is compared with N width-1 runs, lane by lane.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LaneCheck {
    /// Every tangent bit for bit (element-wise rules: the default).
    Bitwise,
    /// Within `ulps` units of the float type's epsilon, relative to the largest tangent
    /// magnitude of the lane: for rules that reduce (dot products, GEMM, solves), whose
    /// summation order may depend on N. See [`LaneCheck::reduction`].
    Ulps(f64),
}

impl LaneCheck {
    /// The tolerance for a rule that reduces over `len` terms: four ulps per term.
    pub fn reduction(len: usize) -> Self {
        Self::Ulps(4.0 * len.max(1) as f64)
    }
}

/// Which rule runs must be free of heap allocation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Allocations {
    /// Scalar rules must not allocate: when the primal run, a clone of the arguments and
    /// a clone of the result allocate nothing, every run of the rule must allocate
    /// nothing either. Rules over heap data (vectors, strings) are not checked.
    #[default]
    Auto,
    /// Every run of the rule must be allocation-free, whatever its arguments.
    Forbidden,
    /// No allocation check.
    Allowed,
}

/// Options of [`check_rule`](super::check_rule): tolerances, finite-difference steps,
/// the seed, the widths and the strictness of each check.
///
/// Tolerances and steps left unset are scaled to the rule's float type (see
/// [`Tolerances::for_scalar`]).
///
/// ```
/// use lifted::testing::{CheckOptions, LaneCheck};
/// let options = CheckOptions::new()
///     .seed(42)
///     .widths(&[1, 2, 3, 8, 64])
///     .lanes(LaneCheck::reduction(100))
///     .rtol(1e-6);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct CheckOptions {
    pub(crate) seed: u64,
    pub(crate) widths: Vec<usize>,
    pub(crate) rtol: Option<f64>,
    pub(crate) atol: Option<f64>,
    pub(crate) steps: Option<Vec<f64>>,
    pub(crate) lanes: LaneCheck,
    pub(crate) primal_ulps: u64,
    pub(crate) allocations: Allocations,
    pub(crate) require_counter: bool,
}

impl Default for CheckOptions {
    fn default() -> Self {
        Self {
            seed: 0x5EED_1F7E_D000_0001,
            widths: DEFAULT_WIDTHS.to_vec(),
            rtol: None,
            atol: None,
            steps: None,
            lanes: LaneCheck::Bitwise,
            primal_ulps: 0,
            allocations: Allocations::Auto,
            require_counter: false,
        }
    }
}

impl CheckOptions {
    /// The defaults: a fixed seed, widths 1, 2, 3 and 8, tolerances and steps scaled to
    /// the float type, bitwise primals and lanes, allocation-free scalar rules.
    pub fn new() -> Self {
        Self::default()
    }

    /// The seed of the random tangents and cotangents.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// The chunk widths to run the rule at, each one of [`SUPPORTED_WIDTHS`]
    /// (an unsupported width makes the check fail, naming it).
    pub fn widths(mut self, widths: &[usize]) -> Self {
        self.widths = widths.to_vec();
        self
    }

    /// Relative tolerance of the derivative check.
    pub fn rtol(mut self, rtol: f64) -> Self {
        self.rtol = Some(rtol);
        self
    }

    /// Absolute tolerance of the derivative check.
    pub fn atol(mut self, atol: f64) -> Self {
        self.atol = Some(atol);
        self
    }

    /// The finite-difference steps, tried in order until one agrees.
    pub fn steps(mut self, steps: &[f64]) -> Self {
        self.steps = Some(steps.to_vec());
        self
    }

    /// How lanes are compared (bitwise by default).
    pub fn lanes(mut self, lanes: LaneCheck) -> Self {
        self.lanes = lanes;
        self
    }

    /// How many ulps the rule's primals may differ from the primal function's (0, the
    /// default, means bit for bit). Only for hand-written rules whose dual path computes
    /// the primal with different operations; derived rules are always bitwise.
    pub fn primal_ulps(mut self, ulps: u64) -> Self {
        self.primal_ulps = ulps;
        self
    }

    /// Which runs must be allocation-free.
    pub fn allocations(mut self, allocations: Allocations) -> Self {
        self.allocations = allocations;
        self
    }

    /// When `true`, a missing allocation counter (see
    /// [`set_allocation_counter`](super::set_allocation_counter)) fails the check
    /// instead of being reported as unchecked: for suites that must not silently skip
    /// it.
    pub fn require_allocation_counter(mut self, require: bool) -> Self {
        self.require_counter = require;
        self
    }

    /// The tolerances and steps for float type `F`, defaults filled in.
    pub fn tolerances<F: Scalar>(&self) -> Tolerances {
        let defaults = Tolerances::for_scalar::<F>();
        Tolerances {
            rtol: self.rtol.unwrap_or(defaults.rtol),
            atol: self.atol.unwrap_or(defaults.atol),
            steps: self.steps.clone().unwrap_or(defaults.steps),
        }
    }
}

/// The derivative check's tolerances and finite-difference steps for one float type.
#[derive(Clone, Debug, PartialEq)]
pub struct Tolerances {
    /// Relative tolerance.
    pub rtol: f64,
    /// Absolute tolerance.
    pub atol: f64,
    /// Steps of the finite differences, tried in order.
    pub steps: Vec<f64>,
}

impl Tolerances {
    /// The defaults for `F`. For `f64`: steps 10⁻² … 10⁻⁸ (one per decade), `rtol`
    /// 10⁻⁸, `atol` 10⁻¹². For `f32`, whose rounding error is 2²⁹ times larger, the
    /// steps are 10⁻¹ … 10⁻³ (two per decade), `rtol` 10⁻³, `atol` 10⁻⁶.
    ///
    /// The five-point central difference has truncation error O(h⁴) and rounding
    /// error O(ε/h), so its best step is near ε^(1/5) (7·10⁻⁴ for `f64`, 4·10⁻²
    /// for `f32`); the ranges straddle it, and the check passes when one step agrees.
    /// A step is relative: it moves the largest argument component by
    /// `h · max(1, |x|∞)`. The tolerance of each step adds the finite difference's
    /// rounding error (ε times the magnitude of the evaluated terms, over the step),
    /// which is why the smallest steps stop where that error would swamp `rtol`.
    pub fn for_scalar<F: Scalar>() -> Self {
        if F::EPS < 1e-10 {
            Self {
                rtol: 1e-8,
                atol: 1e-12,
                steps: vec![1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8],
            }
        } else {
            Self {
                rtol: 1e-3,
                atol: 1e-6,
                steps: vec![1e-1, 3e-2, 1e-2, 3e-3, 1e-3],
            }
        }
    }
}
