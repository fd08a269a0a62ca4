//! Computations written once for every width (or order) and run at one chosen later.
//!
//! A chunk width is a const generic (`NDual<F, N>`), so a width chosen by a value
//! (a driver's setting, a width `check_rule` is asked for) is matched against the
//! widths instantiated ahead of time, and a computation written once for every `N` —
//! a visitor — is called at it. The visitors are here, below the rules, because a
//! rule names one of them: [`FRule::at_chunk`](crate::FRule::at_chunk) runs a visitor
//! at the rule's own width, which only the code that knows the literal can
//! instantiate.
//!
//! A first-order visitor is generic over its reading as well as its width
//! ([`AtWidth::run`]`::<N, D>`), and says which reading it wants ([`AtWidth::kind`]):
//! the dispatch below is the one place that maps a [`ColumnKind`] to a type, so a new
//! reading for gradients and Jacobians is an arm there and a [`ColumnReading`] impl,
//! and no visitor changes. The higher-order visitors each run one family of readings,
//! named in their bounds.

use crate::{DiagJet, NDual, Reading, Scalar, Taylor, ZDual};

/// The widest chunk a pass may have (a rule's `chunk`,
/// [`Driver::chunk`](crate::drivers::Driver::chunk)).
pub const MAX_CHUNK: usize = 64;

/// The float fields, each with its visitors dispatched over the width tables: a width
/// chosen by a value is matched against the table's widths, each instantiated.
pub trait WidthTable: Scalar {
    /// Calls `visitor.run::<N, D>()` with `N = width` when `width` is one of
    /// [`DRIVER_WIDTHS`], `D` the reading of [`visitor.kind()`](AtWidth::kind); gives
    /// the visitor back otherwise.
    fn at_width<V: AtWidth<Self>>(width: usize, visitor: V) -> Result<V::Output, V>;

    /// Calls `visitor.run::<K, D>()`, `D` the reading of
    /// [`visitor.kind()`](AtWidth::kind): a width fixed at compile time, any `K` in
    /// `1..=MAX_CHUNK`.
    fn at_const<const K: usize, V: AtWidth<Self>>(visitor: V) -> V::Output;

    /// Calls `visitor.run::<N>()` with `N = width` when `width` is one of
    /// [`NESTED_WIDTHS`]; gives the visitor back otherwise.
    fn at_nested_width<V: AtNestedWidth<Self>>(width: usize, visitor: V) -> Result<V::Output, V>;

    /// Calls `visitor.run::<N>()` with `N = width` when `width` is one of
    /// [`JET_WIDTHS`]; gives the visitor back otherwise.
    fn at_jet_width<V: AtJetWidth<Self>>(width: usize, visitor: V) -> Result<V::Output, V>;

    /// Calls `visitor.run::<K>()` with `K = order` when `order` is one of
    /// [`TAYLOR_ORDERS`]; gives the visitor back otherwise.
    fn at_order<V: AtOrder<Self>>(order: usize, visitor: V) -> Result<V::Output, V>;
}

/// Counts the literals it is given (the length of a width table).
macro_rules! count {
    () => { 0 };
    ($head:literal $($tail:literal)*) => { 1 + count!($($tail)*) };
}

/// `WidthTable` for one float type, each dispatch a `match` over its table.
macro_rules! width_table {
    ($f:ty; [$($w:literal)*]; [$($n:literal)*]; [$($j:literal)*]; [$($k:literal)*]) => {
        impl WidthTable for $f {
            fn at_width<V: AtWidth<Self>>(width: usize, v: V) -> Result<V::Output, V> {
                match width {
                    $($w => Ok(Self::at_const::<$w, V>(v)),)*
                    _ => Err(v),
                }
            }
            #[inline]
            fn at_const<const K: usize, V: AtWidth<Self>>(v: V) -> V::Output {
                const { assert!(K >= 1 && K <= MAX_CHUNK, "a chunk width is from 1 to 64") };
                match v.kind() {
                    ColumnKind::Dense => v.run::<K, NDual<Self, K>>(),
                    ColumnKind::ZeroSkipping => v.run::<K, ZDual<Self, K>>(),
                }
            }
            fn at_nested_width<V: AtNestedWidth<Self>>(
                width: usize,
                v: V,
            ) -> Result<V::Output, V> {
                match width {
                    $($n => Ok(v.run::<$n>()),)*
                    _ => Err(v),
                }
            }
            fn at_jet_width<V: AtJetWidth<Self>>(width: usize, v: V) -> Result<V::Output, V> {
                match width {
                    $($j => Ok(v.run::<$j>()),)*
                    _ => Err(v),
                }
            }
            fn at_order<V: AtOrder<Self>>(order: usize, v: V) -> Result<V::Output, V> {
                match order {
                    $($k => Ok(v.run::<$k>()),)*
                    _ => Err(v),
                }
            }
        }
    };
}

/// The width tables and the dispatch over them, from one list each: a width is
/// instantiated for run-time choice exactly when it is in its table.
macro_rules! width_tables {
    (
        first: $first:tt;
        nested: $nested:tt;
        jet: $jet:tt;
        orders: $orders:tt;
        floats: $($f:ty),*
    ) => {
        width_tables!(@const
            /// The widths a pass width chosen at run time may take
            /// ([`Driver::width`](crate::drivers::Driver::width),
            /// [`gradient_with_chunk`](crate::gradient_with_chunk), the widths
            /// [`check_rule`](crate::testing::check_rule) is asked for): each is
            /// instantiated ahead of time, so any other is an error. A width fixed at
            /// compile time ([`Driver::chunk`](crate::drivers::Driver::chunk), a rule's
            /// `chunk`) may be any of `1..=64`.
            DRIVER_WIDTHS = $first);
        width_tables!(@const
            /// The widths second-order drivers run at: a pass at width `N` carries `N`
            /// outer directions over `N` (or one) inner directions, `(N + 1)²` floats
            /// per scalar, so wider chunks stop paying off early. A second-order pass
            /// runs at the widest of these that is at most the driver's width.
            NESTED_WIDTHS = $nested);
        width_tables!(@const
            /// The widths the diagonal-jet driver
            /// ([`value_jacobian_hessian_diag`](crate::value_jacobian_hessian_diag)) runs
            /// at: a pass at width `N` carries `2N + 1` floats per scalar. 3 is there for
            /// the space-time coordinates of a PDE.
            JET_WIDTHS = $jet);
        width_tables!(@const
            /// The truncation orders [`derivatives_1d`](crate::derivatives_1d) runs at,
            /// each its own instantiation of the rule (the polynomial's length is a
            /// const generic).
            TAYLOR_ORDERS = $orders);
        $(width_table!($f; $first; $nested; $jet; $orders);)*
    };
    (@const $(#[$doc:meta])* $name:ident = [$($w:literal)*]) => {
        $(#[$doc])*
        pub const $name: [usize; count!($($w)*)] = [$($w),*];
    };
}

width_tables! {
    first: [1 2 3 4 8 16 32 64];
    nested: [1 2 4 8];
    jet: [1 2 3 4 8 16];
    orders: [1 2 3 4 5 6 7 8];
    floats: f64, f32
}

/// The reading of a first-order pass, as a value: what a visitor asks
/// [`WidthTable`]'s dispatch for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ColumnKind {
    /// [`NDual<F, N>`]: every lane computed.
    #[default]
    Dense,
    /// [`ZDual<F, N>`]: values whose tangents are all zero skip the lanes.
    ZeroSkipping,
}

/// A reading that first-order passes (gradients, Jacobians, directional derivatives)
/// run at: `N` lanes, seeded from plain floats and read back as plain floats.
/// [`NDual`] (dense) and [`ZDual`] (zero-skipping) are.
pub trait ColumnReading<F: Scalar, const N: usize>: Reading<F> {
    /// `x` seeded in `lane`, or a constant when `lane` is `None` or not below `N`.
    fn seed(x: F, lane: Option<usize>) -> Self;
    /// [`seed`](Self::seed), by whatever way is fastest for the reading.
    #[inline(always)]
    fn seed_fast(x: F, lane: Option<usize>) -> Self {
        Self::seed(x, lane)
    }
    /// `x` with the given tangents.
    fn with_partials(x: F, partials: [F; N]) -> Self;
    /// The value.
    fn value_of(&self) -> F;
    /// Writes the first `out.len()` (at most `N`) partials to `out`.
    fn lanes_into(&self, out: &mut [F]);
}

/// A computation generic over the chunk width and the first-order reading: the
/// passes of gradients, Jacobians and directional derivatives.
pub trait AtWidth<F: Scalar> {
    /// The result.
    type Output;
    /// The reading to run at.
    #[inline]
    fn kind(&self) -> ColumnKind {
        ColumnKind::Dense
    }
    /// Runs at width `N` and reading `D`, the one [`kind`](Self::kind) names.
    fn run<const N: usize, D: ColumnReading<F, N>>(self) -> Self::Output;
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

/// A computation generic over the truncation order of a Taylor polynomial.
pub trait AtOrder<F: Scalar> {
    /// The result.
    type Output;
    /// Runs at order `K`.
    fn run<const K: usize>(self) -> Self::Output
    where
        Taylor<F, K>: Reading<F>;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reports the width and reading it was run at.
    struct Probe(ColumnKind);

    impl AtWidth<f64> for Probe {
        type Output = (usize, &'static str, usize);
        fn kind(&self) -> ColumnKind {
            self.0
        }
        fn run<const N: usize, D: ColumnReading<f64, N>>(self) -> Self::Output {
            (N, core::any::type_name::<D>(), core::mem::size_of::<D>())
        }
    }

    #[test]
    fn the_dispatch_runs_the_reading_a_visitor_asks_for() {
        let (n, name, _) = f64::at_const::<5, _>(Probe(ColumnKind::Dense));
        assert_eq!((n, name), (5, core::any::type_name::<NDual<f64, 5>>()));
        let (n, name, _) = f64::at_const::<5, _>(Probe(ColumnKind::ZeroSkipping));
        assert_eq!((n, name), (5, core::any::type_name::<ZDual<f64, 5>>()));
        for width in DRIVER_WIDTHS {
            let Ok((n, _, size)) = f64::at_width(width, Probe(ColumnKind::Dense)) else {
                panic!("width {width} is in the table");
            };
            assert_eq!((n, size), (width, 8 * (width + 1)));
        }
        assert!(f64::at_width(5, Probe(ColumnKind::Dense)).is_err());
        assert!(f64::at_width(0, Probe(ColumnKind::ZeroSkipping)).is_err());
    }
}
