//! Device arrays: constant ones ([`CudaArray`]) and forward-mode ones
//! ([`CudaNDualArray`], the value and N lane-major tangent lanes).

use std::sync::{Arc, OnceLock};

use cudarc::driver::{CudaSlice, DevicePtr};

use super::float::DeviceFloat;
use super::{CudaError, Device, element_to_lane_major, lane_to_element_major};
use crate::NDualArray;

/// The raw device address of `data[offset..]` (the device's stream orders every use,
/// so the buffer needs no per-use event).
pub(crate) fn address<S>(device: &Device, data: &CudaSlice<S>, offset: usize) -> u64 {
    let (ptr, _record) = data.device_ptr(device.stream());
    ptr + (offset * size_of::<S>()) as u64
}

/// Checks that `shape` has `len` elements.
fn check_shape(op: &'static str, shape: &[usize], len: usize) -> Result<(), CudaError> {
    let count = shape.iter().try_fold(1usize, |a, &d| a.checked_mul(d));
    if count != Some(len) {
        return Err(CudaError::shape(
            op,
            format!("shape {shape:?} does not hold {len} elements"),
        ));
    }
    Ok(())
}

/// A constant device array (no tangents): weights, biases, coordinates, results.
///
/// Row-major with a shape, like the host's `Mat`; a matrix is `[rows, cols]`. Never
/// changed once made, so clones share the device buffer.
#[derive(Clone)]
pub struct CudaArray<S> {
    pub(crate) device: Arc<Device>,
    /// At least one element, even for an empty array (the driver refuses empty
    /// allocations): the shape gives the length.
    pub(crate) data: Arc<CudaSlice<S>>,
    pub(crate) shape: Vec<usize>,
    /// The values on the host, downloaded the first time a host computation reads them
    /// (the array never changes once made).
    host: OnceLock<Vec<S>>,
}

/// With the `cuda` feature, a field's constant arrays kept elsewhere are its device
/// arrays: operands hand them to the CUDA reading, which uses them where they lie.
/// (The struct carries no bound on `S` so that this can hold for every field.)
impl<F: crate::Scalar> crate::array::ResidentField for F {
    type Constant = CudaArray<F>;
}

impl<S: DeviceFloat> std::fmt::Debug for CudaArray<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CudaArray")
            .field("shape", &self.shape)
            .finish_non_exhaustive()
    }
}

impl<S: DeviceFloat> CudaArray<S> {
    /// Uploads `host`, read as an array of `shape` (row-major).
    ///
    /// # Errors
    /// [`CudaError::Shape`] when `shape` does not hold `host.len()` elements; the
    /// device's allocation errors.
    pub fn new(device: &Arc<Device>, host: &[S], shape: &[usize]) -> Result<Self, CudaError> {
        check_shape("CudaArray::new", shape, host.len())?;
        Ok(Self {
            device: device.clone(),
            data: Arc::new(device.upload(host)?),
            shape: shape.to_vec(),
            host: OnceLock::new(),
        })
    }

    /// Uploads a vector.
    ///
    /// # Errors
    /// The device's allocation errors.
    pub fn from_slice(device: &Arc<Device>, host: &[S]) -> Result<Self, CudaError> {
        Self::new(device, host, &[host.len()])
    }

    pub(crate) fn from_parts(device: &Arc<Device>, data: CudaSlice<S>, shape: Vec<usize>) -> Self {
        Self {
            device: device.clone(),
            data: Arc::new(data),
            shape,
            host: OnceLock::new(),
        }
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }

    /// Whether the array has no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The shape (row-major).
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// The device holding the array.
    pub fn device(&self) -> &Arc<Device> {
        &self.device
    }

    /// Downloads the values (waits for the device).
    ///
    /// # Errors
    /// [`CudaError::Driver`] when the copy, or an earlier kernel, failed.
    pub fn to_vec(&self) -> Result<Vec<S>, CudaError> {
        self.device.download(&self.data, 0..self.len())
    }

    pub(crate) fn address(&self) -> u64 {
        address(&self.device, &self.data, 0)
    }

    /// The values on the host, downloaded once. A failed download reads as NaNs (the
    /// device is then unusable, and every device call after it returns the error).
    pub(crate) fn host(&self) -> &[S] {
        self.host.get_or_init(|| {
            self.to_vec()
                .unwrap_or_else(|_| vec![<S as DeviceFloat>::nan(); self.len()])
        })
    }
}

/// A forward-mode device array: the value and N tangent lanes of `len` elements.
///
/// One buffer holds `1 + N` streams of `len` values, lane-major: the value first, then
/// lane `k` at `(1 + k) * len`, each stream contiguous. A right product by a constant
/// matrix is then one GEMM over all streams (they stack as rows), and an element-wise
/// kernel reads each stream coalesced. The host's [`NDualArray`] is element-major;
/// [`from_host`](Self::from_host) and [`to_host`](Self::to_host) convert.
///
/// ```no_run
/// use lifted::NDualArray;
/// use lifted::cuda::{CudaNDualArray, Device};
///
/// let dev = Device::new(0)?;
/// // x = (0.1, 0.2, 0.3), seeded in two directions: x₀ along lane 0, x₁ along lane 1.
/// let x = NDualArray::<f64, 2>::seeded(vec![0.1, 0.2, 0.3], 0);
/// let y = CudaNDualArray::from_host(&dev, &x)?.tanh()?;
/// let back = y.to_host()?;
/// assert_eq!(back.get(0).partial(0), 1.0 - 0.1f64.tanh().powi(2));
/// # Ok::<(), lifted::cuda::CudaError>(())
/// ```
pub struct CudaNDualArray<S: DeviceFloat, const N: usize> {
    pub(crate) device: Arc<Device>,
    pub(crate) data: CudaSlice<S>,
    pub(crate) shape: Vec<usize>,
    pub(crate) len: usize,
}

impl<S: DeviceFloat, const N: usize> std::fmt::Debug for CudaNDualArray<S, N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CudaNDualArray")
            .field("shape", &self.shape)
            .field("lanes", &N)
            .finish_non_exhaustive()
    }
}

impl<S: DeviceFloat, const N: usize> CudaNDualArray<S, N> {
    /// Uploads `host` as a vector, converting its element-major block to lane-major.
    ///
    /// # Errors
    /// The device's allocation errors.
    pub fn from_host(device: &Arc<Device>, host: &NDualArray<S, N>) -> Result<Self, CudaError> {
        Self::from_host_shaped(device, host, &[host.len()])
    }

    /// Uploads `host` read as an array of `shape` (row-major).
    ///
    /// # Errors
    /// [`CudaError::Shape`] when `shape` does not hold `host.len()` elements; the
    /// device's allocation errors.
    pub fn from_host_shaped(
        device: &Arc<Device>,
        host: &NDualArray<S, N>,
        shape: &[usize],
    ) -> Result<Self, CudaError> {
        let len = host.len();
        check_shape("CudaNDualArray::from_host", shape, len)?;
        let mut streams = vec![S::zero(); (1 + N) * len];
        let (value, lanes) = streams.split_at_mut(len);
        value.copy_from_slice(host.as_primal_slice());
        element_to_lane_major(host.partials_block(), len, N, lanes)?;
        Ok(Self {
            device: device.clone(),
            data: device.upload(&streams)?,
            shape: shape.to_vec(),
            len,
        })
    }

    /// A constant of the computation: `values` with every lane zero.
    ///
    /// # Errors
    /// [`CudaError::Shape`] when `shape` does not hold `values.len()` elements; the
    /// device's allocation errors.
    pub fn constant(
        device: &Arc<Device>,
        values: &[S],
        shape: &[usize],
    ) -> Result<Self, CudaError> {
        let len = values.len();
        check_shape("CudaNDualArray::constant", shape, len)?;
        let mut streams = vec![S::zero(); (1 + N) * len];
        streams[..len].copy_from_slice(values);
        Ok(Self {
            device: device.clone(),
            data: device.upload(&streams)?,
            shape: shape.to_vec(),
            len,
        })
    }

    /// A result array of `shape` whose buffer the caller's kernel fills.
    pub(crate) fn uninit(device: &Arc<Device>, shape: Vec<usize>) -> Result<Self, CudaError> {
        Self::result(device, shape, Device::alloc)
    }

    /// A result array of `shape` holding zeros, for a product whose inner dimension is
    /// empty: cuBLAS does not document writing `C` when `k == 0`.
    pub(crate) fn zeroed(device: &Arc<Device>, shape: Vec<usize>) -> Result<Self, CudaError> {
        Self::result(device, shape, Device::zeros)
    }

    fn result(
        device: &Arc<Device>,
        shape: Vec<usize>,
        buffer: fn(&Device, usize) -> Result<CudaSlice<S>, CudaError>,
    ) -> Result<Self, CudaError> {
        let len = shape.iter().product();
        Ok(Self {
            device: device.clone(),
            data: buffer(device, (1 + N) * len)?,
            shape,
            len,
        })
    }

    /// Downloads the array, converting lane-major to the host's element-major block.
    ///
    /// # Errors
    /// [`CudaError::Driver`] when the copy, or an earlier kernel, failed.
    pub fn to_host(&self) -> Result<NDualArray<S, N>, CudaError> {
        let mut streams = self.device.download(&self.data, 0..(1 + N) * self.len)?;
        let mut block = vec![S::zero(); N * self.len];
        lane_to_element_major(&streams[self.len..], self.len, N, &mut block)?;
        streams.truncate(self.len);
        NDualArray::from_parts(streams, block)
            .map_err(|e| CudaError::shape("CudaNDualArray::to_host", e.to_string()))
    }

    /// Downloads the values only.
    ///
    /// # Errors
    /// [`CudaError::Driver`] when the copy, or an earlier kernel, failed.
    pub fn value(&self) -> Result<Vec<S>, CudaError> {
        self.device.download(&self.data, 0..self.len)
    }

    /// Downloads tangent lane `k` (`len` values).
    ///
    /// # Errors
    /// [`CudaError::Shape`] when `k >= N`; copy errors as for [`value`](Self::value).
    pub fn lane(&self, k: usize) -> Result<Vec<S>, CudaError> {
        if k >= N {
            return Err(CudaError::shape(
                "CudaNDualArray::lane",
                format!("lane {k} of an array with {N} lanes"),
            ));
        }
        self.device
            .download(&self.data, (1 + k) * self.len..(2 + k) * self.len)
    }

    /// The same data read as `shape`.
    ///
    /// # Errors
    /// [`CudaError::Shape`] when `shape` does not hold `len()` elements.
    pub fn reshape(mut self, shape: &[usize]) -> Result<Self, CudaError> {
        check_shape("CudaNDualArray::reshape", shape, self.len)?;
        self.shape = shape.to_vec();
        Ok(self)
    }

    /// A copy on the same device, made there (no host round trip).
    ///
    /// # Errors
    /// Allocation and copy errors.
    pub fn try_clone(&self) -> Result<Self, CudaError> {
        Ok(Self {
            device: self.device.clone(),
            data: self.device.copy(&self.data)?,
            shape: self.shape.clone(),
            len: self.len,
        })
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the array has no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The shape (row-major).
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// The device holding the array.
    pub fn device(&self) -> &Arc<Device> {
        &self.device
    }

    /// Device address of stream `s` (0 the value, `1 + k` lane `k`).
    pub(crate) fn stream_address(&self, s: usize) -> u64 {
        address(&self.device, &self.data, s * self.len)
    }
}
