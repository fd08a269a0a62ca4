//! Keeping the CPU's vector state clean after faer's kernels.
//!
//! faer's AVX kernels return with the upper halves of the YMM registers still in use
//! (no `vzeroupper`). Code compiled for baseline x86-64 — libm's `tanh`, and every
//! scalar loop of this crate — uses legacy SSE encodings, and on the benchmark machines
//! each of those instructions then pays a state-transition penalty: a `tanh` measured
//! 17 ns in a clean state and 160 ns right after a faer GEMM. Every baseline that mixes
//! faer with scalar code calls [`clear_upper_vector_state`] after each faer call.

/// Clears the upper halves of the AVX registers (`vzeroupper`) when the CPU has AVX; a
/// no-op elsewhere. Cheap (one instruction after a cached feature check).
#[inline]
pub fn clear_upper_vector_state() {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx") {
        // SAFETY: `zeroupper` only requires AVX, which was detected just above.
        unsafe { zeroupper() }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
fn zeroupper() {
    core::arch::x86_64::_mm256_zeroupper();
}

#[cfg(test)]
mod tests {
    #[test]
    fn clearing_is_harmless() {
        let x = 0.5f64;
        super::clear_upper_vector_state();
        assert_eq!(x.tanh(), 0.5f64.tanh());
    }
}
