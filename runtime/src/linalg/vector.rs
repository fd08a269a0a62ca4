//! Vector primitives: `dot`, `sum`, `norm2` (reductions: the primal once, every lane in
//! one pass over the tangent block) and `scale`, `axpy` (element-wise: the reading's own
//! arithmetic is already the rule).

use crate::Real;
use crate::array::Array;
use crate::array::ArrayOp;
use crate::array::ArrayReading;
use crate::array::offload_scalar;
use crate::array::scalar_from_flat;
use crate::array::{ArrayRead, ArrayWrite};
use crate::array::{Field, Operand};
use crate::linalg::kernel::Float;
use crate::linalg::operand::shape_check;
use num_traits::Zero as _;

/// `Σ xᵢ yᵢ`, summed in index order.
///
/// # Panics
/// When the lengths differ.
#[track_caller]
pub fn dot<X, Y>(x: X, y: Y) -> <X as Array>::Elem
where
    X: Operand<<X as Array>::Elem>,
    Y: Operand<<X as Array>::Elem>,
    <X as Array>::Elem: ArrayReading,
{
    dot::frule::<<X as Array>::Elem>(x, y)
}

/// The rule of [`dot()`](fn@dot).
pub mod dot {
    use super::*;

    /// `x · y` at reading `D`; the tangent `Ẋᵀ y + Ẏᵀ x` for all lanes in one pass.
    #[track_caller]
    pub fn frule<D: ArrayReading>(x: impl Operand<D>, y: impl Operand<D>) -> D {
        shape_check(x.len() == y.len(), "dot", || {
            format!("vectors of lengths {} and {}", x.len(), y.len())
        });
        if let Some(s) = offload_scalar(ArrayOp::Dot(&x, &y)) {
            return s;
        }
        if let (Some(w), Some(xf), Some(yf)) = (D::flat_width(), x.flat(), y.flat()) {
            let mut v = Field::<D>::zero();
            for (a, b) in xf.primal.iter().zip(yf.primal) {
                v += *a * *b;
            }
            let mut t = vec![Field::<D>::zero(); w];
            if w > 0 {
                add_weighted_rows(&mut t, xf.tangent, yf.primal);
                add_weighted_rows(&mut t, yf.tangent, xf.primal);
            }
            return scalar_from_flat::<D>(v, &t);
        }
        let mut s = D::zero();
        for i in 0..x.len() {
            s += x.get(i) * y.get(i);
        }
        s
    }
}

/// `t += Σᵢ weights[i] · block[i]` over the `w`-wide rows of an element-major block.
fn add_weighted_rows<F: Float>(t: &mut [F], block: Option<&[F]>, weights: &[F]) {
    let Some(block) = block else { return };
    let w = t.len();
    for (row, &c) in block.chunks_exact(w).zip(weights) {
        crate::linalg::kernel::axpy_lanes(c, row, t);
    }
}

/// `Σ xᵢ`, in index order.
pub fn sum<X>(x: X) -> <X as Array>::Elem
where
    X: Operand<<X as Array>::Elem>,
    <X as Array>::Elem: ArrayReading,
{
    sum::frule::<<X as Array>::Elem>(x)
}

/// The rule of [`sum()`](fn@sum).
pub mod sum {
    use super::*;

    /// `Σ xᵢ` at reading `D`.
    pub fn frule<D: ArrayReading>(x: impl Operand<D>) -> D {
        if let Some(s) = offload_scalar(ArrayOp::Sum(&x)) {
            return s;
        }
        if let (Some(w), Some(xf)) = (D::flat_width(), x.flat()) {
            let mut v = Field::<D>::zero();
            for a in xf.primal {
                v += *a;
            }
            let mut t = vec![Field::<D>::zero(); w];
            if let (Some(block), true) = (xf.tangent, w > 0) {
                for row in block.chunks_exact(w) {
                    for (t, &r) in t.iter_mut().zip(row) {
                        *t += r;
                    }
                }
            }
            return scalar_from_flat::<D>(v, &t);
        }
        let mut s = D::zero();
        for i in 0..x.len() {
            s += x.get(i);
        }
        s
    }
}

/// The Euclidean norm `√(Σ xᵢ²)`.
///
/// At `x = 0` the norm is not differentiable; the rule returns its one-sided directional
/// derivative `‖ẋ‖` in each lane (zero in an untouched lane), never NaN.
pub fn norm2<X>(x: X) -> <X as Array>::Elem
where
    X: Operand<<X as Array>::Elem>,
    <X as Array>::Elem: ArrayReading,
{
    norm2::frule::<<X as Array>::Elem>(x)
}

/// The rule of [`norm2()`](fn@norm2).
pub mod norm2 {
    use super::*;

    /// `‖x‖` at reading `D`: the tangent `xᵀẋ / ‖x‖`, or `‖ẋ‖` at `x = 0`.
    pub fn frule<D: ArrayReading>(x: impl Operand<D>) -> D {
        if let (Some(w), Some(xf)) = (D::flat_width(), x.flat()) {
            let mut ss = Field::<D>::zero();
            for a in xf.primal {
                ss += *a * *a;
            }
            let v = ss.sqrt();
            let mut t = vec![Field::<D>::zero(); w];
            if w > 0 {
                if v > Field::<D>::zero() {
                    add_weighted_rows(&mut t, xf.tangent, xf.primal);
                    for t in &mut t {
                        *t /= v;
                    }
                } else if let Some(block) = xf.tangent {
                    for row in block.chunks_exact(w) {
                        for (t, &r) in t.iter_mut().zip(row) {
                            *t += r * r;
                        }
                    }
                    for t in &mut t {
                        *t = t.sqrt();
                    }
                }
            }
            return scalar_from_flat::<D>(v, &t);
        }
        let mut ss = D::zero();
        for i in 0..x.len() {
            let xi = x.get(i);
            ss += xi * xi;
        }
        if ss.primal_f64() == 0.0 {
            // √ at zero would divide by zero; the directional derivative of ‖x‖ at 0 is
            // not linear, so the element-wise readings report zero, as `abs` does.
            return ss;
        }
        ss.sqrt()
    }
}

/// `α x` as a new array.
pub fn scale<X>(alpha: <X as Array>::Elem, x: X) -> <<X as Array>::Elem as ArrayReading>::Vec
where
    X: Operand<<X as Array>::Elem>,
    <X as Array>::Elem: ArrayReading,
{
    scale::frule::<<X as Array>::Elem>(alpha, x)
}

/// The rule of [`scale()`](fn@scale).
pub mod scale {
    use super::*;

    /// `α x` at reading `D` (element-wise: `(α xᵢ)˙ = α̇ xᵢ + α ẋᵢ` is the reading's
    /// product).
    pub fn frule<D: ArrayReading>(alpha: D, x: impl Operand<D>) -> D::Vec {
        (0..x.len()).map(|i| alpha * x.get(i)).collect()
    }
}

/// `y ← y + α x`, in place.
///
/// # Panics
/// When the lengths differ.
#[track_caller]
pub fn axpy<X, Y>(alpha: <X as Array>::Elem, x: X, y: Y)
where
    X: Operand<<X as Array>::Elem>,
    <X as Array>::Elem: ArrayReading,
    Y: ArrayWrite<<X as Array>::Elem>,
{
    axpy::frule::<<X as Array>::Elem>(alpha, x, y);
}

/// The rule of [`axpy()`](fn@axpy).
pub mod axpy {
    use super::*;

    /// `y ← y + α x` at reading `D`, element-wise.
    #[track_caller]
    pub fn frule<D: ArrayReading>(alpha: D, x: impl Operand<D>, mut y: impl ArrayWrite<D>) {
        shape_check(x.len() == ArrayRead::len(&y), "axpy", || {
            format!("x of length {} and y of length {}", x.len(), y.len())
        });
        for i in 0..x.len() {
            let v = y.get(i) + alpha * x.get(i);
            y.set(i, v);
        }
    }
}
