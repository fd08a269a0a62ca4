//! One GPU: its context and stream, the kernels compiled for it, its cuBLAS handle.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use cudarc::cublas::CudaBlas;
use cudarc::driver::sys::CUresult;
use cudarc::driver::{
    CudaContext, CudaFunction, CudaModule, CudaSlice, CudaStream, DriverError, LaunchConfig,
};
use cudarc::nvrtc::Ptx;

use super::float::DeviceFloat;
use super::kernels::Precision;
use super::launch::LaunchShape;
use super::{CudaError, nvrtc};

/// One NVIDIA GPU, ready for [`CudaNDualArray`](super::CudaNDualArray)s.
///
/// All work of a `Device` goes to one stream, so operations run in the order they are
/// issued and a buffer is never read before the kernel writing it has finished; results
/// reach the host through the download methods, which wait for the stream.
///
/// ```no_run
/// use lifted::cuda::Device;
/// match Device::new(0) {
///     Ok(dev) => println!("running on {}", dev.name()),
///     Err(e) => println!("no GPU: {e}"),
/// }
/// ```
pub struct Device {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    name: String,
    arch: String,
    /// The device's real architecture (`sm_90`), for kernels loaded as CUBIN.
    sm: String,
    /// Set when the driver has refused PTX as newer than itself: later units go
    /// straight to CUBIN.
    cubin_only: AtomicBool,
    modules: Mutex<HashMap<(Precision, &'static str), Arc<CudaModule>>>,
    functions: Mutex<HashMap<String, CudaFunction>>,
    blas: OnceLock<Result<CudaBlas, CudaError>>,
    poison: AtomicBool,
    /// The first failure of a whole-array operation of the CUDA reading not yet taken.
    failure: Mutex<Option<CudaError>>,
}

impl std::fmt::Debug for Device {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Device")
            .field("ordinal", &self.ctx.ordinal())
            .field("name", &self.name)
            .field("arch", &self.arch)
            .field("sm", &self.sm)
            .finish_non_exhaustive()
    }
}

/// The error for a missing driver library.
fn no_driver() -> CudaError {
    CudaError::LibraryMissing {
        library: "driver",
        hint: "libcuda.so was not found: this machine has no NVIDIA driver, or its \
               library folder is not on LD_LIBRARY_PATH",
    }
}

impl Device {
    /// The number of CUDA devices the driver reports.
    ///
    /// # Errors
    /// [`CudaError::LibraryMissing`] when there is no driver library.
    pub fn count() -> Result<usize, CudaError> {
        // SAFETY: loading the driver library has no preconditions; cudarc panics when a
        // library is missing, so its presence is checked before any other call.
        if !unsafe { cudarc::driver::sys::is_culib_present() } {
            return Err(no_driver());
        }
        let n =
            CudaContext::device_count().map_err(|e| CudaError::driver("cuDeviceGetCount", e))?;
        Ok(usize::try_from(n).unwrap_or(0))
    }

    /// Opens device `ordinal`: its primary context and a stream for all its work.
    ///
    /// # Errors
    /// [`CudaError::LibraryMissing`] without a driver, [`CudaError::NoDevice`] when the
    /// ordinal is out of range, [`CudaError::Driver`] when the context cannot be made.
    pub fn new(ordinal: usize) -> Result<Arc<Self>, CudaError> {
        let count = Self::count()?;
        if ordinal >= count {
            return Err(CudaError::NoDevice { ordinal, count });
        }
        let ctx = CudaContext::new(ordinal).map_err(|e| CudaError::driver("cuCtxCreate", e))?;
        // SAFETY: every buffer of this device is used on its one stream only, so the
        // per-buffer events that order uses across streams are not needed.
        unsafe { ctx.disable_event_tracking() };
        let stream = ctx
            .new_stream()
            .map_err(|e| CudaError::driver("cuStreamCreate", e))?;
        let (major, minor) = ctx
            .compute_capability()
            .map_err(|e| CudaError::driver("cuDeviceGetAttribute", e))?;
        let name = ctx
            .name()
            .unwrap_or_else(|_| format!("CUDA device {ordinal}"));
        Ok(Arc::new(Self {
            ctx,
            stream,
            name,
            arch: format!("compute_{major}{minor}"),
            sm: format!("sm_{major}{minor}"),
            cubin_only: AtomicBool::new(false),
            modules: Mutex::new(HashMap::new()),
            functions: Mutex::new(HashMap::new()),
            blas: OnceLock::new(),
            poison: AtomicBool::new(false),
            failure: Mutex::new(None),
        }))
    }

    /// The first failure of a whole-array operation run by the CUDA reading
    /// ([`DeviceDual`](super::DeviceDual)) on this device since the last call, if any.
    ///
    /// Array results carry their failure themselves ([`DeviceVec::to_host`](super::DeviceVec::to_host));
    /// a reduction's scalar result can only be NaN, and this is where its cause is kept.
    pub fn take_failure(&self) -> Option<CudaError> {
        self.failure.lock().ok().and_then(|mut f| f.take())
    }

    /// Keeps `error` for [`take_failure`](Self::take_failure) unless an earlier one
    /// is waiting.
    pub(crate) fn record_failure(&self, error: &CudaError) {
        if let Ok(mut f) = self.failure.lock() {
            f.get_or_insert_with(|| error.clone());
        }
    }

    /// The device's name, as the driver reports it (e.g. `"NVIDIA H200"`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The virtual architecture kernels are compiled for (e.g. `"compute_90"`).
    pub fn arch(&self) -> &str {
        &self.arch
    }

    /// Waits until all work issued to the device has finished.
    ///
    /// # Errors
    /// [`CudaError::Driver`] when an earlier kernel failed (errors of asynchronous work
    /// surface at the next synchronization).
    pub fn synchronize(&self) -> Result<(), CudaError> {
        self.stream
            .synchronize()
            .map_err(|e| CudaError::driver("cuStreamSynchronize", e))
    }

    /// Fills every buffer the device allocates for a result with NaN before the kernel
    /// writes it, so an element a kernel forgets to write shows up in a check.
    #[doc(hidden)]
    pub fn set_poison(&self, on: bool) {
        self.poison.store(on, Ordering::Relaxed);
    }

    pub(crate) fn stream(&self) -> &Arc<CudaStream> {
        &self.stream
    }

    /// Runs `work` and returns its result with the device time it took in
    /// milliseconds, measured by CUDA events recorded on the device's stream before and
    /// after it (waits for the stream).
    ///
    /// # Errors
    /// The driver's event errors, and `work`'s own.
    pub fn time_ms<T>(
        &self,
        work: impl FnOnce() -> Result<T, CudaError>,
    ) -> Result<(T, f32), CudaError> {
        let flags = Some(cudarc::driver::sys::CUevent_flags::CU_EVENT_DEFAULT);
        let event = |op| move |e| CudaError::driver(op, e);
        let start = self
            .stream
            .record_event(flags)
            .map_err(event("cuEventRecord"))?;
        let out = work()?;
        let end = self
            .stream
            .record_event(flags)
            .map_err(event("cuEventRecord"))?;
        end.synchronize().map_err(event("cuEventSynchronize"))?;
        let ms = start
            .elapsed_ms(&end)
            .map_err(event("cuEventElapsedTime"))?;
        Ok((out, ms))
    }

    /// A result buffer of `len` values (NaN-filled when poisoning is on).
    pub(crate) fn alloc<S: DeviceFloat>(&self, len: usize) -> Result<CudaSlice<S>, CudaError> {
        if self.poison.load(Ordering::Relaxed) {
            return self.upload(&vec![<S as DeviceFloat>::nan(); len]);
        }
        // SAFETY: every caller hands the buffer to a kernel or cuBLAS call that writes
        // all of it before anything reads it. (At least one element: the driver refuses
        // empty allocations; callers keep the logical length.)
        unsafe { self.stream.alloc::<S>(len.max(1)) }
            .map_err(|e| alloc_error("cuMemAlloc", e, len * size_of::<S>()))
    }

    /// A zero-filled buffer of `len` values (at least one).
    pub(crate) fn zeros<S: DeviceFloat>(&self, len: usize) -> Result<CudaSlice<S>, CudaError> {
        self.stream
            .alloc_zeros::<S>(len.max(1))
            .map_err(|e| alloc_error("cuMemAlloc + cuMemsetD8", e, len * size_of::<S>()))
    }

    /// A device copy of `host` (one zero for an empty `host`: the driver refuses empty
    /// allocations).
    pub(crate) fn upload<S: DeviceFloat>(&self, host: &[S]) -> Result<CudaSlice<S>, CudaError> {
        if host.is_empty() {
            return self.zeros(1);
        }
        self.stream
            .clone_htod(host)
            .map_err(|e| alloc_error("cuMemAlloc + cuMemcpyHtoD", e, size_of_val(host)))
    }

    /// A device copy of `src` (ordered on the stream; nothing waits).
    pub(crate) fn copy<S: DeviceFloat>(
        &self,
        src: &CudaSlice<S>,
    ) -> Result<CudaSlice<S>, CudaError> {
        self.stream
            .clone_dtod(src)
            .map_err(|e| alloc_error("cuMemAlloc + cuMemcpyDtoD", e, src.len() * size_of::<S>()))
    }

    /// A host copy of `dev[range]` (waits for the stream).
    pub(crate) fn download<S: DeviceFloat>(
        &self,
        dev: &CudaSlice<S>,
        range: std::ops::Range<usize>,
    ) -> Result<Vec<S>, CudaError> {
        if range.is_empty() {
            return Ok(Vec::new());
        }
        self.stream
            .clone_dtoh(&dev.slice(range))
            .map_err(|e| CudaError::driver("cuMemcpyDtoH", e))
    }

    /// The kernel `name` of the translation unit `unit` (`source` generates its text
    /// for a precision), compiled with NVRTC and loaded at first use, cached afterwards.
    pub(crate) fn function(
        &self,
        precision: Precision,
        unit: &'static str,
        source: fn(Precision) -> String,
        name: &str,
    ) -> Result<CudaFunction, CudaError> {
        let mut functions = self.functions.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(f) = functions.get(name) {
            return Ok(f.clone());
        }
        let module = {
            let mut modules = self.modules.lock().unwrap_or_else(|p| p.into_inner());
            match modules.get(&(precision, unit)) {
                Some(m) => m.clone(),
                None => {
                    let m = self.load_unit(precision, unit, source)?;
                    modules.insert((precision, unit), m.clone());
                    m
                }
            }
        };
        let f = module
            .load_function(name)
            .map_err(|e| CudaError::driver("cuModuleGetFunction", e))?;
        functions.insert(name.to_owned(), f.clone());
        Ok(f)
    }

    /// Loads `unit` as PTX for the device's virtual architecture, so the driver
    /// compiles it for the device (and its JIT cache, shared between processes, keeps
    /// the result); as CUBIN for the device's own architecture when the driver is
    /// older than the NVRTC that wrote the PTX and cannot read it.
    fn load_unit(
        &self,
        precision: Precision,
        unit: &'static str,
        source: fn(Precision) -> String,
    ) -> Result<Arc<CudaModule>, CudaError> {
        if !self.cubin_only.load(Ordering::Relaxed) {
            let ptx = nvrtc::unit_ptx(unit, source, precision, &self.arch)?;
            match self.ctx.load_module(Ptx::from_src(ptx.to_string())) {
                Ok(m) => return Ok(m),
                Err(e) if e.0 == CUresult::CUDA_ERROR_UNSUPPORTED_PTX_VERSION => {
                    let m = self.load_cubin(precision, unit, source);
                    return m.map_err(|fallback| old_driver_error(e, &self.sm, &fallback));
                }
                Err(e) => return Err(CudaError::driver("cuModuleLoadData", e)),
            }
        }
        self.load_cubin(precision, unit, source)
    }

    /// Loads `unit` as CUBIN for the device's own architecture (and, once that
    /// worked, takes CUBIN for every later unit too: the driver's refusal of PTX
    /// holds for all of them).
    fn load_cubin(
        &self,
        precision: Precision,
        unit: &'static str,
        source: fn(Precision) -> String,
    ) -> Result<Arc<CudaModule>, CudaError> {
        let cubin = nvrtc::unit_cubin(unit, source, precision, &self.sm)?;
        let m = self
            .ctx
            .load_module(Ptx::from_binary(cubin.to_vec()))
            .map_err(|e| CudaError::driver("cuModuleLoadData", e))?;
        self.cubin_only.store(true, Ordering::Relaxed);
        Ok(m)
    }

    /// A kernel of the element-wise / reduction unit of `S`'s precision.
    pub(crate) fn kernel<S: DeviceFloat>(&self, op: &str) -> Result<CudaFunction, CudaError> {
        let name = super::kernels::kernel_name(op, S::PRECISION);
        self.function(
            S::PRECISION,
            nvrtc::ELEMENTWISE,
            super::kernels::source,
            &name,
        )
    }

    /// The cuBLAS handle, bound to this device's stream (created at first use).
    pub(crate) fn blas(&self) -> Result<&CudaBlas, CudaError> {
        self.blas
            .get_or_init(|| {
                // SAFETY: as for the driver: cudarc panics on a missing library.
                if !unsafe { cudarc::cublas::sys::is_culib_present() } {
                    return Err(CudaError::LibraryMissing {
                        library: "cublas",
                        hint: "libcublas.so was not found: install cuBLAS (e.g. the \
                               nvidia-cublas Python package) and put its lib folder on \
                               LD_LIBRARY_PATH",
                    });
                }
                CudaBlas::new(self.stream.clone()).map_err(|e| CudaError::driver("cublasCreate", e))
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The launch configuration of an element-wise kernel over `len` elements.
    pub(crate) fn elementwise_config(len: usize) -> LaunchConfig {
        to_config(LaunchShape::for_elements(len, MAX_GRID))
    }
}

/// Grid cap of element-wise launches: enough blocks to fill any current GPU several
/// times over; the kernels' grid-stride loops cover the rest.
const MAX_GRID: u32 = 65_535;

/// A cudarc launch configuration from a launch shape.
pub(crate) fn to_config(shape: LaunchShape) -> LaunchConfig {
    LaunchConfig {
        grid_dim: (shape.grid, 1, 1),
        block_dim: (shape.block, 1, 1),
        shared_mem_bytes: 0,
    }
}

/// An allocation or copy failure, out-of-memory named as such. `op` names the copy
/// too: a fault left by an earlier kernel surfaces at the next copy, not as an
/// allocation failure.
fn alloc_error(op: &'static str, e: DriverError, bytes: usize) -> CudaError {
    match CudaError::driver(op, e) {
        CudaError::OutOfMemory { .. } => CudaError::OutOfMemory { bytes },
        other => other,
    }
}

/// The driver's refusal `e` of PTX newer than itself, after the CUBIN for `sm` failed
/// too (`fallback`): both versions named, the one failure a user fixes by installing
/// something else.
fn old_driver_error(e: DriverError, sm: &str, fallback: &CudaError) -> CudaError {
    let mut driver = 0;
    let (mut major, mut minor) = (0, 0);
    // SAFETY: both libraries are loaded (a device and a compiled PTX exist) and each
    // call writes only through the pointers it is given.
    let known = unsafe {
        cudarc::driver::sys::cuDriverGetVersion(&mut driver) == CUresult::CUDA_SUCCESS
            && cudarc::nvrtc::sys::nvrtcVersion(&mut major, &mut minor)
                == cudarc::nvrtc::sys::nvrtcResult::NVRTC_SUCCESS
    };
    let versions = if known {
        format!(
            "the driver supports CUDA {}.{} but the kernels were compiled by NVRTC {major}.{minor}",
            driver / 1000,
            driver % 1000 / 10
        )
    } else {
        "the driver is older than the NVRTC that compiled the kernels".to_owned()
    };
    CudaError::Driver {
        op: "cuModuleLoadData",
        detail: format!(
            "{e:?}: {versions}, and the {sm} CUBIN did not load either ({fallback}); update \
             the driver, or put an NVRTC no newer than the driver first on LD_LIBRARY_PATH"
        ),
    }
}
