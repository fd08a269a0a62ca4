//! Element-wise rules, broadcasting and reductions on device arrays: one kernel launch
//! per operation, the value computed once per element and every lane beside it.

use std::sync::Arc;

use cudarc::driver::PushKernelArg;

use super::array::{CudaArray, CudaNDualArray};
use super::device::to_config;
use super::float::DeviceFloat;
use super::kernels::{Binary, Ternary, Unary};
use super::launch::LaunchShape;
use super::{CudaError, Device};
use crate::NDual;

/// An operand of an element-wise operation or a product.
///
/// Built with `.into()` from a forward-mode array (active), a constant array, or a
/// scalar; constant operands contribute no tangent terms at all (not a multiplication
/// by zero, which would turn an infinite partial into NaN).
#[derive(Clone, Copy, Debug)]
pub enum Operand<'a, S: DeviceFloat, const N: usize> {
    /// An array with tangents.
    Active(&'a CudaNDualArray<S, N>),
    /// A constant array.
    Constant(&'a CudaArray<S>),
    /// A constant scalar, broadcast to every element.
    Scalar(S),
}

impl<'a, S: DeviceFloat, const N: usize> From<&'a CudaNDualArray<S, N>> for Operand<'a, S, N> {
    fn from(x: &'a CudaNDualArray<S, N>) -> Self {
        Self::Active(x)
    }
}

impl<'a, S: DeviceFloat, const N: usize> From<&'a CudaArray<S>> for Operand<'a, S, N> {
    fn from(x: &'a CudaArray<S>) -> Self {
        Self::Constant(x)
    }
}

macro_rules! scalar_operand {
    ($($t:ty),*) => {$(
        impl<'a, const N: usize> From<$t> for Operand<'a, $t, N> {
            fn from(x: $t) -> Self {
                Self::Scalar(x)
            }
        }
    )*};
}
scalar_operand!(f32, f64);

/// An operand as the kernels take it: value and tangent addresses (0 = constant),
/// its length (the broadcast period), and a scalar's upload kept alive.
struct Raw<S: DeviceFloat> {
    value: u64,
    tangent: u64,
    len: usize,
    _scalar: Option<CudaArray<S>>,
}

impl<S: DeviceFloat, const N: usize> Operand<'_, S, N> {
    fn device(&self) -> Option<&Arc<Device>> {
        match self {
            Self::Active(a) => Some(a.device()),
            Self::Constant(c) => Some(c.device()),
            Self::Scalar(_) => None,
        }
    }

    pub(crate) fn shape(&self) -> &[usize] {
        match self {
            Self::Active(a) => a.shape(),
            Self::Constant(c) => c.shape(),
            Self::Scalar(_) => &[],
        }
    }

    pub(crate) fn len(&self) -> usize {
        match self {
            Self::Active(a) => a.len(),
            Self::Constant(c) => c.len(),
            Self::Scalar(_) => 1,
        }
    }

    fn raw(&self, device: &Arc<Device>) -> Result<Raw<S>, CudaError> {
        Ok(match *self {
            Self::Active(a) => Raw {
                value: a.stream_address(0),
                tangent: a.stream_address(1),
                len: a.len(),
                _scalar: None,
            },
            Self::Constant(c) => Raw {
                value: c.address(),
                tangent: 0,
                len: c.len(),
                _scalar: None,
            },
            Self::Scalar(s) => {
                let up = CudaArray::from_slice(device, &[s])?;
                Raw {
                    value: up.address(),
                    tangent: 0,
                    len: 1,
                    _scalar: Some(up),
                }
            }
        })
    }
}

/// The device and result shape of an element-wise operation on `operands`: every
/// operand has the result's length, or a length dividing it and repeats (a scalar, a
/// row of a row-major matrix), as the kernels read it (`i % len`).
fn broadcast<S: DeviceFloat, const N: usize>(
    op: &'static str,
    operands: &[Operand<'_, S, N>],
) -> Result<(Arc<Device>, Vec<usize>), CudaError> {
    let device = operands
        .iter()
        .find_map(|o| o.device())
        .ok_or_else(|| CudaError::shape(op, "every operand is a scalar: nothing is on a device"))?
        .clone();
    if operands
        .iter()
        .filter_map(|o| o.device())
        .any(|d| !Arc::ptr_eq(d, &device))
    {
        return Err(CudaError::shape(op, "operands live on different devices"));
    }
    // The largest array operand gives the shape (a scalar only when all are scalars,
    // which was refused above).
    let shape = operands
        .iter()
        .max_by_key(|o| (!matches!(o, Operand::Scalar(_)), o.len()))
        .map(|o| o.shape().to_vec())
        .unwrap_or_default();
    let len: usize = shape.iter().product();
    for o in operands {
        let l = o.len();
        if l != len && !len.is_multiple_of(l) {
            return Err(CudaError::shape(
                op,
                format!(
                    "an operand of shape {:?} does not broadcast to {shape:?} (the same length, \
                     a scalar, or a length dividing {len}, repeated: a row of a row-major \
                     matrix)",
                    o.shape()
                ),
            ));
        }
    }
    Ok((device, shape))
}

/// Converts an element count for a kernel's `long long` parameter.
fn long(x: usize) -> i64 {
    i64::try_from(x).unwrap_or(i64::MAX)
}

/// The lane count for a kernel's `int` parameter.
fn lanes<const N: usize>() -> i32 {
    i32::try_from(N).unwrap_or(i32::MAX)
}

/// One element-wise launch of kernel `name` over `operands` (broadcast to the result's
/// shape), then the result's value and lanes, the length and the lane count, then
/// `extra` (`powi`'s exponent). `periods`: whether each operand is followed by its
/// length (the broadcasting kernels) or not (the unary ones).
fn launch<S: DeviceFloat, const N: usize>(
    name: &'static str,
    operands: &[Operand<'_, S, N>],
    periods: bool,
    extra: Option<i32>,
) -> Result<CudaNDualArray<S, N>, CudaError> {
    let (device, shape) = broadcast(name, operands)?;
    let f = device.kernel::<S>(name)?;
    let y = CudaNDualArray::<S, N>::uninit(&device, shape)?;
    if y.is_empty() {
        return Ok(y);
    }
    let raws = operands
        .iter()
        .map(|o| o.raw(&device))
        .collect::<Result<Vec<_>, _>>()?;
    let lens: Vec<i64> = raws.iter().map(|r| long(r.len)).collect();
    let (yv, yd) = (y.stream_address(0), y.stream_address(1));
    let (len, n) = (long(y.len()), lanes::<N>());
    let mut args = device.stream().launch_builder(&f);
    for (r, l) in raws.iter().zip(&lens) {
        args.arg(&r.value).arg(&r.tangent);
        if periods {
            args.arg(l);
        }
    }
    args.arg(&yv).arg(&yd).arg(&len).arg(&n);
    if let Some(p) = extra.as_ref() {
        args.arg(p);
    }
    // SAFETY: the arguments follow the kernel signatures of `kernels` (operands as
    // (value, tangent[, period]), then yv, yd, len, lanes[, p]); each operand buffer
    // holds (1 + N) · period values, or period values with a null tangent when
    // constant; `broadcast` checked every period is len or divides it, so `i % period`
    // stays in bounds; the result holds (1 + N) · len.
    unsafe { args.launch(Device::elementwise_config(y.len())) }
        .map_err(|e| CudaError::driver("element-wise kernel", e))?;
    Ok(y)
}

/// `f` applied element-wise to `x`: values and every lane, one launch.
///
/// # Errors
/// Kernel compilation, allocation and launch errors.
pub fn unary<S: DeviceFloat, const N: usize>(
    op: Unary,
    x: &CudaNDualArray<S, N>,
) -> Result<CudaNDualArray<S, N>, CudaError> {
    launch(op.name(), &[Operand::Active(x)], false, None)
}

/// `x.powi(p)` element-wise.
///
/// # Errors
/// As [`unary`].
pub fn powi<S: DeviceFloat, const N: usize>(
    x: &CudaNDualArray<S, N>,
    p: i32,
) -> Result<CudaNDualArray<S, N>, CudaError> {
    launch("powi", &[Operand::Active(x)], false, Some(p))
}

/// `op(a, b)` element-wise with broadcasting (see [`Operand`]).
///
/// # Errors
/// [`CudaError::Shape`] when the operands do not broadcast or are all scalars; kernel
/// compilation, allocation and launch errors.
pub fn binary<'a, S: DeviceFloat, const N: usize>(
    op: Binary,
    a: impl Into<Operand<'a, S, N>>,
    b: impl Into<Operand<'a, S, N>>,
) -> Result<CudaNDualArray<S, N>, CudaError> {
    launch(op.name(), &[a.into(), b.into()], true, None)
}

/// `op(a, b, c)` element-wise with broadcasting (`mul_add`, `clamp`).
///
/// # Errors
/// As [`binary`].
pub fn ternary<'a, S: DeviceFloat, const N: usize>(
    op: Ternary,
    a: impl Into<Operand<'a, S, N>>,
    b: impl Into<Operand<'a, S, N>>,
    c: impl Into<Operand<'a, S, N>>,
) -> Result<CudaNDualArray<S, N>, CudaError> {
    launch(op.name(), &[a.into(), b.into(), c.into()], true, None)
}

/// Runs the finishing pass of a two-pass reduction and downloads the `1 + N` sums.
fn finish<S: DeviceFloat, const N: usize>(
    device: &Arc<Device>,
    partial: &CudaArray<S>,
    blocks: u32,
) -> Result<NDual<S, N>, CudaError> {
    let f = device.kernel::<S>("reduce_finish")?;
    let out = CudaArray::from_parts(device, device.alloc::<S>(1 + N)?, vec![1 + N]);
    let (p, o) = (partial.address(), out.address());
    let (blocks, n) = (i32::try_from(blocks).unwrap_or(i32::MAX), lanes::<N>());
    let mut launch = device.stream().launch_builder(&f);
    launch.arg(&p).arg(&blocks).arg(&o).arg(&n);
    let one = to_config(LaunchShape::finish());
    // SAFETY: (partial, blocks, out, lanes): `partial` holds blocks · (1 + N) sums, `out`
    // 1 + N values; one block runs the pass.
    unsafe { launch.launch(one) }.map_err(|e| CudaError::driver("reduce_finish kernel", e))?;
    let sums = out.to_vec()?;
    let mut partials = [S::zero(); N];
    partials.copy_from_slice(&sums[1..]);
    Ok(NDual::new(sums[0], partials))
}

/// A two-pass reduction by kernel `name` over `operands` (all of one length): the
/// first pass writes one partial sum per block for the value and each lane, the
/// finishing pass adds them in a fixed order.
fn reduce<S: DeviceFloat, const N: usize>(
    name: &'static str,
    operands: &[Operand<'_, S, N>],
) -> Result<NDual<S, N>, CudaError> {
    let (device, _) = broadcast(name, operands)?;
    let len = operands[0].len();
    if operands
        .iter()
        .any(|o| o.len() != len || matches!(o, Operand::Scalar(_)))
    {
        return Err(CudaError::shape(
            name,
            "operands must be arrays of one length (reduce a product for scalars)",
        ));
    }
    let shape = LaunchShape::for_reduction(len);
    let f = device.kernel::<S>(name)?;
    let partial = CudaArray::from_parts(
        &device,
        device.zeros::<S>(shape.grid as usize * (1 + N))?,
        vec![shape.grid as usize, 1 + N],
    );
    let raws = operands
        .iter()
        .map(|o| o.raw(&device))
        .collect::<Result<Vec<_>, _>>()?;
    let (p, n, len) = (partial.address(), lanes::<N>(), long(len));
    let mut args = device.stream().launch_builder(&f);
    for r in &raws {
        args.arg(&r.value).arg(&r.tangent);
    }
    args.arg(&p).arg(&len).arg(&n);
    // SAFETY: (operands as (value, tangent)…, partial, len, lanes): every operand holds
    // len values (and N lanes, or a null tangent), `partial` grid · (1 + N).
    unsafe { args.launch(to_config(shape)) }
        .map_err(|e| CudaError::driver("reduction kernel", e))?;
    finish(&device, &partial, shape.grid)
}

/// The sum of all elements, with its N partials.
///
/// Deterministic: a fixed two-pass tree, so the same input on the same device gives the
/// same bits.
///
/// # Errors
/// Kernel compilation, allocation, launch and copy errors.
pub fn sum<S: DeviceFloat, const N: usize>(
    x: &CudaNDualArray<S, N>,
) -> Result<NDual<S, N>, CudaError> {
    reduce("sum", &[Operand::Active(x)])
}

/// `Σ aᵢ bᵢ` with its N partials (`Σ ȧᵢ bᵢ + aᵢ ḃᵢ`); either operand may be constant.
///
/// # Errors
/// [`CudaError::Shape`] unless both are arrays of the same length; kernel and copy
/// errors.
pub fn dot<'a, S: DeviceFloat, const N: usize>(
    a: impl Into<Operand<'a, S, N>>,
    b: impl Into<Operand<'a, S, N>>,
) -> Result<NDual<S, N>, CudaError> {
    reduce("dot", &[a.into(), b.into()])
}

macro_rules! unary_methods {
    ([] $($op:ident = $name:ident,)*) => {
        impl<S: DeviceFloat, const N: usize> CudaNDualArray<S, N> {
            $(
                #[doc = concat!("`", stringify!($name), "` element-wise, values and all lanes in one launch.")]
                ///
                /// # Errors
                /// Kernel compilation, allocation and launch errors.
                pub fn $name(&self) -> Result<Self, CudaError> {
                    unary(Unary::$op, self)
                }
            )*
        }
    };
}

unary_ops!(unary_methods);

macro_rules! binary_methods {
    ([] $($op:ident = $name:ident ($what:literal),)*) => {
        impl<S: DeviceFloat, const N: usize> CudaNDualArray<S, N> {
            $(
                #[doc = concat!("`", $what, "` element-wise with `a = self`, `b = rhs`; `rhs` is an array, a constant array or a scalar, broadcast as in [`binary`].")]
                ///
                /// # Errors
                /// As [`binary`].
                pub fn $name<'a>(&'a self, rhs: impl Into<Operand<'a, S, N>>) -> Result<Self, CudaError> {
                    binary(Binary::$op, self, rhs)
                }
            )*
        }
    };
}

binary_ops!(binary_methods);

impl<S: DeviceFloat, const N: usize> CudaNDualArray<S, N> {
    /// Any element-wise function of the scalar rule set.
    ///
    /// # Errors
    /// As [`unary`].
    pub fn map(&self, op: Unary) -> Result<Self, CudaError> {
        unary(op, self)
    }

    /// The sum of all elements; see [`sum`].
    ///
    /// # Errors
    /// As [`sum`].
    pub fn sum(&self) -> Result<NDual<S, N>, CudaError> {
        sum(self)
    }
}
