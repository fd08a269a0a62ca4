//! Compiling CUDA C to PTX with NVRTC, loaded at run time, and the process-wide cache
//! of the kernels' PTX (each precision and architecture compiled once).
//!
//! NVRTC needs no GPU: the kernels are compiled and checked on any machine where
//! `libnvrtc.so` is on the loader's path (the `nvidia-cuda-nvrtc` wheel has it).

use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, LazyLock, Mutex, OnceLock, PoisonError};

use cudarc::nvrtc::{CompileError, CompileOptions, compile_ptx_with_opts};

use super::CudaError;
use super::kernels::{self, Precision};

/// The error for a machine without NVRTC.
const MISSING: CudaError = CudaError::LibraryMissing {
    library: "nvrtc",
    hint: "install the NVRTC runtime (`pip install nvidia-cuda-nvrtc==13.0.*`) and put its \
           lib folder (nvidia/cu13/lib) on LD_LIBRARY_PATH",
};

/// Whether the NVRTC library can be loaded. Checked once per process: cudarc panics
/// when it is asked for a library that is not there, so every entry point asks this
/// first.
pub fn nvrtc_available() -> bool {
    static PRESENT: OnceLock<bool> = OnceLock::new();
    *PRESENT.get_or_init(|| {
        // SAFETY: `is_culib_present` only tries to `dlopen` the candidate names and
        // drops what it opened; loading NVRTC runs no initialisation with side effects
        // on this process's state.
        unsafe { cudarc::nvrtc::sys::is_culib_present() }
    })
}

/// Compiles the CUDA C translation unit `src` (named `unit` in errors) to PTX for the
/// virtual architecture `arch` (`"compute_90"`), with IEEE-exact arithmetic: no fused
/// multiply-adds the source does not write, no flush to zero, correctly rounded
/// division and square root.
///
/// # Errors
/// [`CudaError::LibraryMissing`] without NVRTC; [`CudaError::Compile`] with NVRTC's
/// log when the source does not compile (or `arch` is not one NVRTC knows).
pub fn compile(unit: &str, src: &str, arch: &str) -> Result<String, CudaError> {
    if !nvrtc_available() {
        return Err(MISSING);
    }
    let fail = |log: String| CudaError::Compile {
        unit: unit.to_owned(),
        log,
    };
    // cudarc panics on these (they cannot cross into C strings); report them instead.
    if src.contains('\0') || unit.contains('\0') {
        return Err(fail("the source or unit name contains a NUL byte".into()));
    }
    let opts = CompileOptions {
        ftz: Some(false),
        prec_sqrt: Some(true),
        prec_div: Some(true),
        fmad: Some(false),
        options: vec![format!("--gpu-architecture={arch}"), "--std=c++17".into()],
        name: Some(format!("{unit}.cu")),
        ..CompileOptions::default()
    };
    // cudarc unwraps a few NVRTC calls it does not expect to fail; keep the promise
    // that nothing here panics.
    let result = catch_unwind(AssertUnwindSafe(|| compile_ptx_with_opts(src, opts)))
        .map_err(|_| fail("NVRTC failed unexpectedly (cudarc panicked)".into()))?;
    let ptx = result.map_err(|e| match e {
        CompileError::CompileError { log, .. } => fail(log.to_string_lossy().into_owned()),
        other => CudaError::driver("nvrtc", other),
    })?;
    let bytes = ptx.as_bytes().unwrap_or_default();
    let text = bytes.split(|&b| b == 0).next().unwrap_or_default();
    Ok(String::from_utf8_lossy(text).into_owned())
}

/// How many times [`ptx`] has compiled the pair (`p`, `arch`) in this process: 1
/// after any number of successful calls (for tests of the cache, which other tests'
/// compiles running at the same time do not disturb).
#[doc(hidden)]
pub fn ptx_compiles(p: Precision, arch: &str) -> usize {
    let cache = CACHE.lock().unwrap_or_else(PoisonError::into_inner);
    cache
        .compiles
        .get(&(ELEMENTWISE, p, arch.to_owned()))
        .copied()
        .unwrap_or(0)
}

/// A translation unit's name, its precision and the architecture it is compiled for.
type Key = (&'static str, Precision, String);

/// Compiled PTX by unit, precision and architecture, and how often each was compiled.
#[derive(Default)]
struct PtxCache {
    ptx: HashMap<Key, Arc<str>>,
    compiles: HashMap<Key, usize>,
}

static CACHE: LazyLock<Mutex<PtxCache>> = LazyLock::new(Mutex::default);

/// The name of the element-wise and reduction unit ([`kernels::source`]).
const ELEMENTWISE: &str = "elementwise";

/// The PTX of [`kernels::source`]`(p)` for `arch`, compiled on the first call for
/// that pair and shared afterwards (the cache lives as long as the process; a failed
/// compile is not cached).
///
/// # Errors
/// As [`compile`].
pub fn ptx(p: Precision, arch: &str) -> Result<Arc<str>, CudaError> {
    unit_ptx(ELEMENTWISE, kernels::source, p, arch)
}

/// The PTX of the translation unit `unit`, whose text for a precision is `source`,
/// cached like [`ptx`]'s (the PINN kernels are such a unit).
///
/// # Errors
/// As [`compile`].
pub fn unit_ptx(
    unit: &'static str,
    source: fn(Precision) -> String,
    p: Precision,
    arch: &str,
) -> Result<Arc<str>, CudaError> {
    // Held across the compile, so concurrent first calls compile once.
    let mut cache = CACHE.lock().unwrap_or_else(PoisonError::into_inner);
    let key = (unit, p, arch.to_owned());
    if let Some(ptx) = cache.ptx.get(&key) {
        return Ok(Arc::clone(ptx));
    }
    *cache.compiles.entry(key.clone()).or_default() += 1;
    let name = format!("{unit} {}", p.suffix());
    let ptx: Arc<str> = compile(&name, &source(p), arch)?.into();
    cache.ptx.insert(key, Arc::clone(&ptx));
    Ok(ptx)
}
