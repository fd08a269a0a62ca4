//! Arithmetic between zero-skipping duals: each operator's rule written once, stamped
//! for owned and borrowed operands by the shared `operator_impls!`; comparisons on the
//! value only.
//!
//! `+ - * /` skip a flat operand's tangent arithmetic by hand (they dominate the
//! passes of a gradient); the result is `NDual`'s with that operand's zero terms left
//! out. `%` runs `NDual`'s rule through [`zmap2!`].

use core::cmp::Ordering;
use core::iter::{Product, Sum};
use core::ops::{
    Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Rem, RemAssign, Sub, SubAssign,
};

use super::{ZDual, zmap2};
use crate::Real;
use crate::reading::{all_finite, safe_lanes, times_safe};

impl<S: Real, const N: usize> ZDual<S, N> {
    #[inline(always)]
    fn add_impl(&self, rhs: &Self) -> Self {
        let value = self.value + rhs.value;
        let partials = match (&self.partials, &rhs.partials) {
            (Some(p), Some(q)) => Some(core::array::from_fn(|k| p[k] + q[k])),
            (Some(p), None) => Some(*p),
            (None, Some(q)) => Some(*q),
            (None, None) => None,
        };
        Self { value, partials }
    }

    #[inline(always)]
    fn sub_impl(&self, rhs: &Self) -> Self {
        let value = self.value - rhs.value;
        let partials = match (&self.partials, &rhs.partials) {
            (Some(p), Some(q)) => Some(core::array::from_fn(|k| p[k] - q[k])),
            (Some(p), None) => Some(*p),
            (None, Some(q)) => Some(q.map(|q| -q)),
            (None, None) => None,
        };
        Self { value, partials }
    }

    /// `self += rhs` without building a new value: adding a flat value (most terms of a
    /// wide gradient's sums) touches the value alone. Through `*self = *self + rhs`, the
    /// optimiser kept a whole copy of the partials at widths 16 and 64 once a loop held
    /// the NaN-safe rules' cold paths.
    #[inline(always)]
    fn add_assign_impl(&mut self, rhs: &Self) {
        self.value += rhs.value;
        match (&mut self.partials, &rhs.partials) {
            (Some(p), Some(q)) => p.iter_mut().zip(q).for_each(|(p, q)| *p += *q),
            (None, Some(q)) => self.partials = Some(*q),
            (_, None) => {}
        }
    }

    /// `self -= rhs` in place, as [`Self::add_assign_impl`].
    #[inline(always)]
    fn sub_assign_impl(&mut self, rhs: &Self) {
        self.value -= rhs.value;
        match (&mut self.partials, &rhs.partials) {
            (Some(p), Some(q)) => p.iter_mut().zip(q).for_each(|(p, q)| *p -= *q),
            (None, Some(q)) => self.partials = Some(q.map(|q| -q)),
            (_, None) => {}
        }
    }

    #[inline(always)]
    fn mul_impl(&self, rhs: &Self) -> Self {
        // NDual's product rule, a flat operand's term left out. The NaN-safe test is on
        // the factors each arm multiplies by, inside the arm: a flat product (most of a
        // wide gradient's) costs the primal's multiplication and nothing more.
        let (a, b) = (self.value, rhs.value);
        let partials = match (&self.partials, &rhs.partials) {
            (Some(p), Some(q)) => Some(safe_lanes(
                all_finite([a, b]),
                |k| b * p[k] + a * q[k],
                || (a, b, *p, *q),
                |(a, b, p, q), k| times_safe(*b, p[k]) + times_safe(*a, q[k]),
            )),
            (Some(p), None) => Some(scaled(p, b)),
            (None, Some(q)) => Some(scaled(q, a)),
            (None, None) => None,
        };
        Self {
            value: a * b,
            partials,
        }
    }

    #[inline(always)]
    fn div_impl(&self, rhs: &Self) -> Self {
        // NDual's (ȧ - q ḃ) / b, one reciprocal for all lanes, a flat operand's term
        // left out; the NaN-safe test inside the arms, as in `mul_impl`.
        let q = self.value / rhs.value;
        let partials = match (&self.partials, &rhs.partials) {
            (None, None) => None,
            (Some(p), r) => {
                let inv = S::one() / rhs.value;
                Some(match r {
                    Some(r) => safe_lanes(
                        all_finite([q, inv]),
                        |k| inv * (p[k] - q * r[k]),
                        || (q, inv, *p, *r),
                        |(q, inv, p, r), k| times_safe(*inv, p[k] - times_safe(*q, r[k])),
                    ),
                    None => scaled(p, inv),
                })
            }
            (None, Some(r)) => {
                // inv · (0 − q ṙ), as NDual computes it lane by lane.
                let inv = S::one() / rhs.value;
                Some(safe_lanes(
                    all_finite([q, inv]),
                    |k| inv * -(q * r[k]),
                    || (q, inv, *r),
                    |(q, inv, r), k| times_safe(*inv, -times_safe(*q, r[k])),
                ))
            }
        };
        Self { value: q, partials }
    }

    #[inline(always)]
    fn rem_impl(&self, rhs: &Self) -> Self {
        zmap2!(*self, *rhs, |a, b| a % b)
    }
}

/// `c · p` lane by lane, NaN-safe: plain when `c` is finite, strong zero otherwise.
#[inline(always)]
fn scaled<S: Real, const N: usize>(p: &[S; N], c: S) -> [S; N] {
    safe_lanes(
        all_finite([c]),
        |k| c * p[k],
        || (c, *p),
        |(c, p), k| times_safe(*c, p[k]),
    )
}

operator_impls!(ZDual, in place);

impl<S: Real, const N: usize> Neg for ZDual<S, N> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        Self {
            value: -self.value,
            partials: self.partials.map(|p| p.map(|p| -p)),
        }
    }
}

impl<S: Real, const N: usize> num_traits::Zero for ZDual<S, N> {
    #[inline(always)]
    fn zero() -> Self {
        Self::constant(S::zero())
    }
    /// Zero value *and* zero partials.
    #[inline(always)]
    fn is_zero(&self) -> bool {
        self.value.is_zero()
            && self
                .partials
                .as_ref()
                .is_none_or(|p| p.iter().all(|p| p.is_zero()))
    }
}

#[cfg(test)]
mod tests {
    use crate::ZDual;
    use crate::array::{ArrayRead, ArrayWrite};

    type Bits = (u64, Option<[u64; 3]>);

    /// A value's bits, and whether it is flat.
    fn bits(z: &ZDual<f64, 3>) -> Bits {
        (
            z.value().to_bits(),
            z.partials_if_any().map(|p| p.map(f64::to_bits)),
        )
    }

    /// Flat and seeded values, with signed zeros and non-finite parts.
    fn values() -> [ZDual<f64, 3>; 5] {
        [
            ZDual::<f64, 3>::constant(-0.0),
            ZDual::constant(2.5),
            ZDual::new(-0.0, [0.0, -0.0, 1.0]),
            ZDual::new(1.5, [f64::INFINITY, f64::NAN, -2.0]),
            ZDual::variable(3.0, 1),
        ]
    }

    /// `clone` (what array reads take) moves less than a copy; it must give the same
    /// value, flat exactly when the original is.
    #[test]
    fn clone_is_a_copy() {
        for z in values() {
            assert_eq!(bits(&Clone::clone(&z)), bits(&z), "{z:?}");
            let read: ZDual<f64, 3> = ArrayRead::get(&[z, z][..], 1);
            assert_eq!(bits(&read), bits(&z), "{z:?}");
        }
    }

    /// `clone_from` (what array writes take) writes a flat value's value and flag alone;
    /// over every other value it must leave exactly the value written.
    #[test]
    fn clone_from_is_an_assignment() {
        for z in values() {
            for over in values() {
                let mut slot = over;
                slot.clone_from(&z);
                assert_eq!(bits(&slot), bits(&z), "{z:?} over {over:?}");
                let mut array = [over, over];
                ArrayWrite::set(&mut array[..], 0, z);
                assert_eq!(bits(&array[0]), bits(&z), "{z:?} written over {over:?}");
                assert_eq!(
                    bits(&array[1]),
                    bits(&over),
                    "{z:?} written beside {over:?}"
                );
            }
        }
    }

    /// `+=` and `-=` update in place; they must give what `+` and `-` give, bit for bit
    /// and flat exactly when `+` / `-` are, for every mix of flat and seeded operands.
    #[test]
    fn compound_assignment_is_the_operator() {
        let values = values();
        for a in values {
            for b in values {
                let (mut sum, mut difference) = (a, a);
                sum += b;
                difference -= &b;
                assert_eq!(bits(&sum), bits(&(a + b)), "{a:?} += {b:?}");
                assert_eq!(bits(&difference), bits(&(a - b)), "{a:?} -= {b:?}");
            }
        }
    }
}
