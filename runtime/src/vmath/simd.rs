//! The slice loops, compiled for the baseline instruction set and, on x86-64, for
//! AVX2 and AVX-512F, one chosen at run time.

use super::kernels::{exp_kernel, tanh_kernel};

/// A function the slice loops apply. A type rather than a closure: its
/// `#[inline(always)]` method is inlined into every loop, the wider ones included,
/// where a closure's call shim is not.
pub(super) trait Kernel {
    fn apply(x: f64) -> f64;
}

pub(super) struct Tanh;

impl Kernel for Tanh {
    #[inline(always)]
    fn apply(x: f64) -> f64 {
        tanh_kernel(x)
    }
}

pub(super) struct Exp;

impl Kernel for Exp {
    #[inline(always)]
    fn apply(x: f64) -> f64 {
        exp_kernel(x)
    }
}

/// A loop nest to compile for each instruction set, run by [`dispatch`]: elementwise
/// work elsewhere in the crate (the `tanh` jet rule of the batched PINN passes) that
/// the baseline target would compile for SSE2 alone.
pub(crate) trait Body {
    /// Runs the loops; implementations are `#[inline(always)]`, so that each version
    /// of [`dispatch`] compiles them with its own instruction set.
    fn run(self);
}

/// An instruction set the slice functions are compiled for. A value other than
/// `Baseline` exists only where the CPU has been found to support it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Isa {
    /// The target's own features (SSE2 on x86-64).
    Baseline,
    #[cfg(target_arch = "x86_64")]
    Avx2,
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

impl Isa {
    /// The widest one this CPU runs (the detection is cached by `std`).
    #[inline]
    pub(crate) fn best() -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f") {
                return Self::Avx512;
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                return Self::Avx2;
            }
        }
        Self::Baseline
    }

    /// Every one this CPU runs, for the tests that compare them.
    #[cfg(test)]
    pub(crate) fn available() -> Vec<Self> {
        #[allow(unused_mut)]
        let mut all = vec![Self::Baseline];
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                all.push(Self::Avx2);
            }
            if std::arch::is_x86_feature_detected!("avx512f") {
                all.push(Self::Avx512);
            }
        }
        all
    }
}

/// The loops every version shares.
#[inline(always)]
pub(super) fn map_slice<K: Kernel>(xs: &mut [f64]) {
    for x in xs {
        *x = K::apply(*x);
    }
}

#[inline(always)]
pub(super) fn map_pairs<K: Kernel>(src: &[f64], dst: &mut [f64]) {
    for (d, &s) in dst.iter_mut().zip(src) {
        *d = K::apply(s);
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    //! The loops compiled with wider vectors. Only the instruction selection differs
    //! from the baseline: the operations, and so the bits, are the same.

    use super::{Body, Kernel};

    #[target_feature(enable = "avx2")]
    pub(super) fn run_avx2<B: Body>(body: B) {
        body.run();
    }

    #[target_feature(enable = "avx512f")]
    pub(super) fn run_avx512<B: Body>(body: B) {
        body.run();
    }

    #[target_feature(enable = "avx2")]
    pub(super) fn map_slice_avx2<K: Kernel>(xs: &mut [f64]) {
        super::map_slice::<K>(xs);
    }

    #[target_feature(enable = "avx2")]
    pub(super) fn map_pairs_avx2<K: Kernel>(src: &[f64], dst: &mut [f64]) {
        super::map_pairs::<K>(src, dst);
    }

    #[target_feature(enable = "avx512f")]
    pub(super) fn map_slice_avx512<K: Kernel>(xs: &mut [f64]) {
        super::map_slice::<K>(xs);
    }

    #[target_feature(enable = "avx512f")]
    pub(super) fn map_pairs_avx512<K: Kernel>(src: &[f64], dst: &mut [f64]) {
        super::map_pairs::<K>(src, dst);
    }
}

/// `K` on every element, with the loop of `isa`.
#[allow(unsafe_code)]
#[inline]
pub(super) fn map_in_place<K: Kernel>(isa: Isa, xs: &mut [f64]) {
    match isa {
        Isa::Baseline => map_slice::<K>(xs),
        // SAFETY: an `Isa::Avx2` is only made where the CPU reports AVX2.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => unsafe { x86::map_slice_avx2::<K>(xs) },
        // SAFETY: an `Isa::Avx512` is only made where the CPU reports AVX-512F.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => unsafe { x86::map_slice_avx512::<K>(xs) },
    }
}

/// `K` from every element of `src` into `dst`, with the loop of `isa`.
#[allow(unsafe_code)]
#[inline]
pub(super) fn map_into<K: Kernel>(isa: Isa, src: &[f64], dst: &mut [f64]) {
    assert_eq!(
        src.len(),
        dst.len(),
        "vmath: source of {} elements, destination of {}",
        src.len(),
        dst.len()
    );
    match isa {
        Isa::Baseline => map_pairs::<K>(src, dst),
        // SAFETY: an `Isa::Avx2` is only made where the CPU reports AVX2.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => unsafe { x86::map_pairs_avx2::<K>(src, dst) },
        // SAFETY: an `Isa::Avx512` is only made where the CPU reports AVX-512F.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => unsafe { x86::map_pairs_avx512::<K>(src, dst) },
    }
}

/// `body` with the loops of `isa`.
#[allow(unsafe_code)]
#[inline]
pub(crate) fn dispatch<B: Body>(isa: Isa, body: B) {
    match isa {
        Isa::Baseline => body.run(),
        // SAFETY: an `Isa::Avx2` is only made where the CPU reports AVX2.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => unsafe { x86::run_avx2(body) },
        // SAFETY: an `Isa::Avx512` is only made where the CPU reports AVX-512F.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => unsafe { x86::run_avx512(body) },
    }
}
