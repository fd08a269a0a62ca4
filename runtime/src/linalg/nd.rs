//! `ndarray` interop (feature `ndarray`): `Array1`/`Array2`/… of the field are
//! arguments and results of annotated functions (their elements become values of the
//! reading), and `.dot` on them inside a rule dispatches to the `linalg` rules.
//!
//! Inside a rule an ndarray holds values of the reading element by element; `.dot`
//! gathers its operands into the flat form the rules work on (a constant array of the
//! field stays plain) and scatters the result back, so the product itself is one GEMM
//! over every lane.

use ndarray::{Array, Array1, Array2, ArrayBase, Data, Dimension, Ix1, Ix2};

use crate::Param;
use crate::Reading;
use crate::array::ArrayReading;
use crate::array::OwnedOperand;
use crate::linalg::operand::ConstVec;
use crate::linalg::{Mat, dot, matmul, matvec};

macro_rules! nd_param {
    ($f:ident) => {
        impl<Dim: Dimension> Param<$f> for Array<$f, Dim> {
            type Store<D: Reading<$f>> = Array<D, Dim>;
            fn dim(&self) -> usize {
                self.len()
            }
            fn lift<D: Reading<$f>>(&self, seed: &mut impl FnMut($f) -> D) -> Array<D, Dim> {
                self.map(|&x| seed(x))
            }
            fn visit<D: Reading<$f>>(store: &Array<D, Dim>, f: &mut impl FnMut(D)) {
                store.iter().for_each(|&d| f(d));
            }
            fn primal_of<D: Reading<$f>>(store: &Array<D, Dim>) -> Self {
                store.map(|d| d.primal_scalar())
            }
            fn flatten(&self, out: &mut Vec<$f>) {
                out.extend(self.iter().copied());
            }
            fn unflatten(&mut self, from: &mut impl Iterator<Item = $f>) {
                for (x, v) in self.iter_mut().zip(from) {
                    *x = v;
                }
            }
        }
    };
}

nd_param!(f64);
nd_param!(f32);

/// A constant ndarray of the field inside a rule (a `#[constant]` parameter): its
/// elements stay plain, its tangent is never materialised. Generated code wraps such
/// operands of `.dot`.
#[derive(Clone, Copy, Debug)]
pub struct NdConst<'a, A>(pub &'a A);

/// An ndarray operand of `.dot` at reading `D`, gathered into an array the `linalg`
/// rules take.
pub trait NdOperand<D: ArrayReading> {
    /// The gathered array.
    type Gathered: OwnedOperand<D>;
    /// The array's dimension.
    type Dim: Dimension;
    /// The elements in logical (row-major) order.
    fn gathered(&self) -> Self::Gathered;
    /// The primal values, as an ndarray of the field.
    fn primal(&self) -> Array<D::Field, Self::Dim>;
}

impl<D: ArrayReading, S: Data<Elem = D>, Dim: Dimension> NdOperand<D> for ArrayBase<S, Dim> {
    type Gathered = D::Vec;
    type Dim = Dim;
    fn gathered(&self) -> D::Vec {
        self.iter().copied().collect()
    }
    fn primal(&self) -> Array<D::Field, Dim> {
        self.map(|d| crate::Scalar::from_f64(d.primal_f64()))
    }
}

impl<D: ArrayReading, S: Data<Elem = D::Field>, Dim: Dimension> NdOperand<D>
    for NdConst<'_, ArrayBase<S, Dim>>
{
    type Gathered = ConstVec<D::Field>;
    type Dim = Dim;
    fn gathered(&self) -> ConstVec<D::Field> {
        ConstVec(self.0.iter().copied().collect())
    }
    fn primal(&self) -> Array<D::Field, Dim> {
        self.0.to_owned()
    }
}

/// The rule's result with its primal replaced by `primal`: ndarray's own product of the
/// primal operands, so the primal reading reproduces the primal function (which calls
/// ndarray's `dot`) bit for bit. Readings without a flat view keep their own primal.
fn with_primal<D: ArrayReading>(y: D::Vec, primal: impl IntoIterator<Item = D::Field>) -> D::Vec {
    match D::flat_vec(&y) {
        Some((_, tangent)) => {
            let tangent = tangent.to_vec();
            D::from_flat(primal.into_iter().collect(), tangent).expect("a flat reading")
        }
        None => y,
    }
}

/// `.dot` of ndarrays at reading `D`: matrix–vector, vector–matrix, matrix–matrix and
/// vector–vector products through the `linalg` rules. Generated code calls it for
/// `.dot` on ndarray arguments and locals of annotated functions.
pub trait NdDot<Rhs, D: ArrayReading> {
    /// The product's type (`Array1<D>`, `Array2<D>` or `D`).
    type Output;
    /// `self · rhs`.
    ///
    /// # Panics
    /// When the inner dimensions differ.
    fn nd_dot(&self, rhs: &Rhs) -> Self::Output;
}

#[track_caller]
fn mat_vec<D: ArrayReading>(
    a: &impl OwnedOperand<D>,
    (m, n): (usize, usize),
    x: &impl OwnedOperand<D>,
    primal: Array1<D::Field>,
) -> Array1<D> {
    let y = with_primal::<D>(matvec::frule::<D>(Mat::new(a, m, n), x), primal);
    to_ndarray::<D, _>(&y, Ix1(m))
}

#[track_caller]
fn vec_mat<D: ArrayReading>(
    x: &impl OwnedOperand<D>,
    a: &impl OwnedOperand<D>,
    (m, n): (usize, usize),
    primal: Array1<D::Field>,
) -> Array1<D> {
    let y = with_primal::<D>(matvec::frule::<D>(Mat::new(a, m, n).t(), x), primal);
    to_ndarray::<D, _>(&y, Ix1(n))
}

#[track_caller]
fn mat_mat<D: ArrayReading>(
    a: &impl OwnedOperand<D>,
    (m, n): (usize, usize),
    b: &impl OwnedOperand<D>,
    (nb, p): (usize, usize),
    primal: Array2<D::Field>,
) -> Array2<D> {
    let c = matmul::frule::<D>(Mat::new(a, m, n), Mat::new(b, nb, p));
    let c = with_primal::<D>(c, primal.iter().copied());
    to_ndarray::<D, _>(&c, Ix2(m, p))
}

/// The scalar `x · y` with ndarray's primal (set through a one-element array of the
/// reading, as for the array products).
fn vec_vec<D: ArrayReading>(
    x: &impl OwnedOperand<D>,
    y: &impl OwnedOperand<D>,
    primal: D::Field,
) -> D {
    let one: D::Vec = core::iter::once(dot::frule::<D>(x, y)).collect();
    crate::array::ArrayRead::get(&with_primal::<D>(one, [primal]), 0)
}

/// The four operand kinds (active or constant, left and right) of one shape pair.
macro_rules! nd_dot {
    ($lhs_dim:ty, $rhs_dim:ty, $out:ty, |$a:ident, $ad:ident, $b:ident, $bd:ident, $p:ident| $body:expr) => {
        nd_dot!(@one [S: Data<Elem = D>] ArrayBase<S, $lhs_dim>, (|l: &ArrayBase<S, $lhs_dim>| l.dim()),
                [S2: Data<Elem = D>] ArrayBase<S2, $rhs_dim>, (|r: &ArrayBase<S2, $rhs_dim>| r.dim()),
                $out, |$a, $ad, $b, $bd, $p| $body);
        nd_dot!(@one [S: Data<Elem = D::Field>] NdConst<'_, ArrayBase<S, $lhs_dim>>, (|l: &NdConst<'_, ArrayBase<S, $lhs_dim>>| l.0.dim()),
                [S2: Data<Elem = D>] ArrayBase<S2, $rhs_dim>, (|r: &ArrayBase<S2, $rhs_dim>| r.dim()),
                $out, |$a, $ad, $b, $bd, $p| $body);
        nd_dot!(@one [S: Data<Elem = D>] ArrayBase<S, $lhs_dim>, (|l: &ArrayBase<S, $lhs_dim>| l.dim()),
                [S2: Data<Elem = D::Field>] NdConst<'_, ArrayBase<S2, $rhs_dim>>, (|r: &NdConst<'_, ArrayBase<S2, $rhs_dim>>| r.0.dim()),
                $out, |$a, $ad, $b, $bd, $p| $body);
        nd_dot!(@one [S: Data<Elem = D::Field>] NdConst<'_, ArrayBase<S, $lhs_dim>>, (|l: &NdConst<'_, ArrayBase<S, $lhs_dim>>| l.0.dim()),
                [S2: Data<Elem = D::Field>] NdConst<'_, ArrayBase<S2, $rhs_dim>>, (|r: &NdConst<'_, ArrayBase<S2, $rhs_dim>>| r.0.dim()),
                $out, |$a, $ad, $b, $bd, $p| $body);
    };
    (@one [$($lb:tt)*] $lhs:ty, ($ldim:expr), [$($rb:tt)*] $rhs:ty, ($rdim:expr), $out:ty,
     |$a:ident, $ad:ident, $b:ident, $bd:ident, $p:ident| $body:expr) => {
        impl<D: ArrayReading, $($lb)*, $($rb)*> NdDot<$rhs, D> for $lhs {
            type Output = $out;
            #[track_caller]
            fn nd_dot(&self, rhs: &$rhs) -> $out {
                let ($ad, $bd) = (($ldim)(self), ($rdim)(rhs));
                let ($a, $b) = (NdOperand::<D>::gathered(self), NdOperand::<D>::gathered(rhs));
                let $p = NdOperand::<D>::primal(self).dot(&NdOperand::<D>::primal(rhs));
                $body
            }
        }
    };
}

nd_dot!(Ix2, Ix1, Array1<D>, |a, ad, x, _xd, primal| mat_vec(
    &a, ad, &x, primal
));
nd_dot!(Ix1, Ix2, Array1<D>, |x, _xd, a, ad, primal| vec_mat(
    &x, &a, ad, primal
));
nd_dot!(Ix2, Ix2, Array2<D>, |a, ad, b, bd, primal| mat_mat(
    &a, ad, &b, bd, primal
));
nd_dot!(Ix1, Ix1, D, |x, _xd, y, _yd, primal| vec_vec(
    &x, &y, primal
));

/// The reading's array as an ndarray of the given shape (row-major).
fn to_ndarray<D: ArrayReading, Dim: Dimension>(v: &D::Vec, shape: Dim) -> Array<D, Dim> {
    let elems: Vec<D> = (0..crate::array::ArrayRead::len(v))
        .map(|i| crate::array::ArrayRead::get(v, i))
        .collect();
    Array::from_shape_vec(shape, elems).expect("the product has the stated shape")
}
