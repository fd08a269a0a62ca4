//! The CUDA reading's answer to the primitives' whole-array operations: run on the
//! device when an operand lives there, on the host otherwise.

use std::sync::Arc;

use super::array::nan_dual;
use super::{DeviceDual, DeviceMut, DeviceRef, DeviceVec};
use crate::NDual;
use crate::NDualArray;
use crate::array::ArrayReading;
use crate::array::{ArrayOp, ArrayOut, Erased, Flat, MatArg, Placement};
use crate::cuda::blas::matmul_shaped;
use crate::cuda::{CudaArray, CudaError, CudaNDualArray, Device, DeviceFloat, Operand, ops};

type D<S, const N: usize> = DeviceDual<S, N>;

/// What the CUDA reading returns for an operation it takes.
type Out<S, const N: usize> = ArrayOut<DeviceVec<S, N>, DeviceDual<S, N>>;

/// The CUDA reading's arrays hold a host copy laid out as `NDual`'s, so their flat view
/// is `NDual`'s; whole-array operations go to the device when an operand lives there.
impl<S: DeviceFloat, const N: usize> ArrayReading for DeviceDual<S, N> {
    type Vec = DeviceVec<S, N>;
    type Ref<'a> = DeviceRef<'a, S, N>;
    type Mut<'a> = DeviceMut<'a, S, N>;
    type FixedRef<'a, const K: usize> = crate::array::OwnedCopy<Self>;
    type FixedMut<'a, const K: usize> = crate::array::OwnedCopyBack<'a, Self>;

    crate::array::held_by_copy!();

    // A fixed array is held as any slice is: copied into a device-reading array.
    fn hold_fixed<const K: usize>(a: &[Self; K]) -> Self::FixedRef<'_, K> {
        Self::hold_slice(a)
    }
    fn hold_fixed_mut<const K: usize>(a: &mut [Self; K]) -> Self::FixedMut<'_, K> {
        Self::hold_slice_mut(a)
    }

    fn flat_width() -> Option<usize> {
        Some(N)
    }
    fn flat_ref<'a>(r: Self::Ref<'a>) -> Option<(&'a [S], &'a [S])> {
        <NDual<S, N> as ArrayReading>::flat_ref(r.host())
    }
    fn flat_vec(v: &DeviceVec<S, N>) -> Option<(&[S], &[S])> {
        <NDual<S, N> as ArrayReading>::flat_vec(v.host())
    }
    fn scalar_from_flat(primal: S, tangent: &[S]) -> Option<Self> {
        <NDual<S, N> as ArrayReading>::scalar_from_flat(primal, tangent).map(Self)
    }
    fn from_flat(primal: Vec<S>, block: Vec<S>) -> Option<DeviceVec<S, N>> {
        <NDual<S, N> as ArrayReading>::from_flat(primal, block).map(DeviceVec::from_host)
    }
    fn array_op(op: ArrayOp<'_, Self>) -> Option<Out<S, N>> {
        run(op)
    }
}

/// Takes `op` when one of its operands has a device copy (or carries an error, which
/// the result then carries); `None` leaves it to the host.
pub(super) fn run<S: DeviceFloat, const N: usize>(op: ArrayOp<'_, D<S, N>>) -> Option<Out<S, N>> {
    let args = operands(&op);
    let vecs: Vec<&DeviceVec<S, N>> = args.iter().filter_map(|x| as_vec(*x)).collect();
    if let Some(e) = vecs.iter().find_map(|v| v.error()) {
        return Some(failed(&op, e.clone()));
    }
    let device = vecs
        .iter()
        .find_map(|v| v.device_array().map(|a| a.device()))
        .or_else(|| {
            args.iter()
                .find_map(|x| as_constant(*x).map(CudaArray::device))
        })?
        .clone();
    match on_device(&device, &op) {
        Ok(out) => out,
        Err(e) => {
            device.record_failure(&e);
            Some(failed(&op, e))
        }
    }
}

fn operands<'a, S: DeviceFloat, const N: usize>(
    op: &ArrayOp<'a, D<S, N>>,
) -> Vec<&'a dyn Erased<D<S, N>>> {
    match op {
        ArrayOp::Unary(_, x) | ArrayOp::Powi(x, _) | ArrayOp::Sum(x) => vec![*x],
        ArrayOp::Binary(_, a, b) | ArrayOp::Dot(a, b) => vec![*a, *b],
        ArrayOp::Ternary(_, a, b, c) => vec![*a, *b, *c],
        ArrayOp::Matmul(a, b) => vec![a.data, b.data],
        ArrayOp::Matvec(a, x) => vec![a.data, *x],
    }
}

fn as_vec<S: DeviceFloat, const N: usize>(x: &dyn Erased<D<S, N>>) -> Option<&DeviceVec<S, N>> {
    match x.placement() {
        Placement::Own(v) => Some(v),
        Placement::Host | Placement::Constant(_) => None,
    }
}

fn as_constant<S: DeviceFloat, const N: usize>(x: &dyn Erased<D<S, N>>) -> Option<&CudaArray<S>> {
    match x.placement() {
        Placement::Constant(c) => Some(c),
        Placement::Host | Placement::Own(_) => None,
    }
}

/// The result of `op` when it cannot be computed: NaNs of the right size carrying
/// `error`.
fn failed<S: DeviceFloat, const N: usize>(
    op: &ArrayOp<'_, D<S, N>>,
    error: CudaError,
) -> Out<S, N> {
    let len = match op {
        ArrayOp::Unary(_, x) | ArrayOp::Powi(x, _) => x.len(),
        ArrayOp::Binary(_, a, b) => a.len().max(b.len()),
        ArrayOp::Ternary(_, a, b, c) => a.len().max(b.len()).max(c.len()),
        ArrayOp::Matmul(a, b) => a.rows * b.cols,
        ArrayOp::Matvec(a, _) => a.rows,
        ArrayOp::Sum(_) | ArrayOp::Dot(..) => return ArrayOut::Scalar(DeviceDual(nan_dual())),
    };
    ArrayOut::Array(DeviceVec::failed(len, error))
}

/// An operand on the device: an array's own device copy, or an upload made for the call.
enum Staged<'a, S: DeviceFloat, const N: usize> {
    Resident(&'a CudaNDualArray<S, N>),
    Active(CudaNDualArray<S, N>),
    ResidentConstant(&'a CudaArray<S>),
    Constant(CudaArray<S>),
}

impl<S: DeviceFloat, const N: usize> Staged<'_, S, N> {
    fn operand(&self) -> Operand<'_, S, N> {
        match self {
            Self::Resident(a) => Operand::Active(a),
            Self::Active(a) => Operand::Active(a),
            Self::ResidentConstant(c) => Operand::Constant(c),
            Self::Constant(c) => Operand::Constant(c),
        }
    }

    fn active(&self) -> Option<&CudaNDualArray<S, N>> {
        match self {
            Self::Resident(a) => Some(a),
            Self::Active(a) => Some(a),
            Self::ResidentConstant(_) | Self::Constant(_) => None,
        }
    }
}

fn stage<'a, S: DeviceFloat, const N: usize>(
    device: &Arc<Device>,
    x: &'a dyn Erased<D<S, N>>,
) -> Result<Staged<'a, S, N>, CudaError> {
    if let Some(v) = as_vec(x) {
        return match v.device_array() {
            Some(a) if !Arc::ptr_eq(a.device(), device) => {
                let host = v.host();
                // A failed download leaves NaNs in the host copy and its error on `v`.
                if let Some(e) = v.error() {
                    return Err(e.clone());
                }
                CudaNDualArray::from_host(device, host).map(Staged::Active)
            }
            _ => v.on(device).map(Staged::Resident),
        };
    }
    if let Some(c) = as_constant(x)
        && Arc::ptr_eq(c.device(), device)
    {
        return Ok(Staged::ResidentConstant(c));
    }
    let host = match x.flat() {
        Some(Flat {
            primal,
            tangent: None,
        }) => return CudaArray::from_slice(device, primal).map(Staged::Constant),
        Some(Flat {
            primal,
            tangent: Some(t),
        }) => NDualArray::from_parts(primal.to_vec(), t.to_vec())
            .map_err(|e| CudaError::shape("upload", e.to_string()))?,
        None => (0..x.len()).map(|i| x.get(i).0).collect(),
    };
    CudaNDualArray::from_host(device, &host).map(Staged::Active)
}

fn array<S: DeviceFloat, const N: usize>(
    r: Result<CudaNDualArray<S, N>, CudaError>,
) -> Result<Option<Out<S, N>>, CudaError> {
    r.map(|a| Some(ArrayOut::Array(DeviceVec::from_device(a))))
}

fn shape<S: DeviceFloat, const N: usize>(m: &MatArg<'_, D<S, N>>) -> [usize; 2] {
    [m.rows, m.cols]
}

/// Runs `op` on `device`; `Ok(None)` for the forms it leaves to the host.
fn on_device<S: DeviceFloat, const N: usize>(
    device: &Arc<Device>,
    op: &ArrayOp<'_, D<S, N>>,
) -> Result<Option<Out<S, N>>, CudaError> {
    match op {
        ArrayOp::Unary(f, x) => match stage(device, *x)?.active() {
            Some(a) => array(ops::unary(*f, a)),
            None => Ok(None),
        },
        ArrayOp::Powi(x, n) => match stage(device, *x)?.active() {
            Some(a) => array(ops::powi(a, *n)),
            None => Ok(None),
        },
        ArrayOp::Binary(f, a, b) => {
            let (a, b) = (stage(device, *a)?, stage(device, *b)?);
            array(ops::binary(*f, a.operand(), b.operand()))
        }
        ArrayOp::Ternary(f, a, b, c) => {
            let (a, b, c) = (stage(device, *a)?, stage(device, *b)?, stage(device, *c)?);
            array(ops::ternary(*f, a.operand(), b.operand(), c.operand()))
        }
        ArrayOp::Matmul(a, b) => {
            if a.transposed || b.transposed {
                return Ok(None);
            }
            let (sa, sb) = (stage(device, a.data)?, stage(device, b.data)?);
            if sa.active().is_none() && sb.active().is_none() {
                return Ok(None);
            }
            array(matmul_shaped(
                sa.operand(),
                &shape(a),
                sb.operand(),
                &shape(b),
            ))
        }
        ArrayOp::Matvec(a, x) => {
            if a.transposed {
                return Ok(None);
            }
            let (sa, sx) = (stage(device, a.data)?, stage(device, *x)?);
            if sa.active().is_none() && sx.active().is_none() {
                return Ok(None);
            }
            array(matmul_shaped(
                sa.operand(),
                &shape(a),
                sx.operand(),
                &[x.len()],
            ))
        }
        ArrayOp::Sum(x) => match stage(device, *x)?.active() {
            Some(a) => Ok(Some(ArrayOut::Scalar(DeviceDual(ops::sum(a)?)))),
            None => Ok(None),
        },
        ArrayOp::Dot(a, b) => {
            let (a, b) = (stage(device, *a)?, stage(device, *b)?);
            let s = ops::dot(a.operand(), b.operand())?;
            Ok(Some(ArrayOut::Scalar(DeviceDual(s))))
        }
    }
}

#[cfg(test)]
mod tests {
    //! The host side of the dispatch: which operations stay on the host, and how a
    //! failed device operation's error travels with its results.
    use super::*;
    use crate::array::{ArrayRef, ArrayView};
    use crate::linalg::Mat;
    use crate::{elementwise, linalg};

    fn host_vec(len: usize) -> DeviceVec<f64, 2> {
        let primal = (0..len).map(|i| i as f64 * 0.25 - 1.0).collect();
        DeviceVec::from_host(NDualArray::from_primal_fn(primal, |i, k| (i + k) as f64))
    }

    fn broken(len: usize) -> DeviceVec<f64, 2> {
        DeviceVec::failed(len, CudaError::OutOfMemory { bytes: 1 << 40 })
    }

    #[test]
    fn operands_on_no_device_stay_on_the_host() {
        let x = host_vec(5);
        assert!(run(ArrayOp::Unary(elementwise::Unary::Tanh, &x.view())).is_none());
        assert!(run(ArrayOp::Sum(&&x)).is_none());
        let c = [1.0, 2.0];
        let (a, b) = (
            Mat::new(&c[..], 1, 2),
            Mat::new(x.view().into_slice(..4), 2, 2),
        );
        assert!(run(ArrayOp::Matmul(MatArg::of(&a), MatArg::of(&b))).is_none());
    }

    #[test]
    fn a_failed_operand_fails_every_result_built_from_it() {
        let (bad, good) = (broken(4), host_vec(4));
        let y = elementwise::add::frule::<D<f64, 2>>(&good, &bad);
        assert_eq!(y.len(), 4);
        assert_eq!(y.error(), bad.error());
        assert!(y.to_host().is_err());
        // Through a whole-array view too, and on into a second operation.
        let z = elementwise::tanh::frule::<D<f64, 2>>(y.view());
        assert_eq!(
            z.to_host().unwrap_err(),
            CudaError::OutOfMemory { bytes: 1 << 40 }
        );
        let s = linalg::sum::frule::<D<f64, 2>>(&z);
        assert!(s.value().is_nan() && s.partials().iter().all(|p| p.is_nan()));
        let m = Mat::new(&bad, 2, 2);
        let v = linalg::matvec::frule::<D<f64, 2>>(m, &[1.0, 2.0][..]);
        assert_eq!(v.len(), 2);
        assert!(v.error().is_some());
    }

    #[test]
    fn clones_and_copies_keep_values_and_errors() {
        let x = host_vec(5);
        let (c, v) = (x.clone(), ArrayView::to_vec(&x));
        assert_eq!(c.to_host().unwrap(), x.to_host().unwrap());
        assert_eq!(v.to_host().unwrap(), x.to_host().unwrap());
        let bad = broken(3);
        assert_eq!(bad.clone().error(), bad.error());
        assert!(ArrayView::to_vec(&bad.view()).to_host().is_err());
    }

    #[test]
    fn a_part_of_an_array_is_not_recognised_as_a_device_array() {
        let x = host_vec(6);
        let whole = x.view();
        let own = |p: Placement<'_, D<f64, 2>>| matches!(p, Placement::Own(_));
        assert!(own(crate::array::Operand::placement(&whole)));
        let part = whole.into_slice(1..3);
        assert!(!own(crate::array::Operand::placement(&part)));
        assert!(own(crate::array::Operand::placement(&whole.into_slice(..))));
    }
}
