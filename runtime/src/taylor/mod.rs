//! `Taylor<S, K>`: a truncated Taylor polynomial, the reading of Taylor mode.
//!
//! A value `c0 + c1 t + … + cK t^K` is the expansion of `f(x0 + t·dir)` around `t = 0`;
//! every operation maps the input polynomials to the output's by the standard
//! recurrences (O(K²) per multiplication or transcendental), so a whole derivative
//! tower along one direction comes out of one pass, where nesting `NDual`s K deep
//! carries 2^K components.
//!
//! The module is split by responsibility: `series` holds the recurrences, `ops` the
//! arithmetic between polynomials, `mixed` the arithmetic with plain constants and the
//! [`Reading`](crate::Reading) impls, `math` the float method surface ([`Real`]), `num`
//! the `num-traits` impls. Arrays of Taylor values are plain `Vec`s and slices (see
//! `array/primal.rs`).

#[macro_use]
mod math;
mod mixed;
mod num;
mod ops;
mod series;

use core::fmt;

use crate::Real;

/// A truncated Taylor polynomial `c0 + c1 t + … + cK t^K`: the forward value of a
/// float in Taylor mode, carrying the derivatives of order 1 to K along one direction.
///
/// `c0` is stored apart from the `K` higher coefficients (an array of `K + 1` cannot be
/// named on stable Rust). Plain `Copy` data, `#[repr(C)]`. The primal `c0` of every
/// operation is the primal operation itself (`x.exp()`, `a * b`, …), so it is bit for
/// bit what the primal function computes. Comparisons look at `c0` only, and piecewise
/// functions (`abs`, `min`, `floor`, …) follow the branch `c0` selects, as the primal
/// does.
///
/// Coefficients are Taylor coefficients, not derivatives: the j-th derivative along
/// the direction is `j! · c_j` ([`derivative`](Self::derivative)).
///
/// ```
/// use lifted::{Real, Taylor};
/// // exp(x) at x = 0.5 along direction 1: every derivative is exp(0.5).
/// let x = Taylor::<f64, 4>::variable(0.5, 1.0);
/// let y = x.exp();
/// assert_eq!(y.value(), 0.5f64.exp());
/// for j in 1..=4 {
///     assert!((y.derivative(j) - 0.5f64.exp()).abs() < 1e-15);
/// }
/// ```
#[repr(C)]
#[derive(Clone, Copy)]
pub struct Taylor<S, const K: usize> {
    c0: S,
    hi: [S; K],
}

impl<S: Real, const K: usize> Taylor<S, K> {
    /// A polynomial from its constant term and its coefficients of order 1 to K.
    #[inline(always)]
    pub const fn new(c0: S, hi: [S; K]) -> Self {
        Self { c0, hi }
    }

    /// A constant: every higher coefficient zero.
    #[inline(always)]
    pub fn constant(c0: S) -> Self {
        Self {
            c0,
            hi: [S::zero(); K],
        }
    }

    /// The input `x0 + t·dir`: the seed of a derivative tower along `dir`.
    #[inline(always)]
    pub fn variable(x0: S, dir: S) -> Self {
        let mut out = Self::constant(x0);
        if let Some(c1) = out.hi.first_mut() {
            *c1 = dir;
        }
        out
    }

    /// The value `c0` (the primal).
    #[inline(always)]
    pub fn value(&self) -> S {
        self.c0
    }

    /// The coefficients of order 1 to K.
    #[inline(always)]
    pub fn higher(&self) -> &[S; K] {
        &self.hi
    }

    /// Coefficient `j` (`c0` for `j = 0`).
    ///
    /// # Panics
    ///
    /// When `j > K`, as indexing does: the polynomial is truncated there, and a
    /// coefficient it does not carry has no value to return.
    #[inline(always)]
    #[track_caller]
    pub fn coeff(&self, j: usize) -> S {
        if j == 0 { self.c0 } else { self.hi[j - 1] }
    }

    /// The j-th derivative along the direction, `j! · c_j`.
    ///
    /// # Panics
    ///
    /// When `j > K`, as [`coeff`](Self::coeff).
    #[track_caller]
    pub fn derivative(&self, j: usize) -> S {
        let mut d = self.coeff(j);
        for i in 2..=j {
            d *= S::cst(i as f64);
        }
        d
    }

    /// `true` when every higher coefficient is exactly zero: the result of a function
    /// of it is then a constant too, even where the function's derivatives are
    /// infinite or NaN (strong zero, as `NDual` keeps a zero lane zero).
    #[inline(always)]
    pub(crate) fn is_flat(&self) -> bool {
        self.hi.iter().all(S::is_exact_zero)
    }

    /// [`coeff`](Self::coeff) under a short name: the recurrences read it in every
    /// inner loop, always with `j <= K`.
    #[inline(always)]
    pub(crate) fn c(&self, j: usize) -> S {
        if j == 0 { self.c0 } else { self.hi[j - 1] }
    }

    /// Builds a polynomial coefficient by coefficient: `next(k, partial)` returns `c_k`
    /// from the coefficients `c_0 .. c_{k-1}` already in `partial` (the recurrences are
    /// all of this triangular form).
    #[inline(always)]
    pub(crate) fn build(c0: S, mut next: impl FnMut(usize, &Self) -> S) -> Self {
        let mut out = Self::constant(c0);
        for k in 1..=K {
            let v = next(k, &out);
            out.hi[k - 1] = v;
        }
        out
    }

    /// The same polynomial with its constant term replaced (the primal computed by the
    /// primal operation, the recurrence supplying the rest).
    #[inline(always)]
    pub(crate) fn with_value(mut self, c0: S) -> Self {
        self.c0 = c0;
        self
    }

    /// Every higher coefficient mapped by `f`, the constant term given.
    #[inline(always)]
    pub(crate) fn map_hi(&self, c0: S, f: impl FnMut(S) -> S) -> Self {
        Self::new(c0, self.hi.map(f))
    }
}

impl<S: Real, const K: usize> Default for Taylor<S, K> {
    /// The constant zero.
    fn default() -> Self {
        Self::constant(S::zero())
    }
}

impl<S: Real, const K: usize> fmt::Debug for Taylor<S, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Taylor({:?}; {:?})", self.c0, self.hi)
    }
}

impl<S: Real, const K: usize> fmt::Display for Taylor<S, K> {
    /// Shows the polynomial in `t`: `0.5 + 1t + 0t^2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.c0, f)?;
        for (j, c) in self.hi.iter().enumerate() {
            f.write_str(" + ")?;
            fmt::Display::fmt(c, f)?;
            if j == 0 {
                f.write_str("t")?;
            } else {
                write!(f, "t^{}", j + 1)?;
            }
        }
        Ok(())
    }
}
