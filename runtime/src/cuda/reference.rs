//! Host references for the kernels: each op of [`kernels`](super::kernels) evaluated by
//! the CPU [`NDual`] rule it transcribes (the CPU rule *is* the specification), one
//! element at a time or over whole lane-major buffers laid out as the kernels take
//! them.
//!
//! A constant operand (a null tangent pointer on the device) is an
//! [`Operand::Constant`]: `+ - * / %` then use the CPU's mixed arithmetic with a plain
//! constant (which skips the constant's terms, as the kernels do); the other ops lift
//! it to a dual with zero lanes, as derived rules do.
//!
//! ```
//! use lifted::NDual;
//! use lifted::cuda::kernels::Binary;
//! use lifted::cuda::reference::{self, Operand};
//! let x = NDual::<f64, 2>::new(3.0, [1.0, 0.0]);
//! let y = reference::binary(Binary::Mul, Operand::Dual(x), Operand::Constant(2.0));
//! assert_eq!((y.value(), *y.partials()), (6.0, [2.0, 0.0]));
//! ```

use super::kernels::{Binary, Ternary, Unary, UnaryInt};
use crate::{NDual, Reading, Real, Scalar};

/// An input of a reference: a dual, or a constant (no tangent lanes).
#[derive(Clone, Copy)]
pub enum Operand<S, const N: usize> {
    /// A value with N tangent lanes.
    Dual(NDual<S, N>),
    /// A constant: what a null tangent pointer means to a kernel.
    Constant(S),
}

impl<S: Real, const N: usize> core::fmt::Debug for Operand<S, N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::Dual(x) => f.debug_tuple("Dual").field(x).finish(),
            Self::Constant(c) => f.debug_tuple("Constant").field(c).finish(),
        }
    }
}

impl<S: Scalar + Real, const N: usize> Operand<S, N> {
    /// The operand as a dual (a constant with zero lanes).
    pub fn dual(self) -> NDual<S, N> {
        match self {
            Self::Dual(x) => x,
            Self::Constant(c) => NDual::constant(c),
        }
    }
}

/// `op(x)` by the CPU rule.
pub fn unary<S, const N: usize>(op: Unary, x: NDual<S, N>) -> NDual<S, N>
where
    S: Scalar + Real,
    NDual<S, N>: Reading<S>,
{
    op.apply(x)
}

/// `op(x, p)` by the CPU rule.
pub fn unary_int<S, const N: usize>(op: UnaryInt, x: NDual<S, N>, p: i32) -> NDual<S, N>
where
    S: Scalar + Real,
    NDual<S, N>: Reading<S>,
{
    match op {
        UnaryInt::Powi => x.powi(p),
    }
}

/// `a.op(b)` (or `a op b`) by the CPU rule; constants as the module docs say.
pub fn binary<S, const N: usize>(op: Binary, a: Operand<S, N>, b: Operand<S, N>) -> NDual<S, N>
where
    S: Scalar + Real,
    NDual<S, N>: Reading<S>,
{
    use Operand::{Constant, Dual};
    match (op, a, b) {
        (_, Constant(x), Constant(y)) => {
            NDual::constant(binary(op, Dual(NDual::constant(x)), Constant(y)).value())
        }
        (Binary::Add, Dual(x), Constant(c)) => x + c,
        (Binary::Add, Constant(c), Dual(y)) => y.radd(c),
        (Binary::Sub, Dual(x), Constant(c)) => x - c,
        (Binary::Sub, Constant(c), Dual(y)) => y.rsub(c),
        (Binary::Mul, Dual(x), Constant(c)) => x * c,
        (Binary::Mul, Constant(c), Dual(y)) => y.rmul(c),
        (Binary::Div, Dual(x), Constant(c)) => x / c,
        (Binary::Div, Constant(c), Dual(y)) => y.rdiv(c),
        (Binary::Rem, Dual(x), Constant(c)) => x % c,
        (Binary::Rem, Constant(c), Dual(y)) => y.rrem(c),
        (op, a, b) => op.apply(a.dual(), b.dual()),
    }
}

/// `a.op(b, c)` by the CPU rule (constants lifted to zero lanes). `clamp` panics, as
/// the CPU's does, when `b > c` or either is NaN.
pub fn ternary<S, const N: usize>(
    op: Ternary,
    a: Operand<S, N>,
    b: Operand<S, N>,
    c: Operand<S, N>,
) -> NDual<S, N>
where
    S: Scalar + Real,
    NDual<S, N>: Reading<S>,
{
    op.apply(a.dual(), b.dual(), c.dual())
}

/// A host operand laid out as a kernel takes it: `values` (its length is the
/// operand's element count) and, unless it is a constant, `tangents` lane-major
/// (`values.len() * N` values, lane `k` of element `i` at `k * values.len() + i`).
#[derive(Clone, Copy, Debug)]
pub struct LaneMajor<'a, S> {
    /// The values.
    pub values: &'a [S],
    /// The lane-major tangents; `None` for a constant (a null pointer on the device).
    pub tangents: Option<&'a [S]>,
}

impl<S: Scalar + Real> LaneMajor<'_, S> {
    /// Element `i` of `len` broadcast outputs (`i % values.len()`), as an operand.
    #[track_caller]
    fn at<const N: usize>(&self, i: usize) -> Operand<S, N> {
        let n = self.values.len();
        let e = i % n;
        match self.tangents {
            None => Operand::Constant(self.values[e]),
            Some(t) => {
                assert_eq!(t.len(), n * N, "tangents must hold values.len() × N");
                Operand::Dual(NDual::new(
                    self.values[e],
                    core::array::from_fn(|k| t[k * n + e]),
                ))
            }
        }
    }
}

/// Applies `f` to `len` broadcast elements of `operands`, as a kernel does: returns the
/// values and the lane-major tangents (zero where no operand has tangents).
///
/// # Panics
/// When an operand is empty, its length does not divide `len`, or its tangents are
/// not `values.len() × N` long.
#[track_caller]
pub fn lane_major<S, const N: usize, const A: usize>(
    operands: [LaneMajor<'_, S>; A],
    len: usize,
    f: impl Fn([Operand<S, N>; A]) -> NDual<S, N>,
) -> (Vec<S>, Vec<S>)
where
    S: Scalar + Real,
{
    for o in &operands {
        let n = o.values.len();
        assert!(
            n > 0 && len.is_multiple_of(n),
            "operand of {n} elements for {len} outputs"
        );
    }
    let constant = operands.iter().all(|o| o.tangents.is_none());
    let mut values = Vec::with_capacity(len);
    let mut tangents = vec![S::zero(); len * N];
    for i in 0..len {
        let y = f(core::array::from_fn(|j| operands[j].at(i)));
        values.push(y.value());
        if !constant {
            for (k, &p) in y.partials().iter().enumerate() {
                tangents[k * len + i] = p;
            }
        }
    }
    (values, tangents)
}

/// The value and lanes of `Σ x` (the `sum` kernel's result, in sequential order).
pub fn sum<S, const N: usize>(x: &[NDual<S, N>]) -> NDual<S, N>
where
    S: Scalar + Real,
{
    x.iter().sum()
}

/// The value and lanes of `Σ a b` (the `dot` kernel's result, in sequential order).
#[track_caller]
pub fn dot<S, const N: usize>(a: &[NDual<S, N>], b: &[NDual<S, N>]) -> NDual<S, N>
where
    S: Scalar + Real,
{
    assert_eq!(a.len(), b.len(), "dot of different lengths");
    a.iter().zip(b).map(|(x, y)| *x * *y).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_follow_mixed_arithmetic() {
        let x = NDual::<f64, 1>::new(2.0, [1.0]);
        let q = binary(Binary::Div, Operand::Constant(1.0), Operand::Dual(x));
        assert_eq!((q.value(), q.partial(0)), (0.5, -0.25));
        let c = binary::<f64, 1>(Binary::Sub, Operand::Constant(3.0), Operand::Constant(1.0));
        assert_eq!((c.value(), c.partial(0)), (2.0, 0.0));
    }
}
