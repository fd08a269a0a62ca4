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
