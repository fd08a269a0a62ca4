//! Running a computation at a chunk width chosen at run time.
//!
//! A chunk width is a const generic (`NDual<F, N>`), so a width known only at run time
//! (a driver's `chunk`, a width `check_rule` is asked for) is matched once here against
//! the widths instantiated ahead of time, and the computation, written once for every
//! `N`, is called at that width. Drivers and [`check_rule`](crate::testing::check_rule)
//! share this dispatch.

use crate::{Param, Reading, Scalar};

use super::Error;

/// The chunk widths drivers run at: a requested chunk is rounded down to one of these
/// (and up to the smallest one that covers the problem, when the problem is smaller).
pub const DRIVER_WIDTHS: [usize; 7] = [1, 2, 4, 8, 16, 32, 64];

/// The float types drivers and [`check_rule`](crate::testing::check_rule) run rules
/// of: `f64` and `f32`, each a reading of itself whose `NDual`s of every supported
/// width (and Taylor polynomials of every order up to [`MAX_TAYLOR_ORDER`]) are
/// readings too.
///
/// Implemented for exactly the [`Scalar`] types; there is nothing to implement. A rule
/// with a concrete float type satisfies it; generic code over `R: FRule` that calls a
/// driver or `check_rule` adds the bound `R::Float: ChunkScalar`. It is a trait of its
/// own, not part of [`Scalar`], because it names the readings the drivers instantiate,
/// which the scalar layer below them cannot.
pub trait ChunkScalar: Scalar + Reading<Self> + Param<Self> {
    /// Calls `visitor.run::<N>()` with `N = width` when `width` is one of
    /// 1, 2, 3, 4, 8, 16, 32, 64; `None` otherwise.
    #[doc(hidden)]
    fn at_width<V: private::AtWidth<Self>>(width: usize, visitor: V) -> Option<V::Output>;

    /// Calls `visitor.run::<N>()` with `N = width` when `width` is one of
    /// [`NESTED_WIDTHS`]; `None` otherwise.
    #[doc(hidden)]
    fn at_nested_width<V: private::AtNestedWidth<Self>>(
        width: usize,
        visitor: V,
    ) -> Option<V::Output>;

    /// Calls `visitor.run::<N>()` with `N = width` when `width` is one of
    /// [`JET_WIDTHS`]; `None` otherwise.
    #[doc(hidden)]
    fn at_jet_width<V: private::AtJetWidth<Self>>(width: usize, visitor: V) -> Option<V::Output>;

    /// Calls `visitor.run::<K>()` with `K = order` when `order` is in
    /// `1..=MAX_TAYLOR_ORDER`; `None` otherwise.
    #[doc(hidden)]
    fn at_order<V: private::AtOrder<Self>>(order: usize, visitor: V) -> Option<V::Output>;

    /// Zeros with a one at [`ONE_HOT_AT`]: the unit vector of lane `l` of a width
    /// `N ≤ 64` is the `N` values from `ONE_HOT_AT - l`, and `N` zeros start at
    /// `ONE_HOT_AT + 1`. Drivers seed a pass by copying from it.
    #[doc(hidden)]
    fn one_hot() -> &'static [Self; ONE_HOT_LEN];
}

/// Where [`ChunkScalar::one_hot`] holds its one: one before the widest driver width.
#[doc(hidden)]
pub const ONE_HOT_AT: usize = DRIVER_WIDTHS[DRIVER_WIDTHS.len() - 1] - 1;

/// The length of [`ChunkScalar::one_hot`]: twice the widest driver width.
#[doc(hidden)]
pub const ONE_HOT_LEN: usize = 2 * DRIVER_WIDTHS[DRIVER_WIDTHS.len() - 1];

/// The widths the diagonal-jet driver
/// ([`value_jacobian_hessian_diag`](crate::value_jacobian_hessian_diag)) runs at: a
/// pass at width `N` carries `2N + 1` floats per scalar. 3 is there for the space-time
/// coordinates of a PDE.
pub const JET_WIDTHS: [usize; 6] = [1, 2, 3, 4, 8, 16];

/// The highest derivative order [`derivatives_1d`](crate::derivatives_1d) computes.
/// Each order is its own instantiation of the rule (the polynomial's length is a const
/// generic), so the orders are instantiated ahead of time up to this one.
pub const MAX_TAYLOR_ORDER: usize = 8;

/// The widths second-order drivers run at: a pass at width `N` carries `N` outer
/// directions over `N` (or one) inner directions, `(N + 1)²` floats per scalar, so
/// wider chunks stop paying off early.
pub const NESTED_WIDTHS: [usize; 4] = [1, 2, 4, 8];

pub(crate) mod private {
    use crate::{DiagJet, NDual, Reading, Scalar, Taylor, ZDual};

    /// A computation generic over the truncation order (chosen at run time by
    /// [`ChunkScalar::at_order`](super::ChunkScalar::at_order)).
    pub trait AtOrder<F: Scalar> {
        /// The result.
        type Output;
        /// Runs at order `K`.
        fn run<const K: usize>(self) -> Self::Output
        where
            Taylor<F, K>: Reading<F>;
    }

    /// A computation generic over the chunk width (a const generic cannot be chosen at
    /// run time, so [`ChunkScalar::at_width`](super::ChunkScalar::at_width) matches
    /// the width and calls this).
    pub trait AtWidth<F: Scalar> {
        /// The result.
        type Output;
        /// Runs at width `N`.
        fn run<const N: usize>(self) -> Self::Output
        where
            NDual<F, N>: Reading<F>,
            ZDual<F, N>: Reading<F>;
    }

    /// A second-order computation generic over the chunk width: its readings nest
    /// `NDual`s (forward over forward).
    pub trait AtNestedWidth<F: Scalar> {
        /// The result.
        type Output;
        /// Runs at width `N`.
        fn run<const N: usize>(self) -> Self::Output
        where
            NDual<NDual<F, 1>, N>: Reading<F>,
            NDual<NDual<F, N>, N>: Reading<F>;
    }

    /// A computation generic over the width of a diagonal jet.
    pub trait AtJetWidth<F: Scalar> {
        /// The result.
        type Output;
        /// Runs at width `N`.
        fn run<const N: usize>(self) -> Self::Output
        where
            DiagJet<F, N>: Reading<F>;
    }
}

macro_rules! chunk_scalar {
    ($f:ty) => {
        impl ChunkScalar for $f {
            #[inline(always)]
            fn one_hot() -> &'static [Self; ONE_HOT_LEN] {
                static ONE_HOT: [$f; ONE_HOT_LEN] = {
                    let mut table = [0.0; ONE_HOT_LEN];
                    table[ONE_HOT_AT] = 1.0;
                    table
                };
                &ONE_HOT
            }
            fn at_order<V: private::AtOrder<Self>>(order: usize, v: V) -> Option<V::Output> {
                Some(match order {
                    1 => v.run::<1>(),
                    2 => v.run::<2>(),
                    3 => v.run::<3>(),
                    4 => v.run::<4>(),
                    5 => v.run::<5>(),
                    6 => v.run::<6>(),
                    7 => v.run::<7>(),
                    8 => v.run::<8>(),
                    _ => return None,
                })
            }
            fn at_width<V: private::AtWidth<Self>>(width: usize, v: V) -> Option<V::Output> {
                Some(match width {
                    1 => v.run::<1>(),
                    2 => v.run::<2>(),
                    3 => v.run::<3>(),
                    4 => v.run::<4>(),
                    8 => v.run::<8>(),
                    16 => v.run::<16>(),
                    32 => v.run::<32>(),
                    64 => v.run::<64>(),
                    _ => return None,
                })
            }
            fn at_nested_width<V: private::AtNestedWidth<Self>>(
                width: usize,
                v: V,
            ) -> Option<V::Output> {
                Some(match width {
                    1 => v.run::<1>(),
                    2 => v.run::<2>(),
                    4 => v.run::<4>(),
                    8 => v.run::<8>(),
                    _ => return None,
                })
            }
            fn at_jet_width<V: private::AtJetWidth<Self>>(width: usize, v: V) -> Option<V::Output> {
                Some(match width {
                    1 => v.run::<1>(),
                    2 => v.run::<2>(),
                    3 => v.run::<3>(),
                    4 => v.run::<4>(),
                    8 => v.run::<8>(),
                    16 => v.run::<16>(),
                    _ => return None,
                })
            }
        }
    };
}

chunk_scalar!(f64);
chunk_scalar!(f32);

/// The width a pass runs at for `needed` columns (directions) when asked for chunks
/// of `requested`: `requested` rounded down to one of `widths` (ascending), but no
/// wider than the smallest of them that covers `needed` (one pass, no wasted lanes
/// beyond it). `requested == 0` is an error.
fn width_in(
    function: &'static str,
    widths: &[usize],
    requested: usize,
    needed: usize,
) -> Result<usize, Error> {
    if requested == 0 {
        return Err(Error::UnsupportedWidth {
            function,
            requested,
        });
    }
    let cap = widths
        .iter()
        .copied()
        .rfind(|&w| w <= requested)
        .unwrap_or(1);
    Ok(widths
        .iter()
        .copied()
        .find(|&w| w >= needed.max(1))
        .map_or(cap, |w| w.min(cap)))
}

/// [`width_in`] the instantiated first-order widths, [`DRIVER_WIDTHS`] (powers of two:
/// a narrow problem runs at the next power of two).
pub(crate) fn driver_width(
    function: &'static str,
    requested: usize,
    needed: usize,
) -> Result<usize, Error> {
    width_in(function, &DRIVER_WIDTHS, requested, needed)
}

/// Runs `visitor` at `width`, which [`driver_width`] chose among the instantiated widths.
pub(crate) fn dispatch<F: ChunkScalar, V: private::AtWidth<F>>(
    function: &'static str,
    width: usize,
    visitor: V,
) -> Result<V::Output, Error> {
    F::at_width(width, visitor).ok_or(Error::UnsupportedWidth {
        function,
        requested: width,
    })
}

/// [`driver_width`] for second-order drivers: rounded down to one of
/// [`NESTED_WIDTHS`].
pub(crate) fn nested_width(
    function: &'static str,
    requested: usize,
    needed: usize,
) -> Result<usize, Error> {
    let w = driver_width(function, requested, needed)?;
    Ok(NESTED_WIDTHS
        .iter()
        .copied()
        .rfind(|&n| n <= w)
        .unwrap_or(1))
}

/// Runs `visitor` at `width`, one of [`NESTED_WIDTHS`].
pub(crate) fn dispatch_nested<F: ChunkScalar, V: private::AtNestedWidth<F>>(
    function: &'static str,
    width: usize,
    visitor: V,
) -> Result<V::Output, Error> {
    F::at_nested_width(width, visitor).ok_or(Error::UnsupportedWidth {
        function,
        requested: width,
    })
}

/// [`width_in`] the diagonal-jet widths, [`JET_WIDTHS`].
pub(crate) fn jet_width(
    function: &'static str,
    requested: usize,
    needed: usize,
) -> Result<usize, Error> {
    width_in(function, &JET_WIDTHS, requested, needed)
}

/// Runs `visitor` at `width`, one of [`JET_WIDTHS`].
pub(crate) fn dispatch_jet<F: ChunkScalar, V: private::AtJetWidth<F>>(
    function: &'static str,
    width: usize,
    visitor: V,
) -> Result<V::Output, Error> {
    F::at_jet_width(width, visitor).ok_or(Error::UnsupportedWidth {
        function,
        requested: width,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A first-order pass is `requested` rounded down to an instantiated width, or the
    /// next power of two of `needed` when that is narrower.
    #[test]
    fn driver_widths_cap_at_the_request_and_cover_the_columns() {
        for requested in 1..=70 {
            let cap = DRIVER_WIDTHS
                .iter()
                .copied()
                .rfind(|&w| w <= requested)
                .unwrap();
            for needed in 0..=70 {
                let want = if needed >= cap {
                    cap
                } else {
                    needed.max(1).next_power_of_two()
                };
                assert_eq!(driver_width("t", requested, needed).unwrap(), want);
            }
        }
        assert!(driver_width("t", 0, 3).is_err());
        assert_eq!(jet_width("t", 16, 5).unwrap(), 8);
        assert_eq!(jet_width("t", 3, 5).unwrap(), 3);
        assert_eq!(jet_width("t", 16, 3).unwrap(), 3);
    }
}
