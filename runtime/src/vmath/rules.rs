//! The forward rules of [`tanh()`](fn@crate::vmath::tanh) and
//! [`exp()`](fn@crate::vmath::exp), so that calls inside `#[autodiff]` functions run at
//! every reading.

/// The highest derivative order the rules of [`mod@tanh`] and [`mod@exp`] supply: a reading
/// of higher order (`Reading::ORDER`) is refused at compile time.
pub const MAX_RULE_ORDER: usize = 15;

/// The forward rule of [`tanh()`](fn@crate::vmath::tanh), so that a call `vmath::tanh(x)`
/// inside an `#[autodiff]` function runs at every reading.
///
/// The value is [`tanh()`](fn@crate::vmath::tanh) of the primal at every reading (so the
/// primal part of an `NDual`, a `Taylor` or a nested reading has the bits of the primal
/// function); the derivatives `f′ = 1 − a²`, `f″ = −2a f′`, `f‴ = −2f′² − 2a f″` are the
/// derivative table's lines for `tanh` at `a = tanh x`, the same the batched PINN jets
/// apply, and higher ones (Taylor readings beyond order 3) `f⁽ⁿ⁾ = f′ Rₙ(a)` with `R₁ = 1`,
/// `Rₙ₊₁ = −2a Rₙ + (1 − a²) Rₙ′`.
pub mod tanh {
    use super::MAX_RULE_ORDER;
    use crate::Reading;
    use crate::reading::table::lines::tanh as line;

    /// `tanh` at reading `D`: value and derivatives at the primal, composed into every lane
    /// by [`Reading::compose`].
    #[inline]
    pub fn frule<D: Reading<f64>>(x: D) -> D {
        const {
            assert!(
                D::ORDER <= MAX_RULE_ORDER,
                "vmath::tanh's rule supplies derivatives up to order MAX_RULE_ORDER"
            )
        };
        let z = x.primal_scalar();
        let a = super::super::tanh(z);
        if D::ORDER == 0 {
            return x.compose(&[a]);
        }
        let d1 = line::d1(z, a);
        if D::ORDER == 1 {
            return x.compose(&[a, d1]);
        }
        let d2 = line::d2(z, a, d1);
        if D::ORDER == 2 {
            return x.compose(&[a, d1, d2]);
        }
        let d3 = line::d3(a, d1, d2);
        if D::ORDER == 3 {
            return x.compose(&[a, d1, d2, d3]);
        }
        let mut d = [0.0; MAX_RULE_ORDER + 1];
        d[..4].copy_from_slice(&[a, d1, d2, d3]);
        higher(a, d1, &mut d[..=D::ORDER]);
        x.compose(&d[..=D::ORDER])
    }

    /// `d[n] = f′ Rₙ(a)` for `n ≥ 4`, the coefficients of `Rₙ` (degree `n − 1`, integers)
    /// by `Rₙ₊₁[j] = (j + 1)(Rₙ[j + 1] − Rₙ[j − 1])`. Factoring `f′` out keeps the
    /// derivatives' absolute error proportional to them where `a` nears ±1.
    fn higher(a: f64, d1: f64, d: &mut [f64]) {
        let mut r = [0.0; MAX_RULE_ORDER + 1];
        let mut next = [0.0; MAX_RULE_ORDER + 1];
        r[0] = 1.0;
        for n in 1..d.len() - 1 {
            // `r` holds Rₙ (degree n − 1); make Rₙ₊₁ (degree n).
            for j in 0..=n {
                let above = if j < n { r[j + 1] } else { 0.0 };
                let below = if j > 0 { r[j - 1] } else { 0.0 };
                next[j] = (j + 1) as f64 * (above - below);
            }
            r[..=n].copy_from_slice(&next[..=n]);
            if n + 1 >= 4 {
                let rn = r[..=n].iter().rev().fold(0.0, |acc, &c| acc * a + c);
                d[n + 1] = d1 * rn;
            }
        }
    }
}

/// The forward rule of [`exp()`](fn@crate::vmath::exp), so that a call `vmath::exp(x)`
/// inside an `#[autodiff]` function runs at every reading: the value is
/// [`exp()`](fn@crate::vmath::exp) of the primal, and so is every derivative.
pub mod exp {
    use super::MAX_RULE_ORDER;
    use crate::Reading;

    /// `exp` at reading `D`: value and derivatives at the primal, composed into every lane
    /// by [`Reading::compose`].
    #[inline]
    pub fn frule<D: Reading<f64>>(x: D) -> D {
        const {
            assert!(
                D::ORDER <= MAX_RULE_ORDER,
                "vmath::exp's rule supplies derivatives up to order MAX_RULE_ORDER"
            )
        };
        let e = super::super::exp(x.primal_scalar());
        x.compose(&[e; MAX_RULE_ORDER + 1][..=D::ORDER])
    }
}
