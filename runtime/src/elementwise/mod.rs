//! Array-level element-wise functions: `tanh(&h)`, `add(&h, bias)`, `powi(&x, 2)`, …,
//! each the scalar rule of the same name applied to every element, with a rule of its
//! own so a call inside an `#[autodiff]` function dispatches like any call.
//!
//! On host readings they are loops over the elements at the reading (the same values
//! and derivatives as writing the loop in the body). What they add is a unit of work a
//! reading can hand elsewhere as a whole: at the CUDA reading
//! (`lifted::cuda::DeviceDual`, feature `cuda`) each call on device arrays is one
//! kernel launch, value and every lane at once. A body written with these functions
//! and the products of [`crate::linalg`] therefore runs on host arrays and on device
//! arrays with the same generated code.
//!
//! ```
//! use lifted::autodiff;
//! use lifted::elementwise::{add, tanh};
//! use lifted::linalg::{Mat, matmul};
//!
//! /// One dense layer over a batch: `tanh(X W + b)` for `n` rows of `X`.
//! #[autodiff(forward, chunk = 2)]
//! fn layer(#[constant] w: &[f64], #[constant] b: &[f64], x: &[f64], n: usize) -> Vec<f64> {
//!     let k = b.len();
//!     let z: Vec<f64> = matmul(Mat::new(x, n, x.len() / n), Mat::new(w, w.len() / k, k));
//!     tanh(&add(&z, b))
//! }
//!
//! fn main() {
//!     let (w, b) = (vec![1.0, -1.0, 0.5, 2.0], vec![0.1, -0.2]);
//!     let x = vec![0.3, 0.4, -0.5, 0.6];
//!     let y = layer(&w, &b, &x, 2);
//!     assert_eq!(y[0], (0.3 * 1.0 + 0.4 * 0.5 + 0.1f64).tanh());
//! }
//! ```
//!
//! # Broadcasting
//!
//! The result has the length of the longest operand, and every other operand's length
//! divides it and the operand repeats: a one-element array is a scalar, a row of `k`
//! elements is added to every row of a row-major `n × k` matrix (a bias). Other lengths
//! panic with a message naming the function and the lengths, as slice indexing does.
//! The same holds for the three operands of [`mul_add()`](fn@mul_add) and
//! [`clamp()`](fn@clamp).

pub use crate::reading::ops::{Binary, Ternary, Unary, UnaryInt};

use crate::array::ArrayOp;
use crate::array::ArrayReading;
use crate::array::offload_array;
use crate::array::{Array, Operand};

/// `op(xᵢ)` for every element at reading `D`: the body of every unary function here.
pub fn map<D: ArrayReading>(op: Unary, x: impl Operand<D>) -> D::Vec {
    if let Some(v) = offload_array(ArrayOp::Unary(op, &x)) {
        return v;
    }
    (0..x.len()).map(|i| op.apply(x.get(i))).collect()
}

/// `op(aᵢ, bᵢ)` for every element at reading `D`, broadcasting the shorter operand (see
/// the module docs): the body of every binary function here.
///
/// # Panics
/// When neither length is a multiple of the other's.
#[track_caller]
pub fn zip<D: ArrayReading>(op: Binary, a: impl Operand<D>, b: impl Operand<D>) -> D::Vec {
    let (la, lb) = (a.len(), b.len());
    let n = broadcast_len(op.name(), la, lb);
    if let Some(v) = offload_array(ArrayOp::Binary(op, &a, &b)) {
        return v;
    }
    (0..n)
        .map(|i| op.apply(a.get(i % la), b.get(i % lb)))
        .collect()
}

/// `op(aᵢ, bᵢ, cᵢ)` for every element at reading `D`, broadcasting the shorter
/// operands: the body of [`mul_add()`](fn@mul_add) and [`clamp()`](fn@clamp).
///
/// # Panics
/// When a length does not divide the longest one; `clamp` where a lower bound
/// exceeds its upper bound or either is NaN, as `f64::clamp` does.
#[track_caller]
pub fn zip3<D: ArrayReading>(
    op: Ternary,
    a: impl Operand<D>,
    b: impl Operand<D>,
    c: impl Operand<D>,
) -> D::Vec {
    let (la, lb, lc) = (a.len(), b.len(), c.len());
    let n = la.max(lb).max(lc);
    for l in [la, lb, lc] {
        broadcast_len(op.name(), l, n);
    }
    if let Some(v) = offload_array(ArrayOp::Ternary(op, &a, &b, &c)) {
        return v;
    }
    (0..n)
        .map(|i| op.apply(a.get(i % la), b.get(i % lb), c.get(i % lc)))
        .collect()
}

/// The length of a broadcast result.
///
/// # Panics
/// When the lengths differ and the shorter one is zero or does not divide the longer.
#[track_caller]
pub fn broadcast_len(op: &str, a: usize, b: usize) -> usize {
    let (short, long) = (a.min(b), a.max(b));
    if short == long || (short > 0 && long.is_multiple_of(short)) {
        return long;
    }
    panic!(
        "elementwise::{op}: operands of lengths {a} and {b} do not broadcast (equal lengths, or \
         the shorter one's length dividing the longer one's)"
    );
}

macro_rules! unary_fns {
    ([] $($op:ident = $name:ident,)*) => {$(
        #[doc = concat!("`x.", stringify!($name), "()` for every element of `x`.")]
        pub fn $name<X>(x: X) -> <<X as Array>::Elem as ArrayReading>::Vec
        where
            X: Operand<<X as Array>::Elem>,
            <X as Array>::Elem: ArrayReading,
        {
            $name::frule::<<X as Array>::Elem>(x)
        }

        #[doc = concat!("The rule of [`", stringify!($name), "()`](fn@", stringify!($name), ").")]
        pub mod $name {
            use super::*;

            #[doc = concat!("[`", stringify!($name), "()`](fn@super::", stringify!($name), ") at reading `D`.")]
            pub fn frule<D: ArrayReading>(x: impl Operand<D>) -> D::Vec {
                map(Unary::$op, x)
            }
        }
    )*};
}

unary_ops!(unary_fns);

macro_rules! binary_fns {
    ([] $($op:ident = $name:ident ($what:literal),)*) => {$(
        #[doc = concat!("`", $what, "` for every element, broadcasting the shorter operand (see the [module docs](self)).")]
        ///
        /// # Panics
        /// When the lengths do not broadcast.
        #[track_caller]
        pub fn $name<A, B>(a: A, b: B) -> <<A as Array>::Elem as ArrayReading>::Vec
        where
            A: Operand<<A as Array>::Elem>,
            B: Operand<<A as Array>::Elem>,
            <A as Array>::Elem: ArrayReading,
        {
            $name::frule::<<A as Array>::Elem>(a, b)
        }

        #[doc = concat!("The rule of [`", stringify!($name), "()`](fn@", stringify!($name), ").")]
        pub mod $name {
            use super::*;

            #[doc = concat!("[`", stringify!($name), "()`](fn@super::", stringify!($name), ") at reading `D`.")]
            #[track_caller]
            pub fn frule<D: ArrayReading>(a: impl Operand<D>, b: impl Operand<D>) -> D::Vec {
                zip(Binary::$op, a, b)
            }
        }
    )*};
}

binary_ops!(binary_fns);

/// `x.powi(n)` for every element of `x`.
pub fn powi<X>(x: X, n: i32) -> <<X as Array>::Elem as ArrayReading>::Vec
where
    X: Operand<<X as Array>::Elem>,
    <X as Array>::Elem: ArrayReading,
{
    powi::frule::<<X as Array>::Elem>(x, n)
}

/// The rule of [`powi()`](fn@powi).
pub mod powi {
    use super::*;

    /// [`powi()`](fn@super::powi) at reading `D`.
    pub fn frule<D: ArrayReading>(x: impl Operand<D>, n: i32) -> D::Vec {
        if let Some(v) = offload_array(ArrayOp::Powi(&x, n)) {
            return v;
        }
        (0..x.len()).map(|i| x.get(i).powi(n)).collect()
    }
}

macro_rules! ternary_fns {
    ($($name:ident => $op:ident ($a:ident, $b:ident, $c:ident): $what:literal, $note:literal $(, $panics:literal)?;)*) => {$(
        #[doc = concat!("`", $what, "`", $note, " for every element, broadcasting the shorter operands (see the [module docs](self)).")]
        ///
        /// # Panics
        #[doc = concat!("When the lengths do not broadcast", $($panics,)? ".")]
        #[track_caller]
        pub fn $name<A, B, C>($a: A, $b: B, $c: C) -> <<A as Array>::Elem as ArrayReading>::Vec
        where
            A: Operand<<A as Array>::Elem>,
            B: Operand<<A as Array>::Elem>,
            C: Operand<<A as Array>::Elem>,
            <A as Array>::Elem: ArrayReading,
        {
            $name::frule::<<A as Array>::Elem>($a, $b, $c)
        }

        #[doc = concat!("The rule of [`", stringify!($name), "()`](fn@", stringify!($name), ").")]
        pub mod $name {
            use super::*;

            #[doc = concat!("[`", stringify!($name), "()`](fn@super::", stringify!($name), ") at reading `D`.")]
            #[track_caller]
            pub fn frule<D: ArrayReading>(
                $a: impl Operand<D>,
                $b: impl Operand<D>,
                $c: impl Operand<D>,
            ) -> D::Vec {
                zip3(Ternary::$op, $a, $b, $c)
            }
        }
    )*};
}

ternary_fns! {
    mul_add => MulAdd(a, b, c): "a.mul_add(b, c)", " (`a b + c`, rounded once in the primal)";
    clamp => Clamp(x, lo, hi): "x.clamp(lo, hi)", " (scalar bounds are one-element arrays)",
        ", or where `lo > hi` or a bound is NaN (as `f64::clamp`)";
}
