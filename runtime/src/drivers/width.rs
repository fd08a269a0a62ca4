//! The widths passes run at: the tables of widths instantiated for run-time choice,
//! the dispatch over them, and [`PassWidth`], how a driver sets its width.
//!
//! A chunk width is a const generic (`NDual<F, N>`), so a width known only at run time
//! (a driver's [`width`](crate::drivers::Driver::width), a width `check_rule` is
//! asked for) is matched here against the widths instantiated ahead of time, and the
//! computation, written once for every `N` (a visitor of [`crate::instantiate`]), is
//! called at that width. A width known at compile time — the rule's `chunk`,
//! [`Driver::chunk::<K>()`](crate::drivers::Driver::chunk) — is instantiated alone.

use crate::{FRule, Param, Reading};

use super::Error;

use crate::instantiate::{AtJetWidth, AtNestedWidth, AtWidth};
pub use crate::instantiate::{
    DRIVER_WIDTHS, JET_WIDTHS, MAX_CHUNK, NESTED_WIDTHS, TAYLOR_ORDERS, WidthTable,
};

/// The float types drivers and [`check_rule`](crate::testing::check_rule) run rules
/// of: `f64` and `f32`, each a reading of itself whose `NDual`s of every supported
/// width (and Taylor polynomials of every order up to [`MAX_TAYLOR_ORDER`]) are
/// readings too.
///
/// Implemented for exactly the [`Scalar`](crate::Scalar) types; there is nothing to implement. A rule
/// with a concrete float type satisfies it; generic code over `R: FRule` that calls a
/// driver or `check_rule` adds the bound `R::Float: ChunkScalar`. It is a trait of its
/// own, not part of [`Scalar`](crate::Scalar), because it names the readings the drivers instantiate,
/// which the scalar layer below them cannot.
pub trait ChunkScalar: WidthTable + Reading<Self> + Param<Self> {
    /// Zeros with a one at [`ONE_HOT_AT`]: the unit vector of lane `l` of a width
    /// `N ≤ 64` is the `N` values from `ONE_HOT_AT - l`, and `N` zeros start at
    /// `ONE_HOT_AT + 1`. Drivers seed a pass by copying from it.
    #[doc(hidden)]
    fn one_hot() -> &'static [Self; ONE_HOT_LEN];
}

/// Where [`ChunkScalar::one_hot`] holds its one: one before the widest width.
#[doc(hidden)]
pub const ONE_HOT_AT: usize = MAX_CHUNK - 1;

/// The length of [`ChunkScalar::one_hot`]: twice the widest width.
#[doc(hidden)]
pub const ONE_HOT_LEN: usize = 2 * MAX_CHUNK;

macro_rules! chunk_scalar {
    ($($f:ty),*) => {$(
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
        }
    )*};
}

chunk_scalar!(f64, f32);

/// The highest derivative order [`derivatives_1d`](crate::derivatives_1d) computes.
pub const MAX_TAYLOR_ORDER: usize = TAYLOR_ORDERS[TAYLOR_ORDERS.len() - 1];

/// How a [`Driver`](crate::drivers::Driver) sets the width of its first-order passes
/// (gradients, Jacobians, directional derivatives):
///
/// * [`RuleChunk`], the default: the rule's own `chunk` (the attribute's literal),
///   instantiated for that width alone;
/// * [`Chunk<K>`] ([`Driver::chunk::<K>()`](crate::drivers::Driver::chunk)): any `K`
///   in `1..=64`, fixed at compile time and instantiated for it alone;
/// * [`RunTimeWidth`] ([`Driver::width`](crate::drivers::Driver::width)): a width
///   chosen by a value, one of [`DRIVER_WIDTHS`] (every one of them instantiated);
///   any other is [`Error::UnsupportedWidth`].
///
/// Passes run at exactly this width: lanes beyond the last column are left unseeded.
pub trait PassWidth: Copy + core::fmt::Debug + Send + Sync + 'static {
    /// The width the passes of rule `R` run at.
    fn width<R: FRule>(&self) -> usize;

    /// [`width`](Self::width), or the error running at it would give: what
    /// second-order and jet passes derive their own widths from.
    #[doc(hidden)]
    fn checked<R: FRule>(&self) -> Result<usize, Error> {
        match self.width::<R>() {
            0 => Err(unsupported(R::NAME, 0, &DRIVER_WIDTHS)),
            w => Ok(w),
        }
    }

    /// Runs `visitor` at [`width`](Self::width).
    #[doc(hidden)]
    fn run<R: FRule, V: AtWidth<R::Float>>(&self, visitor: V) -> Result<V::Output, Error>
    where
        R::Float: ChunkScalar;
}

/// The rule's own width, [`FRule::CHUNK`]: see [`PassWidth`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RuleChunk;

impl PassWidth for RuleChunk {
    fn width<R: FRule>(&self) -> usize {
        R::CHUNK
    }

    fn run<R: FRule, V: AtWidth<R::Float>>(&self, visitor: V) -> Result<V::Output, Error>
    where
        R::Float: ChunkScalar,
    {
        R::at_chunk(visitor).map_err(|_| unsupported(R::NAME, R::CHUNK, &DRIVER_WIDTHS))
    }
}

/// A width fixed at compile time, any `K` in `1..=64`: see [`PassWidth`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Chunk<const K: usize>;

impl<const K: usize> PassWidth for Chunk<K> {
    fn width<R: FRule>(&self) -> usize {
        K
    }

    fn run<R: FRule, V: AtWidth<R::Float>>(&self, visitor: V) -> Result<V::Output, Error>
    where
        R::Float: ChunkScalar,
    {
        Ok(<R::Float as WidthTable>::at_const::<K, V>(visitor))
    }
}

/// A width chosen at run time, one of [`DRIVER_WIDTHS`]: see [`PassWidth`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunTimeWidth(pub usize);

impl PassWidth for RunTimeWidth {
    fn width<R: FRule>(&self) -> usize {
        self.0
    }

    fn checked<R: FRule>(&self) -> Result<usize, Error> {
        if DRIVER_WIDTHS.contains(&self.0) {
            Ok(self.0)
        } else {
            Err(unsupported(R::NAME, self.0, &DRIVER_WIDTHS))
        }
    }

    fn run<R: FRule, V: AtWidth<R::Float>>(&self, visitor: V) -> Result<V::Output, Error>
    where
        R::Float: ChunkScalar,
    {
        <R::Float as WidthTable>::at_width(self.0, visitor)
            .map_err(|_| unsupported(R::NAME, self.0, &DRIVER_WIDTHS))
    }
}

/// The error for a width outside `supported`.
pub(crate) fn unsupported(
    function: &'static str,
    requested: usize,
    supported: &'static [usize],
) -> Error {
    Error::UnsupportedWidth {
        function,
        requested,
        supported,
    }
}

/// The widest of `widths` (ascending) that is at most `width`, narrowed to the
/// smallest of them that covers `needed` (one pass, no wasted lanes beyond it): the
/// width of second-order and jet passes, derived from the driver's first-order width.
fn derived_width(widths: &[usize], width: usize, needed: usize) -> usize {
    let cap = widths.iter().copied().rfind(|&w| w <= width).unwrap_or(1);
    widths
        .iter()
        .copied()
        .find(|&w| w >= needed.max(1))
        .map_or(cap, |w| w.min(cap))
}

/// The width of second-order passes: see [`NESTED_WIDTHS`].
pub(crate) fn nested_width(width: usize, needed: usize) -> usize {
    derived_width(&NESTED_WIDTHS, width, needed)
}

/// Runs `visitor` at `width`, one of [`NESTED_WIDTHS`].
pub(crate) fn dispatch_nested<F: ChunkScalar, V: AtNestedWidth<F>>(
    function: &'static str,
    width: usize,
    visitor: V,
) -> Result<V::Output, Error> {
    F::at_nested_width(width, visitor).map_err(|_| unsupported(function, width, &NESTED_WIDTHS))
}

/// The width of diagonal-jet passes: see [`JET_WIDTHS`].
pub(crate) fn jet_width(width: usize, needed: usize) -> usize {
    derived_width(&JET_WIDTHS, width, needed)
}

/// Runs `visitor` at `width`, one of [`JET_WIDTHS`].
pub(crate) fn dispatch_jet<F: ChunkScalar, V: AtJetWidth<F>>(
    function: &'static str,
    width: usize,
    visitor: V,
) -> Result<V::Output, Error> {
    F::at_jet_width(width, visitor).map_err(|_| unsupported(function, width, &JET_WIDTHS))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Second-order and jet passes: the widest table width within the driver's, or
    /// the narrowest that covers the columns when that is narrower.
    #[test]
    fn derived_widths_cap_at_the_driver_width_and_cover_the_columns() {
        assert_eq!(nested_width(16, 40), 8);
        assert_eq!(nested_width(3, 40), 2);
        assert_eq!(nested_width(8, 3), 4);
        assert_eq!(nested_width(1, 0), 1);
        assert_eq!(jet_width(16, 5), 8);
        assert_eq!(jet_width(3, 5), 3);
        assert_eq!(jet_width(16, 3), 3);
    }

    /// Every table lists ascending widths within `1..=MAX_CHUNK`.
    #[test]
    fn tables_are_ascending_and_in_range() {
        for table in [
            &DRIVER_WIDTHS[..],
            &NESTED_WIDTHS,
            &JET_WIDTHS,
            &TAYLOR_ORDERS,
        ] {
            assert!(table.windows(2).all(|w| w[0] < w[1]), "{table:?}");
            assert!(
                table.iter().all(|&w| (1..=MAX_CHUNK).contains(&w)),
                "{table:?}"
            );
        }
    }
}
