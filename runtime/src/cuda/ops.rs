//! Element-wise rules, broadcasting and reductions on device arrays: one kernel launch
//! per operation, the value computed once per element and every lane beside it.

use std::sync::Arc;

use cudarc::driver::{LaunchConfig, PushKernelArg};

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

    fn shape(&self) -> &[usize] {
        match self {
            Self::Active(a) => a.shape(),
            Self::Constant(c) => c.shape(),
            Self::Scalar(_) => &[],
        }
    }

    fn len(&self) -> usize {
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
/// operand has the result's shape, is a scalar, or is a row (the last axis of the
/// result) broadcast over the leading axes.
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
    let row = shape.last().copied().unwrap_or(1);
    for o in operands {
        let l = o.len();
        if l != len && l != 1 && !(l == row && o.shape().len() == 1) {
            return Err(CudaError::shape(
                op,
                format!(
                    "an operand of shape {:?} does not broadcast to {shape:?} (same shape, a \
                     scalar, or a row of {row} are accepted)",
                    o.shape()
                ),
            ));
        }
    }
    Ok((device, shape))
}

/// The launch configuration for `len` elements.
fn config(len: usize) -> LaunchConfig {
    Device::elementwise_config(len)
}

/// Converts an element count for a kernel's `long long` parameter.
fn long(x: usize) -> i64 {
    i64::try_from(x).unwrap_or(i64::MAX)
}

/// The lane count for a kernel's `int` parameter.
fn lanes<const N: usize>() -> i32 {
    i32::try_from(N).unwrap_or(i32::MAX)
}

/// `f` applied element-wise to `x`: values and every lane, one launch.
///
/// # Errors
/// Kernel compilation, allocation and launch errors.
pub fn unary<S: DeviceFloat, const N: usize>(
    op: Unary,
    x: &CudaNDualArray<S, N>,
) -> Result<CudaNDualArray<S, N>, CudaError> {
    let device = x.device().clone();
    let f = device.kernel::<S>(op.name())?;
    let y = CudaNDualArray::<S, N>::uninit(&device, x.shape().to_vec())?;
    let (xv, xd, yv, yd) = (
        x.stream_address(0),
        x.stream_address(1),
        y.stream_address(0),
        y.stream_address(1),
    );
    let (len, n) = (long(x.len()), lanes::<N>());
    if x.is_empty() {
        return Ok(y);
    }
    let stream = device.stream();
    let mut launch = stream.launch_builder(&f);
    launch.arg(&xv).arg(&xd).arg(&yv).arg(&yd).arg(&len).arg(&n);
    // SAFETY: the kernel's signature is (xv, xd, yv, yd, len, lanes) and every address
    // points at a live buffer of (1 + N) · len values on this device's stream.
    unsafe { launch.launch(config(x.len())) }.map_err(|e| CudaError::driver("unary kernel", e))?;
    Ok(y)
}

/// `x.powi(p)` element-wise.
///
/// # Errors
/// As [`unary`].
pub fn powi<S: DeviceFloat, const N: usize>(
    x: &CudaNDualArray<S, N>,
    p: i32,
) -> Result<CudaNDualArray<S, N>, CudaError> {
    let device = x.device().clone();
    let f = device.kernel::<S>("powi")?;
    let y = CudaNDualArray::<S, N>::uninit(&device, x.shape().to_vec())?;
    let (xv, xd, yv, yd) = (
        x.stream_address(0),
        x.stream_address(1),
        y.stream_address(0),
        y.stream_address(1),
    );
    let (len, n) = (long(x.len()), lanes::<N>());
    if x.is_empty() {
        return Ok(y);
    }
    let mut launch = device.stream().launch_builder(&f);
    launch
        .arg(&xv)
        .arg(&xd)
        .arg(&yv)
        .arg(&yd)
        .arg(&len)
        .arg(&n)
        .arg(&p);
    // SAFETY: the kernel's signature is (xv, xd, yv, yd, len, lanes, p); buffers as in
    // `unary`.
    unsafe { launch.launch(config(x.len())) }.map_err(|e| CudaError::driver("powi kernel", e))?;
    Ok(y)
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
    let (a, b) = (a.into(), b.into());
    let (device, shape) = broadcast(op.name(), &[a, b])?;
    let f = device.kernel::<S>(op.name())?;
    let y = CudaNDualArray::<S, N>::uninit(&device, shape)?;
    if y.is_empty() {
        return Ok(y);
    }
    let (ra, rb) = (a.raw(&device)?, b.raw(&device)?);
    let (yv, yd) = (y.stream_address(0), y.stream_address(1));
    let (a_len, b_len, len, n) = (long(ra.len), long(rb.len), long(y.len()), lanes::<N>());
    let mut launch = device.stream().launch_builder(&f);
    launch
        .arg(&ra.value)
        .arg(&ra.tangent)
        .arg(&a_len)
        .arg(&rb.value)
        .arg(&rb.tangent)
        .arg(&b_len)
        .arg(&yv)
        .arg(&yd)
        .arg(&len)
        .arg(&n);
    // SAFETY: the kernel's signature is (av, ad, a_len, bv, bd, b_len, yv, yd, len,
    // lanes); each operand buffer holds its (1 + N) · x_len values or, constant, x_len
    // values with a null tangent; `broadcast` checked that every x_len is 1, len or a
    // row, so `i % x_len` stays in bounds.
    unsafe { launch.launch(config(y.len())) }.map_err(|e| CudaError::driver("binary kernel", e))?;
    Ok(y)
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
    let (a, b, c) = (a.into(), b.into(), c.into());
    let (device, shape) = broadcast(op.name(), &[a, b, c])?;
    let f = device.kernel::<S>(op.name())?;
    let y = CudaNDualArray::<S, N>::uninit(&device, shape)?;
    if y.is_empty() {
        return Ok(y);
    }
    let (ra, rb, rc) = (a.raw(&device)?, b.raw(&device)?, c.raw(&device)?);
    let (yv, yd) = (y.stream_address(0), y.stream_address(1));
    let (a_len, b_len, c_len) = (long(ra.len), long(rb.len), long(rc.len));
    let (len, n) = (long(y.len()), lanes::<N>());
    let mut launch = device.stream().launch_builder(&f);
    launch
        .arg(&ra.value)
        .arg(&ra.tangent)
        .arg(&a_len)
        .arg(&rb.value)
        .arg(&rb.tangent)
        .arg(&b_len)
        .arg(&rc.value)
        .arg(&rc.tangent)
        .arg(&c_len)
        .arg(&yv)
        .arg(&yd)
        .arg(&len)
        .arg(&n);
    // SAFETY: as in `binary`, with three operands.
    unsafe { launch.launch(config(y.len())) }
        .map_err(|e| CudaError::driver("ternary kernel", e))?;
    Ok(y)
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
    let device = x.device().clone();
    let shape = LaunchShape::for_reduction(x.len());
    let f = device.kernel::<S>("sum")?;
    let partial = CudaArray::from_parts(
        &device,
        device.zeros::<S>(shape.grid as usize * (1 + N))?,
        vec![shape.grid as usize, 1 + N],
    );
    let (xv, xd, p) = (x.stream_address(0), x.stream_address(1), partial.address());
    let (len, n) = (long(x.len()), lanes::<N>());
    let mut launch = device.stream().launch_builder(&f);
    launch.arg(&xv).arg(&xd).arg(&p).arg(&len).arg(&n);
    // SAFETY: (xv, xd, partial, len, lanes): x holds (1 + N) · len values, `partial`
    // grid · (1 + N).
    unsafe { launch.launch(to_config(shape)) }.map_err(|e| CudaError::driver("sum kernel", e))?;
    finish(&device, &partial, shape.grid)
}

/// `Σ aᵢ bᵢ` with its N partials (`Σ ȧᵢ bᵢ + aᵢ ḃᵢ`); either operand may be constant.
///
/// # Errors
/// [`CudaError::Shape`] unless both have the same length (scalars are refused: use
/// [`sum`] of a product); kernel and copy errors.
pub fn dot<'a, S: DeviceFloat, const N: usize>(
    a: impl Into<Operand<'a, S, N>>,
    b: impl Into<Operand<'a, S, N>>,
) -> Result<NDual<S, N>, CudaError> {
    let (a, b) = (a.into(), b.into());
    let (device, _) = broadcast("dot", &[a, b])?;
    if a.len() != b.len() || matches!(a, Operand::Scalar(_)) || matches!(b, Operand::Scalar(_)) {
        return Err(CudaError::shape(
            "dot",
            format!("operands of {} and {} elements", a.len(), b.len()),
        ));
    }
    let shape = LaunchShape::for_reduction(a.len());
    let f = device.kernel::<S>("dot")?;
    let partial = CudaArray::from_parts(
        &device,
        device.zeros::<S>(shape.grid as usize * (1 + N))?,
        vec![shape.grid as usize, 1 + N],
    );
    let (ra, rb, p) = (a.raw(&device)?, b.raw(&device)?, partial.address());
    let (len, n) = (long(a.len()), lanes::<N>());
    let mut launch = device.stream().launch_builder(&f);
    launch
        .arg(&ra.value)
        .arg(&ra.tangent)
        .arg(&rb.value)
        .arg(&rb.tangent)
        .arg(&p)
        .arg(&len)
        .arg(&n);
    // SAFETY: (av, ad, bv, bd, partial, len, lanes): both operands hold len values (and
    // N lanes, or a null tangent), `partial` grid · (1 + N).
    unsafe { launch.launch(to_config(shape)) }.map_err(|e| CudaError::driver("dot kernel", e))?;
    finish(&device, &partial, shape.grid)
}

macro_rules! unary_methods {
    ($($name:ident => $op:ident),* $(,)?) => {
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

unary_methods!(
    sin => Sin, cos => Cos, tan => Tan, tanh => Tanh, exp => Exp, ln => Ln,
    sqrt => Sqrt, abs => Abs, recip => Recip,
);

macro_rules! binary_methods {
    ($($name:ident => $op:ident),* $(,)?) => {
        impl<S: DeviceFloat, const N: usize> CudaNDualArray<S, N> {
            $(
                #[doc = concat!("`self ", stringify!($name), " rhs` element-wise; `rhs` is an array, a constant array or a scalar, broadcast as in [`binary`].")]
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

binary_methods!(add => Add, sub => Sub, mul => Mul, div => Div, powf => Powf);

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
