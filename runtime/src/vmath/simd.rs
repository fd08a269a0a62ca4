//! The slice loops, compiled for the baseline instruction set and, on x86-64, for
//! AVX2 and AVX-512F, one chosen at run time.

use core::marker::PhantomData;

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

/// A loop nest to compile for each instruction set, run by [`dispatch`]: the slice
/// loops here, and elementwise work elsewhere in the crate (the `tanh` jet rule of the
/// batched PINN passes) that the baseline target would compile for SSE2 alone.
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

/// `K` on every element of a slice, in place.
struct MapSlice<'a, K>(&'a mut [f64], PhantomData<K>);

impl<K: Kernel> Body for MapSlice<'_, K> {
    #[inline(always)]
    fn run(self) {
        for x in self.0 {
            *x = K::apply(*x);
        }
    }
}

/// `K` from every element of one slice into another of the same length.
struct MapPairs<'a, K>(&'a [f64], &'a mut [f64], PhantomData<K>);

impl<K: Kernel> Body for MapPairs<'_, K> {
    #[inline(always)]
    fn run(self) {
        for (d, &s) in self.1.iter_mut().zip(self.0) {
            *d = K::apply(s);
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    //! The loops compiled with wider vectors. Only the instruction selection differs
    //! from the baseline: the operations, and so the bits, are the same.

    use super::Body;

    #[target_feature(enable = "avx2")]
    pub(super) fn run_avx2<B: Body>(body: B) {
        body.run();
    }

    #[target_feature(enable = "avx512f")]
    pub(super) fn run_avx512<B: Body>(body: B) {
        body.run();
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

/// `K` on every element, with the loop of `isa`.
#[inline]
pub(super) fn map_in_place<K: Kernel>(isa: Isa, xs: &mut [f64]) {
    dispatch(isa, MapSlice::<K>(xs, PhantomData));
}

/// `K` from every element of `src` into `dst`, with the loop of `isa`.
#[inline]
pub(super) fn map_into<K: Kernel>(isa: Isa, src: &[f64], dst: &mut [f64]) {
    assert_eq!(
        src.len(),
        dst.len(),
        "vmath: source of {} elements, destination of {}",
        src.len(),
        dst.len()
    );
    dispatch(isa, MapPairs::<K>(src, dst, PhantomData));
}
