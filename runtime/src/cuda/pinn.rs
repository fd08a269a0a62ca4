//! Physics-informed residuals on the device: the batched jet pass of
//! [`navier_stokes_batched`](crate::pinn::navier_stokes_batched) with every layer one
//! cuBLAS GEMM over all points and all derivative streams.
//!
//! The streams of a pass (the value, one first-order stream per coordinate, the pure
//! second-order streams the residual needs) are stacked as rows, so `H W` for all of
//! them is one product; between products one kernel applies the bias and the `tanh`
//! jet rule to every stream of an element at once.

use std::sync::{Arc, Mutex};

use cudarc::driver::{CudaSlice, PushKernelArg};

use super::array::{CudaArray, address};
use super::blas::RowMajor;
use super::float::DeviceFloat;
use super::kernels::Precision;
use super::{CudaError, Device};
use crate::pinn::{NavierStokes, Network};

/// The kernel source of this module, `SUFFIX` to be substituted; it calls the
/// derivative table's `tanh` jet, which [`source`] puts in front.
const SOURCE: &str = include_str!("pinn.cu");

/// The CUDA source of the PINN kernels for `precision` (compiled by NVRTC at first use;
/// exposed so the kernel tests compile it without a GPU).
pub fn source(precision: Precision) -> String {
    super::kernels::jet_unit(precision, &["tanh"]) + &SOURCE.replace("SUFFIX", precision.suffix())
}

/// The name of the translation unit of [`source`], in NVRTC's errors and the caches.
const UNIT: &str = "pinn";

/// The kernel names of [`source`].
pub fn kernel_names(precision: Precision) -> Vec<String> {
    ["input", "tanh_jet", "bias", "navier_stokes"]
        .iter()
        .map(|k| format!("lifted_pinn_{k}_{}", precision.suffix()))
        .collect()
}

/// The two activation buffers of a pass (input and output of a layer, swapped).
type Buffers<S> = (CudaSlice<S>, CudaSlice<S>);

/// A layer's weights and biases on the device.
struct Layer<S: DeviceFloat> {
    fan_in: usize,
    fan_out: usize,
    weights: CudaSlice<S>,
    biases: CudaSlice<S>,
}

/// A [`Network`] uploaded to a device, in `f32` or `f64`.
///
/// ```no_run
/// use lifted::cuda::{CudaArray, Device, DeviceNetwork};
/// use lifted::pinn::Network;
/// use lifted::testing::SplitMix64;
///
/// let mut rng = SplitMix64::new(42);
/// let net = Network::from_fn(&[3, 128, 128, 128, 128, 3], |i, o| {
///     (2.0 / (i + o) as f64).sqrt() * rng.normal()
/// });
/// let dev = Device::new(0)?;
/// let gpu = DeviceNetwork::<f64>::new(&dev, &net)?;
/// let points: Vec<f64> = (0..3 * 8192).map(|i| (i % 97) as f64 / 97.0).collect();
/// let points = CudaArray::new(&dev, &points, &[8192, 3])?;
/// let r = gpu.navier_stokes(&points, 0.01)?; // 8192 × 3 residuals, on the device
/// assert_eq!(r.shape(), &[8192, 3]);
/// # Ok::<(), lifted::cuda::CudaError>(())
/// ```
pub struct DeviceNetwork<S: DeviceFloat> {
    device: Arc<Device>,
    layers: Vec<Layer<S>>,
    /// The biases still to add after the last product: the output layer's, or zeros
    /// when that layer is the first (the input kernel adds its bias).
    pending_bias: CudaSlice<S>,
    /// Two activation buffers, grown to the largest pass so far and reused.
    scratch: Mutex<Option<Buffers<S>>>,
    /// Points per pass: larger inputs run as several passes, bounding the scratch.
    block: usize,
}

impl<S: DeviceFloat> std::fmt::Debug for DeviceNetwork<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let widths: Vec<_> = self.layers.iter().map(|l| (l.fan_in, l.fan_out)).collect();
        f.debug_struct("DeviceNetwork")
            .field("layers", &widths)
            .finish_non_exhaustive()
    }
}

/// Streams of a pass over `dim` coordinates.
#[derive(Clone, Copy)]
struct Streams {
    first: bool,
    mask: u32,
}

impl Streams {
    fn count(self, dim: usize) -> usize {
        1 + if self.first { dim } else { 0 } + self.mask.count_ones() as usize
    }
}

impl<S: DeviceFloat> DeviceNetwork<S> {
    /// Uploads `net`'s weights, converted to `S`.
    ///
    /// # Errors
    /// [`CudaError::Shape`] when the network has no layers, its layers do not chain,
    /// or it has a Fourier-feature embedding (not run on the device yet); allocation
    /// errors.
    pub fn new(device: &Arc<Device>, net: &Network) -> Result<Self, CudaError> {
        let invalid = |d: String| CudaError::shape("DeviceNetwork::new", d);
        net.check().map_err(invalid)?;
        if net.layers.is_empty() {
            return Err(invalid("the network has no layers".into()));
        }
        if net.features.is_some() {
            return Err(invalid(
                "Fourier-feature embeddings are not supported on the device; evaluate them \
                 on the host (lifted::pinn::navier_stokes_batched)"
                    .into(),
            ));
        }
        let convert = |v: &[f64]| -> Vec<S> { v.iter().map(|&x| S::cst(x)).collect() };
        let layers = net
            .layers
            .iter()
            .map(|l| {
                Ok(Layer {
                    fan_in: l.fan_in,
                    fan_out: l.fan_out,
                    weights: device.upload(&convert(&l.weights))?,
                    biases: device.upload(&convert(&l.biases))?,
                })
            })
            .collect::<Result<_, CudaError>>()?;
        let last = &net.layers[net.layers.len() - 1];
        let pending_bias = if net.layers.len() > 1 {
            device.upload(&convert(&last.biases))?
        } else {
            device.zeros(last.fan_out)?
        };
        Ok(Self {
            device: device.clone(),
            layers,
            pending_bias,
            scratch: Mutex::new(None),
            block: 1 << 20,
        })
    }

    /// The same with at most `block` points per pass (default 2²⁰): the scratch holds
    /// `streams × block × widest layer` values twice (12.9 GB for a 3-128-128-128-128-3
    /// Navier–Stokes network in `f64` at the default), so smaller GPUs want a smaller
    /// block.
    #[must_use]
    pub fn block(self, block: usize) -> Self {
        Self {
            block: block.max(1),
            ..self
        }
    }

    fn inputs(&self) -> usize {
        self.layers[0].fan_in
    }

    fn outputs(&self) -> usize {
        self.layers[self.layers.len() - 1].fan_out
    }

    fn check_points(&self, op: &'static str, points: &CudaArray<S>) -> Result<usize, CudaError> {
        if !Arc::ptr_eq(points.device(), &self.device) {
            return Err(CudaError::shape(op, "points live on another device"));
        }
        match *points.shape() {
            [p, d] if d == self.inputs() => Ok(p),
            _ => Err(CudaError::shape(
                op,
                format!(
                    "points of shape {:?}; the network takes [points, {}]",
                    points.shape(),
                    self.inputs()
                ),
            )),
        }
    }

    fn kernel(&self, name: &str) -> Result<cudarc::driver::CudaFunction, CudaError> {
        let full = format!("lifted_pinn_{name}_{}", S::PRECISION.suffix());
        self.device.function(S::PRECISION, UNIT, source, &full)
    }

    /// Runs the layers over `points` rows `[start, start + rows)`, leaving the output
    /// layer's product (biases not added) in the returned scratch buffer.
    fn pass<'s>(
        &self,
        scratch: &'s mut Buffers<S>,
        points: &CudaArray<S>,
        start: usize,
        rows: usize,
        streams: Streams,
    ) -> Result<&'s CudaSlice<S>, CudaError> {
        let dev = &self.device;
        let dim = self.inputs();
        let count = streams.count(dim);
        let (mut cur, mut next) = (&mut scratch.0, &mut scratch.1);
        let last = self.layers.len() - 1;
        let first = &self.layers[0];
        {
            let f = self.kernel("input")?;
            let pts = points.address() + (start * dim * size_of::<S>()) as u64;
            let (w, b, out) = (
                address(dev, &first.weights, 0),
                address(dev, &first.biases, 0),
                address(dev, cur, 0),
            );
            let (np, d, width) = (rows as i64, dim as i32, first.fan_out as i32);
            let (fi, mask, act) = (
                i32::from(streams.first),
                streams.mask as i32,
                i32::from(last != 0),
            );
            let mut launch = dev.stream().launch_builder(&f);
            launch
                .arg(&pts)
                .arg(&w)
                .arg(&b)
                .arg(&out)
                .arg(&np)
                .arg(&d)
                .arg(&width)
                .arg(&fi)
                .arg(&mask)
                .arg(&act);
            // SAFETY: (pts, w, b, out, points, dim, width, first, mask, activate):
            // `pts` holds rows × dim values from `start`, w dim × width, b width, `out`
            // count × rows × width (the scratch is sized for the widest layer).
            unsafe { launch.launch(Device::elementwise_config(rows * first.fan_out)) }
                .map_err(|e| CudaError::driver("pinn input kernel", e))?;
        }
        for (l, layer) in self.layers.iter().enumerate().skip(1) {
            // Every stream of every point at once: (count·rows × fan_in)(fan_in × fan_out).
            RowMajor::one(
                count * rows,
                layer.fan_out,
                layer.fan_in,
                address(dev, cur, 0),
                address(dev, &layer.weights, 0),
                address(dev, next, 0),
            )
            .run::<S>(dev)?;
            if l != last {
                let f = self.kernel("tanh_jet")?;
                let (z, b) = (address(dev, next, 0), address(dev, &layer.biases, 0));
                let (np, d, width) = (rows as i64, dim as i32, layer.fan_out as i32);
                let (fi, mask) = (i32::from(streams.first), streams.mask as i32);
                let mut launch = dev.stream().launch_builder(&f);
                launch
                    .arg(&z)
                    .arg(&b)
                    .arg(&np)
                    .arg(&d)
                    .arg(&width)
                    .arg(&fi)
                    .arg(&mask);
                // SAFETY: (z, b, points, dim, width, first, mask): `z` holds count ×
                // rows × width values, b width.
                unsafe { launch.launch(Device::elementwise_config(rows * layer.fan_out)) }
                    .map_err(|e| CudaError::driver("pinn tanh_jet kernel", e))?;
            }
            std::mem::swap(&mut cur, &mut next);
        }
        Ok(cur)
    }

    /// Scratch for passes of `rows` points with `count` streams, grown when needed.
    fn scratch(
        &self,
        count: usize,
        rows: usize,
    ) -> Result<std::sync::MutexGuard<'_, Option<Buffers<S>>>, CudaError> {
        let widest = self
            .layers
            .iter()
            .map(|l| l.fan_out)
            .chain([self.inputs()])
            .max()
            .unwrap_or(1);
        let need = count * rows * widest;
        let mut guard = self.scratch.lock().unwrap_or_else(|p| p.into_inner());
        if guard.as_ref().is_none_or(|(a, _)| a.len() < need) {
            *guard = None;
            *guard = Some((self.device.alloc(need)?, self.device.alloc(need)?));
        }
        Ok(guard)
    }

    /// The Navier–Stokes residuals `(continuity, momentum_x, momentum_y)` of a
    /// `(t, x, y) → (u, v, p)` network at every row of `points` (`[P, 3]`), with
    /// viscosity `nu`: a `[P, 3]` array left on the device.
    ///
    /// # Errors
    /// [`CudaError::Shape`] unless the network is `3 → 3` and `points` is `[P, 3]`;
    /// kernel, cuBLAS and allocation errors.
    pub fn navier_stokes(&self, points: &CudaArray<S>, nu: S) -> Result<CudaArray<S>, CudaError> {
        const OP: &str = "DeviceNetwork::navier_stokes";
        if self.inputs() != 3 || self.outputs() != 3 {
            return Err(CudaError::shape(
                OP,
                "the network must map (t, x, y) to (u, v, p)",
            ));
        }
        let total = self.check_points(OP, points)?;
        let out = self.device.alloc::<S>(3 * total)?;
        let streams = Streams {
            first: true,
            mask: 0b110,
        };
        let block = self.block.min(total.max(1));
        let mut scratch = self.scratch(streams.count(3), block)?;
        let scratch = scratch
            .as_mut()
            .ok_or_else(|| CudaError::shape(OP, "no scratch"))?;
        let f = self.kernel("navier_stokes")?;
        let bias = address(&self.device, &self.pending_bias, 0);
        for start in (0..total).step_by(block) {
            let rows = block.min(total - start);
            let z = self.pass(scratch, points, start, rows, streams)?;
            let (z, r) = (
                address(&self.device, z, 0),
                address(&self.device, &out, 3 * start),
            );
            let np = rows as i64;
            let mut launch = self.device.stream().launch_builder(&f);
            launch.arg(&z).arg(&bias).arg(&r).arg(&np).arg(&nu);
            // SAFETY: (z, b, r, points, nu): `z` holds 6 streams × rows × 3 outputs,
            // b 3 values, `r` 3 × rows from `start`.
            unsafe { launch.launch(Device::elementwise_config(rows)) }
                .map_err(|e| CudaError::driver("pinn navier_stokes kernel", e))?;
        }
        Ok(CudaArray::from_parts(&self.device, out, vec![total, 3]))
    }

    /// The network's outputs at every row of `points` (`[P, inputs]` → `[P, outputs]`):
    /// the primal batched pass, one GEMM per layer and a fused bias + `tanh`.
    ///
    /// # Errors
    /// [`CudaError::Shape`] when `points` is not `[P, inputs]`; kernel, cuBLAS and
    /// allocation errors.
    pub fn forward(&self, points: &CudaArray<S>) -> Result<CudaArray<S>, CudaError> {
        const OP: &str = "DeviceNetwork::forward";
        let total = self.check_points(OP, points)?;
        let outputs = self.outputs();
        let mut out = self.device.alloc::<S>(outputs * total)?;
        let streams = Streams {
            first: false,
            mask: 0,
        };
        let block = self.block.min(total.max(1));
        let mut scratch = self.scratch(1, block)?;
        let scratch = scratch
            .as_mut()
            .ok_or_else(|| CudaError::shape(OP, "no scratch"))?;
        let f = self.kernel("bias")?;
        let bias = address(&self.device, &self.pending_bias, 0);
        for start in (0..total).step_by(block) {
            let rows = block.min(total - start);
            let z = self.pass(scratch, points, start, rows, streams)?;
            let mut dst = out.slice_mut(outputs * start..outputs * (start + rows));
            self.device
                .stream()
                .memcpy_dtod(&z.slice(..outputs * rows), &mut dst)
                .map_err(|e| CudaError::driver("cuMemcpyDtoD", e))?;
            if self.layers.len() > 1 {
                let r = address(&self.device, &out, outputs * start);
                let (np, width) = (rows as i64, outputs as i32);
                let mut launch = self.device.stream().launch_builder(&f);
                launch.arg(&r).arg(&bias).arg(&np).arg(&width);
                // SAFETY: (z, b, points, width): `r` holds rows × outputs values from
                // `start`, b `outputs`.
                unsafe { launch.launch(Device::elementwise_config(rows * outputs)) }
                    .map_err(|e| CudaError::driver("pinn bias kernel", e))?;
            }
        }
        Ok(CudaArray::from_parts(
            &self.device,
            out,
            vec![total, outputs],
        ))
    }
}

/// [`navier_stokes_batched`](crate::pinn::navier_stokes_batched) on a device, f64, from
/// host points to host residuals.
///
/// # Errors
/// As [`DeviceNetwork::new`] and [`DeviceNetwork::navier_stokes`].
pub fn navier_stokes(
    device: &Arc<Device>,
    net: &Network,
    points: &[[f64; 3]],
    nu: f64,
) -> Result<Vec<NavierStokes>, CudaError> {
    let gpu = DeviceNetwork::<f64>::new(device, net)?;
    let pts = CudaArray::new(device, points.as_flattened(), &[points.len(), 3])?;
    let r = gpu.navier_stokes(&pts, nu)?.to_vec()?;
    Ok(r.chunks_exact(3)
        .map(|c| NavierStokes {
            continuity: c[0],
            momentum_x: c[1],
            momentum_y: c[2],
        })
        .collect())
}
