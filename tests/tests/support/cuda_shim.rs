//! Host C++ for CUDA kernel units, shared by the host-run kernel tests.

/// Turns a kernel unit into host C++: one block of one thread, so every grid-stride
/// loop and block tree runs sequentially and the reductions add in the CPU's order.
pub const HOST_SHIM: &str = r#"
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <math.h>
using std::isnan;
using std::isfinite;
using std::signbit;
struct LiftedDim { unsigned x; };
static LiftedDim blockIdx{0}, gridDim{1};
static const LiftedDim threadIdx{0}, blockDim{1};
#define __global__
#define __device__
#define __forceinline__ inline
#define __shared__ static
#define __syncthreads() ((void)0)
#define __trap() abort()
"#;

/// Builds the C++ `program` with the host compiler (`$CXX`, else `c++`; C++17, no
/// contraction into FMAs, optimisation `opt`) in a fresh folder named after `name`,
/// runs it on `input` (its `argv[1]`) and returns what it wrote to `argv[2]`.
///
/// # Panics
/// When the program does not build or does not exit with status 0.
pub fn build_and_run(name: &str, program: &str, input: &[u8], opt: &str) -> Vec<u8> {
    use std::process::Command;
    let dir = std::env::temp_dir().join(format!("lifted-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("unit.cpp"), program).expect("write the program");
    std::fs::write(dir.join("in.bin"), input).expect("write the inputs");
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "c++".into());
    let built = Command::new(&cxx)
        .args(["-std=c++17", opt, "-ffp-contract=off", "-w", "-o"])
        .arg(dir.join("unit"))
        .arg(dir.join("unit.cpp"))
        .arg("-lm")
        .output()
        .expect("run the C++ compiler");
    assert!(
        built.status.success(),
        "{cxx} rejected the {name} program:\n{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let ran = Command::new(dir.join("unit"))
        .arg(dir.join("in.bin"))
        .arg(dir.join("out.bin"))
        .status();
    assert!(
        ran.is_ok_and(|s| s.success()),
        "the host {name} program failed"
    );
    let out = std::fs::read(dir.join("out.bin")).expect("read the outputs");
    let _ = std::fs::remove_dir_all(&dir);
    out
}
