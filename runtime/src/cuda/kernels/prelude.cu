// Helpers shared by every kernel of one precision unit. `T` is typedef'd above this
// fragment, and math functions marked as in the op table take that precision.

#define LIFTED_FOR(i)                                                              \
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < len; \
         i += (long long)gridDim.x * blockDim.x)

// Element i of an operand of n elements broadcast over len outputs (n = len, 1, or a
// divisor of len); the common cases skip the 64-bit modulo.
__device__ __forceinline__ long long lifted_at(long long i, long long n, long long len) {
    return n == len ? i : (n == 1 ? 0 : i % n);
}

// Strong zero: an exactly zero tangent stays exactly zero whatever the coefficient
// (infinite or NaN at a singular point), as the CPU's `strong_mul`.
__device__ __forceinline__ T lifted_sz(T t, T c) {
    return t == T(0) ? T(0) : t * c;
}

// NaN-safe lanes: the plain product where the coefficient is finite, strong zero where
// it is not, so one infinite or NaN value never makes an untouched lane NaN (the CPU's
// `times_safe`).
__device__ __forceinline__ T lifted_safe(T t, T c) {
    return isfinite(c) ? t * c : lifted_sz(t, c);
}

// A lane divided by a constant, NaN-safe where the divisor is zero or NaN (the CPU's
// mixed `x / c`).
__device__ __forceinline__ T lifted_safe_div(T t, T c) {
    return (c != T(0) && !isnan(c)) || t != T(0) ? t / c : T(0);
}

// True when every lane of element e of a tangent block is exactly zero: the CPU's
// `partials.iter().all(is_exact_zero)`, for rules that branch on it (powf).
__device__ __forceinline__ bool lifted_lanes_zero(const T* d, long long n, long long e, int lanes) {
    for (int k = 0; k < lanes; ++k) {
        if (d[(long long)k * n + e] != T(0)) return false;
    }
    return true;
}

// Rust's `signum`: NaN stays NaN, otherwise ±1 by the sign bit (so -0.0 gives -1).
__device__ __forceinline__ T lifted_signum(T x) {
    return isnan(x) ? x : @copysign(T(1), x);
}

// Rust's `powi` (compiler-rt's __powidf2 / __powisf2): square-and-multiply, then one
// reciprocal for negative exponents, so values match the CPU bit for bit.
__device__ __forceinline__ T lifted_powi(T a, int b) {
    const bool recip = b < 0;
    T r = T(1);
    while (true) {
        if (b & 1) r *= a;
        b /= 2;
        if (b == 0) break;
        a *= a;
    }
    return recip ? T(1) / r : r;
}

// Rust's `rem_euclid`: the remainder made non-negative.
__device__ __forceinline__ T lifted_rem_euclid(T a, T b) {
    const T r = @fmod(a, b);
    return r < T(0) ? r + @fabs(b) : r;
}

// Rust's `div_euclid`.
__device__ __forceinline__ T lifted_div_euclid(T a, T b) {
    const T q = @trunc(a / b);
    if (@fmod(a, b) < T(0)) return b > T(0) ? q - T(1) : q + T(1);
    return q;
}

// Rust's `clamp` without its panic on lo > hi or NaN bounds (a kernel cannot panic).
__device__ __forceinline__ T lifted_clamp(T x, T lo, T hi) {
    T r = x;
    if (r < lo) r = lo;
    if (r > hi) r = hi;
    return r;
}
