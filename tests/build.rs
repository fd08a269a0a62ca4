//! Sets `cfg(lifted_nvrtc)` when the NVRTC library can be found, so the tests that
//! compile kernels run where it is and show as ignored (never as passes) where it is
//! not. `LIFTED_REQUIRE_NVRTC=1` (set by `.ci/run`) forces them on: a missing library
//! then fails them loudly instead of skipping.
//!
//! Sets `cfg(lifted_host_cxx)` when a C++ compiler runs (`$CXX`, else `c++`): the
//! kernel sources are then also compiled for the host and checked against the CPU
//! rules without a GPU.

use std::env;
use std::path::Path;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(lifted_nvrtc)");
    println!("cargo::rerun-if-env-changed=LD_LIBRARY_PATH");
    println!("cargo::rerun-if-env-changed=LIFTED_REQUIRE_NVRTC");
    println!("cargo::rustc-check-cfg=cfg(lifted_host_cxx)");
    println!("cargo::rerun-if-env-changed=CXX");
    let required = env::var("LIFTED_REQUIRE_NVRTC").is_ok_and(|v| v == "1");
    if required || nvrtc_on_library_path() {
        println!("cargo::rustc-cfg=lifted_nvrtc");
    }
    let cxx = env::var("CXX").unwrap_or_else(|_| "c++".into());
    let runs = std::process::Command::new(&cxx).arg("--version").output();
    if runs.is_ok_and(|out| out.status.success()) {
        println!("cargo::rustc-cfg=lifted_host_cxx");
    }
}

/// Folders a system CUDA install puts NVRTC in, which the loader searches without
/// `LD_LIBRARY_PATH` (through `ld.so.cache`).
const SYSTEM_DIRS: &[&str] = &["/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib"];

/// Whether a `libnvrtc.so*` sits in one of the `LD_LIBRARY_PATH` folders or a system
/// one: where the test binary's loader will find it.
fn nvrtc_on_library_path() -> bool {
    let listed = env::var_os("LD_LIBRARY_PATH")
        .map(|path| env::split_paths(&path).collect::<Vec<_>>())
        .unwrap_or_default();
    let system = SYSTEM_DIRS.iter().map(Path::new);
    listed
        .iter()
        .map(|p| p.as_path())
        .chain(system)
        .any(has_nvrtc)
}

fn has_nvrtc(dir: &Path) -> bool {
    let Ok(entries) = dir.read_dir() else {
        return false;
    };
    entries.flatten().any(|e| {
        let name = e.file_name();
        let name = name.to_string_lossy();
        name == "libnvrtc.so" || name.starts_with("libnvrtc.so.")
    })
}
