// The reading surface of the derivative table (`reading::table`) at this unit's
// precision: the table's expressions call `S::sqrt(x)`, `S::one()`, `S::cst(c)`, as
// the Rust readings do, and read the f64 constants defined above this fragment.
// Comparisons and `is_sign_negative` give `bool`, as in Rust.

struct S {
    static __device__ __forceinline__ T zero() { return T(0); }
    static __device__ __forceinline__ T one() { return T(1); }
    static __device__ __forceinline__ T cst(double c) { return T(c); }
    static __device__ __forceinline__ T sin(T x) { return ::@sin(x); }
    static __device__ __forceinline__ T cos(T x) { return ::@cos(x); }
    static __device__ __forceinline__ T tan(T x) { return ::@tan(x); }
    static __device__ __forceinline__ T asin(T x) { return ::@asin(x); }
    static __device__ __forceinline__ T acos(T x) { return ::@acos(x); }
    static __device__ __forceinline__ T atan(T x) { return ::@atan(x); }
    static __device__ __forceinline__ T sinh(T x) { return ::@sinh(x); }
    static __device__ __forceinline__ T cosh(T x) { return ::@cosh(x); }
    static __device__ __forceinline__ T tanh(T x) { return ::@tanh(x); }
    static __device__ __forceinline__ T asinh(T x) { return ::@asinh(x); }
    static __device__ __forceinline__ T acosh(T x) { return ::@acosh(x); }
    static __device__ __forceinline__ T atanh(T x) { return ::@atanh(x); }
    static __device__ __forceinline__ T exp(T x) { return ::@exp(x); }
    static __device__ __forceinline__ T exp2(T x) { return ::@exp2(x); }
    static __device__ __forceinline__ T exp_m1(T x) { return ::@expm1(x); }
    static __device__ __forceinline__ T ln(T x) { return ::@log(x); }
    static __device__ __forceinline__ T log2(T x) { return ::@log2(x); }
    static __device__ __forceinline__ T log10(T x) { return ::@log10(x); }
    static __device__ __forceinline__ T ln_1p(T x) { return ::@log1p(x); }
    static __device__ __forceinline__ T sqrt(T x) { return ::@sqrt(x); }
    static __device__ __forceinline__ T cbrt(T x) { return ::@cbrt(x); }
    static __device__ __forceinline__ T abs(T x) { return ::@fabs(x); }
    static __device__ __forceinline__ T signum(T x) { return lifted_signum(x); }
    static __device__ __forceinline__ T recip(T x) { return T(1) / x; }
    // The primal's own factors (an f32 literal for f32, not the rounded f64 one).
    static __device__ __forceinline__ T to_degrees(T x) { return x * LIFTED_DEG_PER_RAD; }
    static __device__ __forceinline__ T to_radians(T x) { return x * LIFTED_RAD_PER_DEG; }
    static __device__ __forceinline__ T floor(T x) { return ::@floor(x); }
    static __device__ __forceinline__ T ceil(T x) { return ::@ceil(x); }
    static __device__ __forceinline__ T round(T x) { return ::@round(x); }
    static __device__ __forceinline__ T trunc(T x) { return ::@trunc(x); }
    static __device__ __forceinline__ T fract(T x) { return x - ::@trunc(x); }
    static __device__ __forceinline__ T atan2(T y, T x) { return ::@atan2(y, x); }
    static __device__ __forceinline__ T hypot(T x, T y) { return ::@hypot(x, y); }
    // Rust's `log(self, base)` is `self.ln() / base.ln()`.
    static __device__ __forceinline__ T log(T x, T b) { return ::@log(x) / ::@log(b); }
    // The linear table's values and conditions (`rem` is the `%` operator's).
    static __device__ __forceinline__ T rem(T a, T b) { return ::@fmod(a, b); }
    static __device__ __forceinline__ T copysign(T x, T s) { return ::@copysign(x, s); }
    static __device__ __forceinline__ T rem_euclid(T a, T b) { return lifted_rem_euclid(a, b); }
    static __device__ __forceinline__ T div_euclid(T a, T b) { return lifted_div_euclid(a, b); }
    static __device__ __forceinline__ bool is_sign_negative(T x) { return signbit(x) != 0; }
    // The power lines'. Their exponents are `long long` (see the generator), taken back
    // to `int` modulo 2^32.
    static __device__ __forceinline__ T powi(T x, long long n) { return lifted_powi(x, (int)n); }
    static __device__ __forceinline__ T powf(T x, T y) { return ::@pow(x, y); }
    // Rust's `is_exact_zero(&self)`: the table passes a reference.
    static __device__ __forceinline__ bool is_exact_zero(const T* x) { return *x == T(0); }
    // The piecewise table's values and conditions.
    static __device__ __forceinline__ T min(T a, T b) { return ::@fmin(a, b); }
    static __device__ __forceinline__ T max(T a, T b) { return ::@fmax(a, b); }
    static __device__ __forceinline__ T clamp(T x, T lo, T hi) { return lifted_clamp(x, lo, hi); }
    static __device__ __forceinline__ bool is_nan(T x) { return isnan(x); }
};

// Rust's `f64::from` of an exponent, for the power lines.
struct f64 {
    static __device__ __forceinline__ double from(long long n) { return (double)n; }
};
