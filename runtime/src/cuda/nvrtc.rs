//! Compiling CUDA C with NVRTC, loaded at run time: to PTX, how kernels are handed to
//! the driver, and to CUBIN, the fallback for a driver too old to JIT that PTX; and
//! the process-wide cache of both (each unit, precision and architecture compiled
//! once).
//!
//! NVRTC needs no GPU: the kernels are compiled and checked on any machine where
//! `libnvrtc.so` is on the loader's path (the `nvidia-cuda-nvrtc` wheel has it).

use std::collections::HashMap;
use std::ffi::{CString, c_char};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, LazyLock, Mutex, OnceLock, PoisonError};

use cudarc::nvrtc::result::{compile_program, create_program, destroy_program, get_program_log};
use cudarc::nvrtc::sys::{self, nvrtcProgram, nvrtcResult};

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

/// NVRTC's options for the architecture `arch`, the same for PTX and CUBIN so that the
/// fallback runs the arithmetic the PTX would have: IEEE-exact, with no fused
/// multiply-adds the source does not write, no flush to zero, correctly rounded
/// division and square root.
fn options(arch: &str) -> [String; 6] {
    [
        "--ftz=false".into(),
        "--prec-sqrt=true".into(),
        "--prec-div=true".into(),
        "--fmad=false".into(),
        format!("--gpu-architecture={arch}"),
        "--std=c++17".into(),
    ]
}

/// NVRTC's call for the size of a compiled image.
type ImageSize = unsafe fn(nvrtcProgram, *mut usize) -> nvrtcResult;
/// NVRTC's call copying a compiled image into a buffer of that size.
type ImageCopy = unsafe fn(nvrtcProgram, *mut c_char) -> nvrtcResult;

/// Compiles the CUDA C translation unit `src` (named `unit` in errors) to PTX for the
/// virtual architecture `arch` (`"compute_90"`), with IEEE-exact arithmetic: no fused
/// multiply-adds the source does not write, no flush to zero, correctly rounded
/// division and square root.
///
/// # Errors
/// [`CudaError::LibraryMissing`] without NVRTC; [`CudaError::Compile`] with NVRTC's
/// log when the source does not compile (or `arch` is not one NVRTC knows).
pub fn compile(unit: &str, src: &str, arch: &str) -> Result<String, CudaError> {
    let image = compile_image(unit, src, arch, sys::nvrtcGetPTXSize, sys::nvrtcGetPTX)?;
    let text = image.split(|&b| b == 0).next().unwrap_or_default();
    Ok(String::from_utf8_lossy(text).into_owned())
}

/// Compiles `src` like [`compile`], with the same options, to CUBIN (an ELF image of
/// machine code) for the real architecture `sm` (`"sm_90"`): what the driver loads
/// without JIT-compiling anything.
///
/// # Errors
/// As [`compile`]; [`CudaError::Compile`] too when `sm` is a virtual architecture
/// (NVRTC writes no CUBIN for those).
pub fn compile_cubin(unit: &str, src: &str, sm: &str) -> Result<Vec<u8>, CudaError> {
    compile_image(unit, src, sm, sys::nvrtcGetCUBINSize, sys::nvrtcGetCUBIN)
}

/// Compiles `src` for `arch` with [`options`] and takes out the image that `size` and
/// `copy` read.
fn compile_image(
    unit: &str,
    src: &str,
    arch: &str,
    size: ImageSize,
    copy: ImageCopy,
) -> Result<Vec<u8>, CudaError> {
    if !nvrtc_available() {
        return Err(MISSING);
    }
    let fail = |log: String| CudaError::Compile {
        unit: unit.to_owned(),
        log,
    };
    // None of these can cross into C strings (cudarc would panic on the options).
    let (Ok(src), Ok(name), false) = (
        CString::new(src),
        CString::new(format!("{unit}.cu")),
        arch.contains('\0'),
    ) else {
        return Err(fail(
            "the source, unit name or architecture contains a NUL byte".into(),
        ));
    };
    // cudarc panics when a function is missing from the NVRTC it loaded (an old
    // one); keep the promise that nothing here panics.
    catch_unwind(AssertUnwindSafe(|| {
        let prog = create_program(&src, Some(&name)).map_err(|e| CudaError::driver("nvrtc", e))?;
        // SAFETY: `prog` comes from `create_program`, `src` and `name` outlive it, and
        // it is destroyed only below, after its last use.
        let compiled = unsafe { compile_program(prog, &options(arch)) };
        let out = match compiled {
            // SAFETY: as above; the program compiled, so it has an image.
            Ok(()) => unsafe { take_image(prog, size, copy) }.and_then(|image| {
                if image.is_empty() {
                    Err(fail(format!(
                        "NVRTC wrote no image for {arch} (CUBIN needs a real architecture, sm_XY)"
                    )))
                } else {
                    Ok(image)
                }
            }),
            Err(e) => {
                // SAFETY: as above.
                let log = unsafe { get_program_log(prog) }.unwrap_or_default();
                let log = log.split(|&c| c == 0).next().unwrap_or_default();
                let log: Vec<u8> = log.iter().map(|&c| c.to_ne_bytes()[0]).collect();
                let log = String::from_utf8_lossy(&log).trim_end().to_owned();
                Err(fail(if log.is_empty() {
                    format!("{:?}", e.0)
                } else {
                    log
                }))
            }
        };
        // SAFETY: as above; nothing uses `prog` after this.
        let _ = unsafe { destroy_program(prog) };
        out
    }))
    .unwrap_or_else(|_| Err(fail("NVRTC failed unexpectedly (cudarc panicked)".into())))
}

/// The image of the compiled program `prog`, of the length `size` reports, as `copy`
/// writes it.
///
/// # Safety
/// `prog` must come from `create_program`, be compiled and not yet destroyed.
unsafe fn take_image(
    prog: nvrtcProgram,
    size: ImageSize,
    copy: ImageCopy,
) -> Result<Vec<u8>, CudaError> {
    let mut len = 0;
    // SAFETY: `prog` is live (the caller's promise); `len` is a valid place to write.
    unsafe { size(prog, &mut len) }
        .result()
        .map_err(|e| CudaError::driver("nvrtc", e))?;
    let mut image = vec![0u8; len];
    if len > 0 {
        // SAFETY: `prog` is live, and `image` holds the `len` bytes NVRTC writes.
        unsafe { copy(prog, image.as_mut_ptr().cast::<c_char>()) }
            .result()
            .map_err(|e| CudaError::driver("nvrtc", e))?;
    }
    Ok(image)
}

/// How many times [`ptx`] has compiled the pair (`p`, `arch`) in this process: 1
/// after any number of successful calls (for tests of the cache, which other tests'
/// compiles running at the same time do not disturb).
#[doc(hidden)]
pub fn ptx_compiles(p: Precision, arch: &str) -> usize {
    let cache = CACHE.lock().unwrap_or_else(PoisonError::into_inner);
    cache.ptx.compiles(ELEMENTWISE, p, arch)
}

/// How many times [`unit_cubin`] has compiled `unit` for (`p`, `sm`) in this process,
/// as [`ptx_compiles`] counts.
#[doc(hidden)]
pub fn cubin_compiles(unit: &'static str, p: Precision, sm: &str) -> usize {
    let cache = CACHE.lock().unwrap_or_else(PoisonError::into_inner);
    cache.cubin.compiles(unit, p, sm)
}

/// A translation unit's name, its precision and the architecture it is compiled for.
type Key = (&'static str, Precision, String);

/// Compiled images of one kind by unit, precision and architecture, and how often each
/// was compiled.
struct Images<T: ?Sized> {
    images: HashMap<Key, Arc<T>>,
    compiles: HashMap<Key, usize>,
}

impl<T: ?Sized> Default for Images<T> {
    fn default() -> Self {
        Self {
            images: HashMap::new(),
            compiles: HashMap::new(),
        }
    }
}

impl<T: ?Sized> Images<T> {
    fn compiles(&self, unit: &'static str, p: Precision, arch: &str) -> usize {
        self.compiles
            .get(&(unit, p, arch.to_owned()))
            .copied()
            .unwrap_or(0)
    }
}

/// The PTX and the CUBIN compiled in this process.
#[derive(Default)]
struct Cache {
    ptx: Images<str>,
    cubin: Images<[u8]>,
}

static CACHE: LazyLock<Mutex<Cache>> = LazyLock::new(Mutex::default);

/// The name of the element-wise and reduction unit ([`kernels::source`]).
pub(crate) const ELEMENTWISE: &str = "elementwise";

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
    cached(
        |cache| &mut cache.ptx,
        |name, src| compile(name, src, arch).map(Arc::from),
        unit,
        source,
        p,
        arch,
    )
}

/// The CUBIN of the translation unit `unit` for the real architecture `sm`
/// ([`compile_cubin`]), cached like [`unit_ptx`]'s.
///
/// # Errors
/// As [`compile_cubin`].
pub fn unit_cubin(
    unit: &'static str,
    source: fn(Precision) -> String,
    p: Precision,
    sm: &str,
) -> Result<Arc<[u8]>, CudaError> {
    cached(
        |cache| &mut cache.cubin,
        |name, src| compile_cubin(name, src, sm).map(Arc::from),
        unit,
        source,
        p,
        sm,
    )
}

/// The image of `unit` for (`p`, `arch`) in the part of the cache `images` picks,
/// compiled by `compile` (from the unit's name with its precision, and its text) when
/// it is not there yet.
fn cached<T: ?Sized>(
    images: fn(&mut Cache) -> &mut Images<T>,
    compile: impl FnOnce(&str, &str) -> Result<Arc<T>, CudaError>,
    unit: &'static str,
    source: fn(Precision) -> String,
    p: Precision,
    arch: &str,
) -> Result<Arc<T>, CudaError> {
    // Held across the compile, so concurrent first calls compile once.
    let mut cache = CACHE.lock().unwrap_or_else(PoisonError::into_inner);
    let images = images(&mut cache);
    let key = (unit, p, arch.to_owned());
    if let Some(image) = images.images.get(&key) {
        return Ok(Arc::clone(image));
    }
    *images.compiles.entry(key.clone()).or_default() += 1;
    let image = compile(&format!("{unit} {}", p.suffix()), &source(p))?;
    images.images.insert(key, Arc::clone(&image));
    Ok(image)
}
