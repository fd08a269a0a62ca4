//! The reading layer's knowledge that every reading shares: the derivative table and
//! the list of element-wise ops.
//!
//! A reading adds only its own algebra (the first-order chain rule of `NDual`, the
//! second-order ones of `DiagJet` and `HyperDual`, the zero-skipping of `ZDual`) and
//! reads every float function's derivatives from [`table`]; the two second-order
//! readings share one float method surface ([`second_order`]). [`ops`] names the
//! scalar rules as values, for the array functions above and the kernels generated
//! from them.

pub(crate) mod convert;
#[macro_use]
pub(crate) mod ops;
#[macro_use]
pub(crate) mod table;
#[macro_use]
mod second_order;

use crate::Real;

/// `c · d`, exactly zero when the part `d` is (whatever `c` is, infinite or NaN
/// included): strong zero, the multiplication every reading's chain rule applies a
/// derivative with at a singular point.
#[inline(always)]
pub(crate) fn times_sz<S: Real>(c: S, d: S) -> S {
    or_zero(d, |d| c * d)
}

/// `c · d` NaN-safe: the plain product where `c` is finite, [`times_sz`] where it is
/// not. What every product of a value and a tangent part computes; a rule whose
/// factors are all finite ([`all_finite`]) takes the plain products directly, bit for
/// bit the same.
#[inline(always)]
pub(crate) fn times_safe<S: Real>(c: S, d: S) -> S {
    if UNCHECKED_LANES || c.is_finite() {
        c * d
    } else {
        times_sz(c, d)
    }
}

/// `f(d)`, or exactly zero when the part `d` is: a lane of [`times_sz`]'s kind
/// for products whose other factor is a plain constant.
#[inline(always)]
pub(crate) fn or_zero<S: Real>(d: S, f: impl FnOnce(S) -> S) -> S {
    if d.is_exact_zero() { S::zero() } else { f(d) }
}

/// Whether every factor a rule multiplies tangents by is finite: then the plain
/// products are NaN-safe already and run unchanged; otherwise the rule takes its
/// masked path, whose products are [`times_safe`], so that a direction the operand
/// does not move in stays exactly zero (`∞ · 0` would be NaN): NaN-safe lanes, as in
/// ForwardDiff's NaN-safe mode, but lane by lane. The test is on the values only,
/// once per operation, not once per lane.
#[inline(always)]
pub(crate) fn all_finite<S: Real, const K: usize>(factors: [S; K]) -> bool {
    UNCHECKED_LANES || factors.iter().all(|c| c.is_finite())
}

/// The lanes of a NaN-safe rule: `plain(k)` in each lane when `finite` (see
/// [`all_finite`]), `masked(&inputs(), k)` otherwise. The plain lanes are built straight
/// into the result from the operands in place. Written as two inline arms each building
/// an array, the optimiser built both apart and copied one into place: `ZDual`'s passes
/// at widths 16 and 64 ran three to six times slower than the plain products alone.
/// From width 16 up the masked lanes are also built out of line, from copies of what
/// they read taken only on that path, so the common path keeps no whole copy of an
/// operand for them (13 % faster at width 16, 5 % at 64); below that, the call costs
/// more than it saves (the width-4 passes ran 60 % slower), and the masked lanes
/// overwrite the plain ones in place.
#[inline(always)]
pub(crate) fn safe_lanes<S: Copy, T, const N: usize>(
    finite: bool,
    plain: impl Fn(usize) -> S,
    inputs: impl FnOnce() -> T,
    masked: impl Fn(&T, usize) -> S,
) -> [S; N] {
    if N >= 16 {
        return if finite {
            core::array::from_fn(plain)
        } else {
            masked_lanes(inputs(), masked)
        };
    }
    let mut lanes: [S; N] = core::array::from_fn(plain);
    if !finite {
        let inputs = inputs();
        for (k, lane) in lanes.iter_mut().enumerate() {
            *lane = masked(&inputs, k);
        }
    }
    lanes
}

#[cold]
#[inline(never)]
fn masked_lanes<S: Copy, T, const N: usize>(inputs: T, masked: impl Fn(&T, usize) -> S) -> [S; N] {
    core::array::from_fn(|k| masked(&inputs, k))
}

/// Built with `--cfg lifted_unchecked_lanes`, every rule takes its plain products
/// unconditionally: NaN-safe lanes off. The switch exists to measure what they cost
/// (the book's Performance section reports it); it is not a supported configuration.
pub(crate) const UNCHECKED_LANES: bool = cfg!(lifted_unchecked_lanes);

/// `f′` and `f″` of `c / x` at `q = c / x`: `f′ = −q / x`, `f″ = −2 f′ / x` (the
/// second-order readings' `rdiv`; `NDual` takes `f′` as `−q · (1 / x)`, which
/// schedules better at first order).
#[inline(always)]
pub(crate) fn rdiv_derivatives<S: Real>(q: S, x: S) -> (S, S) {
    let f1 = -(q / x);
    (f1, -(f1 + f1) / x)
}
