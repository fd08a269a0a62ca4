//! Which CUDA libraries the process runs on. cudarc opens them by name on the loader's
//! path, bare names (`libnvrtc.so`) first, so what a machine has installed, not what
//! the script found, decides; these lines record what was actually loaded.
//!
//! Also whether the driver accepts the kernels at all: the backend hands it PTX, which
//! the driver JIT-compiles and refuses when it is older than the NVRTC that wrote it
//! (`CUDA_ERROR_UNSUPPORTED_PTX_VERSION`); CUBIN, machine code for the device's
//! architecture, has no JIT step. A probe kernel is compiled both ways and loaded, so a
//! run that fails on PTX also says whether CUBIN would have worked.

use std::ffi::{CString, c_char};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use cudarc::driver::CudaContext;
use cudarc::nvrtc::Ptx;
use lifted::cuda::{Device, nvrtc};

use super::{info_line, panic_message};

/// The libraries the backend loads (cuBLAS loads cuBLASLt, NVRTC its builtins), as the
/// start of their file names.
const LIBRARIES: [&str; 5] = [
    "libcuda.so",
    "libnvrtc.so",
    "libnvrtc-builtins.so",
    "libcublas.so",
    "libcublasLt.so",
];

const PROBE: &str = "extern \"C\" __global__ void probe(double *x) { x[threadIdx.x] += 1.0; }";

/// Runs `f`, turning a panic into its message: cudarc panics on a library that lacks a
/// symbol it expects, and one odd library must not hide the facts about the others.
fn guarded(f: impl FnOnce() -> Result<String, String>) -> String {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(v) | Err(v)) => v,
        Err(payload) => format!("panicked: {}", panic_message(&*payload)),
    }
}

/// Prints the versions of the driver, NVRTC and cuBLAS the process loads.
pub(crate) fn print_versions() {
    info_line("cuda driver", &guarded(driver_version));
    info_line("nvrtc", &guarded(nvrtc_version));
    info_line("cublas", &guarded(cublas_version));
}

fn driver_version() -> Result<String, String> {
    // SAFETY: only tries to open the library under its candidate names.
    if !unsafe { cudarc::driver::sys::is_culib_present() } {
        return Err("not loadable (no libcuda.so on the loader's path)".into());
    }
    let mut v = 0;
    // SAFETY: the library is present; the call only writes `v` (and needs no cuInit).
    let r = unsafe { cudarc::driver::sys::cuDriverGetVersion(&mut v) };
    if r != cudarc::driver::sys::CUresult::CUDA_SUCCESS {
        return Err(format!("cuDriverGetVersion failed: {r:?}"));
    }
    Ok(format!("CUDA {}.{} ({v})", v / 1000, v % 1000 / 10))
}

fn nvrtc_version() -> Result<String, String> {
    if !nvrtc::nvrtc_available() {
        return Err("not loadable (no libnvrtc.so on the loader's path)".into());
    }
    let (mut major, mut minor) = (0, 0);
    // SAFETY: the library is present; the call only writes `major` and `minor`.
    let r = unsafe { cudarc::nvrtc::sys::nvrtcVersion(&mut major, &mut minor) };
    r.result()
        .map_err(|e| format!("nvrtcVersion failed: {e:?}"))?;
    Ok(format!("{major}.{minor}"))
}

fn cublas_version() -> Result<String, String> {
    use cudarc::cublas::sys::{
        cublasGetProperty, cublasStatus_t, is_culib_present, libraryPropertyType,
    };
    // SAFETY: only tries to open the library under its candidate names.
    if !unsafe { is_culib_present() } {
        return Err("not loadable (no libcublas.so on the loader's path)".into());
    }
    let mut parts = [0; 3];
    let kinds = [
        libraryPropertyType::MAJOR_VERSION,
        libraryPropertyType::MINOR_VERSION,
        libraryPropertyType::PATCH_LEVEL,
    ];
    for (part, kind) in parts.iter_mut().zip(kinds) {
        // SAFETY: the library is present; the call needs no handle and only writes
        // `part`.
        let r = unsafe { cublasGetProperty(kind, part) };
        if r != cublasStatus_t::CUBLAS_STATUS_SUCCESS {
            return Err(format!("cublasGetProperty failed: {r:?}"));
        }
    }
    Ok(format!("{}.{}.{}", parts[0], parts[1], parts[2]))
}

/// Prints the file of each CUDA library mapped into the process (the kernel's record,
/// with links resolved).
pub(crate) fn print_loaded() {
    let Ok(maps) = std::fs::read_to_string("/proc/self/maps") else {
        return;
    };
    let mut seen: Vec<&str> = Vec::new();
    for path in maps.lines().filter_map(|l| l.find('/').map(|at| &l[at..])) {
        let file = path.rsplit('/').next().unwrap_or(path);
        let Some(lib) = LIBRARIES.iter().find(|lib| file.starts_with(*lib)) else {
            continue;
        };
        if !seen.contains(&path) {
            seen.push(path);
            info_line(&format!("loaded {}", lib.trim_end_matches(".so")), path);
        }
    }
}

/// Prints whether the driver loads the probe kernel as PTX for the device's virtual
/// architecture and as CUBIN for its real one.
pub(crate) fn print_kernel_images(dev: &Device) {
    let arch = dev.arch();
    let sm = arch.replacen("compute_", "sm_", 1);
    let ctx = match catch_unwind(|| CudaContext::new(0)) {
        Ok(Ok(ctx)) => ctx,
        Ok(Err(e)) => {
            info_line("kernel images", &format!("no context: {e:?}"));
            return;
        }
        Err(payload) => {
            let message = panic_message(&*payload);
            info_line("kernel images", &format!("no context: panicked: {message}"));
            return;
        }
    };
    let ptx = || {
        let text =
            nvrtc::compile("probe", PROBE, arch).map_err(|e| format!("does not compile: {e}"))?;
        load(&ctx, Ptx::from_src(text))
    };
    info_line(&format!("kernel image PTX {arch}"), &guarded(ptx));
    let cubin = || load(&ctx, Ptx::from_binary(compile_cubin(PROBE, &sm)?));
    info_line(&format!("kernel image CUBIN {sm}"), &guarded(cubin));
}

/// Loads `image` and looks up the probe kernel in it.
fn load(ctx: &Arc<CudaContext>, image: Ptx) -> Result<String, String> {
    let module = ctx
        .load_module(image)
        .map_err(|e| format!("does not load: {e:?}"))?;
    module
        .load_function("probe")
        .map_err(|e| format!("loads, but has no kernel: {e:?}"))?;
    Ok("loads".to_owned())
}

/// CUBIN for the real architecture `arch` (`sm_90`) from NVRTC.
fn compile_cubin(src: &str, arch: &str) -> Result<Vec<u8>, String> {
    use cudarc::nvrtc::result::{compile_program, create_program, destroy_program};
    use cudarc::nvrtc::sys::{nvrtcGetCUBIN, nvrtcGetCUBINSize};
    if !nvrtc::nvrtc_available() {
        return Err("does not compile: NVRTC is not loadable".into());
    }
    let src = CString::new(src).map_err(|e| e.to_string())?;
    let prog = create_program(&src, None).map_err(|e| format!("nvrtcCreateProgram: {e:?}"))?;
    let options = [format!("--gpu-architecture={arch}")];
    // SAFETY: `prog` comes from `create_program`, `src` outlives it, and it is
    // destroyed only below, after its last use.
    let cubin = unsafe {
        compile_program(prog, &options)
            .map_err(|e| format!("does not compile: {e:?}"))
            .and_then(|()| {
                let mut size = 0;
                nvrtcGetCUBINSize(prog, &mut size)
                    .result()
                    .map_err(|e| format!("nvrtcGetCUBINSize: {e:?}"))?;
                if size == 0 {
                    return Err(format!("NVRTC wrote no CUBIN for {arch}"));
                }
                let mut cubin = vec![0u8; size];
                nvrtcGetCUBIN(prog, cubin.as_mut_ptr().cast::<c_char>())
                    .result()
                    .map_err(|e| format!("nvrtcGetCUBIN: {e:?}"))?;
                Ok(cubin)
            })
    };
    // SAFETY: as above; nothing uses `prog` after this.
    let _ = unsafe { destroy_program(prog) };
    cubin
}
