//! Vectorisable `tanh` and `exp` over `f64`, scalar and over slices, giving the same
//! bits either way.
//!
//! The scalar functions [`tanh()`](fn@tanh) and [`exp()`](fn@exp) are branch-free:
//! every input runs the same straight-line code, the cases chosen by selects, with no
//! call into libm. A loop over them therefore vectorises, and [`tanh_in_place`],
//! [`tanh_into`], [`exp_in_place`] and [`exp_into`] are such loops, compiled for the
//! baseline instruction set and, on x86-64, for AVX2 and AVX-512F too, picked at run
//! time. No version fuses a multiply and an add (nothing here calls `mul_add`, and
//! Rust never contracts `a * b + c`), so every version performs the same IEEE
//! operations in the same order: an element of a slice gets exactly the bits the scalar
//! function gives it, and the same bits on every x86-64 CPU (and on every target whose
//! `f64` arithmetic is plain IEEE binary64, which excludes only x87-based 32-bit x86).
//! That is what lets a network evaluated point by point with [`tanh()`](fn@tanh) and
//! one evaluated in batches with [`tanh_in_place`] agree bit for bit.
//!
//! # Accuracy
//!
//! Measured against a double-double reference (about 100 bits) by this module's tests:
//! a logarithmic sweep of `|x|` from 1e-300 to 710 of both signs, dense linear sweeps
//! where the functions vary, random bit patterns, and a few hundred floats either side
//! of every branch boundary; and by a denser random probe (`dense_random_probe`, 21
//! million points, run with `--ignored`):
//!
//! | function | max error | where it peaks |
//! |----------|-----------|----------------|
//! | `tanh`   | 1.34 ulp  | magnitudes just above 0.625 (the `exp` form); 0.86 ulp below |
//! | `exp`    | 0.78 ulp  | subnormal results, in their grid's ulps; 0.69 ulp elsewhere |
//!
//! (`cargo test -p lifted --lib vmath -- --nocapture --include-ignored` prints them.)
//! libm's `tanh` and `exp` stay what `f64::tanh` and `f64::exp` call everywhere else;
//! these functions are for the loops that need the speed.
//!
//! # Special values
//!
//! * `tanh`: odd, `tanh(−0) = −0`, `tanh(±∞) = ±1`, ±1 from `|x| ≈ 19.06` on (where
//!   `1 − tanh |x|` falls below half an ulp of 1), NaN for NaN.
//! * `exp`: `exp(x)` overflows to `+∞` above `ln(f64::MAX) ≈ 709.78`; below
//!   `ln(f64::MIN_POSITIVE) ≈ −708.40` the result is subnormal, the full-precision
//!   value rounded once onto the subnormal grid (so it stays within an ulp of that
//!   grid), and it reaches 0 below about −745.13; `exp(−∞) = 0`, `exp(+∞) = +∞`,
//!   NaN for NaN.
//!
//! # In derived rules
//!
//! Both functions have forward rules of their own ([`mod@tanh`], [`mod@exp`]): their
//! value is the function above at every reading, their derivatives are those of the
//! derivative table at the primal (`1 − a²`, `−2a(1 − a²)`, … for `tanh`). Called by
//! a path that does not start with `lifted::` (import the module: `use
//! lifted::vmath;`), a call inside an `#[autodiff]` function dispatches to the rule:
//!
//! ```
//! use lifted::{NDual, autodiff, vmath};
//!
//! #[autodiff(forward)]
//! fn unit(x: f64, w: f64) -> f64 {
//!     vmath::tanh(w * x) * w
//! }
//!
//! fn main() {
//!     // The primal reading is `vmath::tanh` bit for bit…
//!     assert_eq!(unit::frule::<f64>(0.3, 2.0), vmath::tanh(0.6) * 2.0);
//!     // …and so is every other reading's value; the derivative is w²(1 − tanh² wx).
//!     let d = unit::frule(NDual::<f64, 1>::variable(0.3, 0), NDual::constant(2.0));
//!     assert_eq!(d.value(), vmath::tanh(0.6) * 2.0);
//!     assert!((d.partial(0) - 4.0 * (1.0 - 0.6f64.tanh().powi(2))).abs() < 1e-15);
//! }
//! ```

/// `1.5 · 2⁵²`: adding it to a float of magnitude below 2⁵¹ rounds that float to an
/// integer (ties to even) held in the low bits of the sum's encoding.
const SHIFTER: f64 = 6_755_399_441_055_744.0;

/// `ln 2` in two parts (fdlibm's): the high part has 21 trailing zero bits, so
/// `k · LN2_HI` is exact for every `|k| < 2²¹`.
const LN2_HI: f64 = f64::from_bits(0x3fe6_2e42_fee0_0000);
const LN2_LO: f64 = f64::from_bits(0x3dea_39ef_3579_3c76);

/// Arguments are clamped to `[EXP_MIN, EXP_MAX]` before the reduction: `exp` has
/// overflowed above the upper end and underflowed to 0 below the lower one, and the
/// clamp keeps `k` where both halves of the scale `2^k` are normal.
const EXP_MAX: f64 = 710.0;
const EXP_MIN: f64 = -746.0;

/// Taylor coefficients `1/k!` of `eʳ`, k = 2 … 13: on `|r| ≤ ln 2 / 2` the first
/// omitted term is below 5e-18, a twentieth of an ulp of the result.
const EXP_C: [f64; 12] = [
    1.0 / 2.0,
    1.0 / 6.0,
    1.0 / 24.0,
    1.0 / 120.0,
    1.0 / 720.0,
    1.0 / 5_040.0,
    1.0 / 40_320.0,
    1.0 / 362_880.0,
    1.0 / 3_628_800.0,
    1.0 / 39_916_800.0,
    1.0 / 479_001_600.0,
    1.0 / 6_227_020_800.0,
];

/// `eˣ`, branch-free (see the module docs for its accuracy and special values).
///
/// `x = k ln 2 + r` with `k` the nearest integer to `x / ln 2` (Cody–Waite, `ln 2` in
/// two parts, the rounding error of `r` kept), `eʳ` by its Taylor polynomial with the
/// leading `1 + r` summed exactly, then the scale `2^k` applied as two powers of two so
/// that subnormal results are rounded once.
#[inline(always)]
fn exp_kernel(x: f64) -> f64 {
    // `clamp` passes NaN through (to poison `p` below), where `min`/`max` would not.
    let x = x.clamp(EXP_MIN, EXP_MAX);
    let kf = (x * core::f64::consts::LOG2_E + SHIFTER) - SHIFTER;
    // Exact: `kf · LN2_HI` is exact and close to `x` (Sterbenz).
    let r_hi = x - kf * LN2_HI;
    let r_lo = kf * LN2_LO;
    let r = r_hi - r_lo;
    // What the rounding of `r` lost (Fast2Sum; where `|r_hi| < |r_lo|` both are below
    // 2e-7 and the loss is negligible anyway).
    let r_err = (r_hi - r) - r_lo;
    // h = Σ cₖ rᵏ⁻² by Estrin's scheme: a shorter dependency chain than Horner's, which
    // in the vectorised loops is worth a quarter of the time, and accurate enough for a
    // term that is at most 6 % of the result.
    let c = &EXP_C;
    let r2 = r * r;
    let r4 = r2 * r2;
    let q0 = (c[0] + r * c[1]) + r2 * (c[2] + r * c[3]);
    let q1 = (c[4] + r * c[5]) + r2 * (c[6] + r * c[7]);
    let q2 = (c[8] + r * c[9]) + r2 * (c[10] + r * c[11]);
    let h = (q0 + r4 * q1) + (r4 * r4) * q2;
    // eʳ⁺ᵉ ≈ 1 + r + r² h + e (1 + r).
    let tail = r2 * h + (r_err + r_err * r);
    let one_r = 1.0 + r;
    let one_r_err = (1.0 - one_r) + r;
    let p = one_r + (one_r_err + tail);
    // 2^k = 2^k1 · 2^k2 with k1 = round(k / 2): both halves lie in [−538, 512], normal,
    // so the first product is exact and only the second can round (into the subnormal
    // range) or overflow.
    let t1 = kf * 0.5 + SHIFTER;
    let k1 = t1 - SHIFTER;
    let t2 = (kf - k1) + SHIFTER;
    p * pow2(t1) * pow2(t2)
}

/// `2^k` for `t = k + SHIFTER` with `k` an integer in the normal exponent range: the
/// low bits of `t`'s encoding are `k`, and `k + 1023` shifted into the exponent field
/// is the power. Integer operations only, so the conversion vectorises on every
/// instruction set (AVX2 has no packed `f64 → i64`).
#[inline(always)]
fn pow2(t: f64) -> f64 {
    f64::from_bits(t.to_bits().wrapping_add(1023) << 52)
}

/// Cephes' `tanh` coefficients: `tanh x = x + x³ P(x²) / Q(x²)` on `|x| < 0.625`,
/// `P` highest degree first, `Q` monic.
const TANH_P: [f64; 3] = [
    -9.643_991_794_250_523e-1,
    -9.928_772_310_019_185e1,
    -1.614_687_684_417_084_5e3,
];
const TANH_Q: [f64; 3] = [
    1.128_116_784_916_329_3e2,
    2.235_488_390_601_004_6e3,
    4.844_063_053_251_255e3,
];

/// Below it `tanh` is the odd rational, above it `1 − 2 / (e^{2|x|} + 1)`.
const TANH_SMALL: f64 = 0.625;

/// `tanh x`, branch-free (see the module docs for its accuracy and special values).
///
/// Both forms are computed and the operands of one final division selected, the sign
/// restored last: `|x| + |x|³ P / Q` below [`TANH_SMALL`], where the formula through
/// `exp` would cancel, and `1 + (−2) / (e^{2|x|} + 1)` above, which is 1 once `e^{2|x|}`
/// is large or infinite.
#[inline(always)]
fn tanh_kernel(x: f64) -> f64 {
    let a = x.abs();
    let z = a * a;
    let p = (TANH_P[0] * z + TANH_P[1]) * z + TANH_P[2];
    let q = ((z + TANH_Q[0]) * z + TANH_Q[1]) * z + TANH_Q[2];
    let e = exp_kernel(a + a);
    let small = a < TANH_SMALL;
    let base = if small { a } else { 1.0 };
    let num = if small { (a * z) * p } else { -2.0 };
    let den = if small { q } else { e + 1.0 };
    (base + num / den).copysign(x)
}

/// `tanh x`, within 1.34 ulp, branch-free; what an element of
/// [`tanh_in_place`] gets, bit for bit. See the [module docs](self).
///
/// ```
/// use lifted::vmath;
/// assert_eq!(vmath::tanh(0.0), 0.0);
/// assert!(vmath::tanh(-0.0).is_sign_negative());
/// assert_eq!(vmath::tanh(f64::INFINITY), 1.0);
/// assert!((vmath::tanh(0.5) - 0.5f64.tanh()).abs() <= f64::EPSILON);
/// ```
#[inline]
pub fn tanh(x: f64) -> f64 {
    tanh_kernel(x)
}

/// `eˣ`, within 0.78 ulp, branch-free; what an element of [`exp_in_place`]
/// gets, bit for bit. See the [module docs](self).
///
/// ```
/// use lifted::vmath;
/// assert_eq!(vmath::exp(0.0), 1.0);
/// assert_eq!(vmath::exp(f64::NEG_INFINITY), 0.0);
/// assert_eq!(vmath::exp(710.0), f64::INFINITY);
/// assert!((vmath::exp(1.0) - std::f64::consts::E).abs() <= f64::EPSILON);
/// ```
#[inline]
pub fn exp(x: f64) -> f64 {
    exp_kernel(x)
}

/// `xs[i] ← tanh(xs[i])` for every element, vectorised, each element bit for bit
/// [`tanh()`](fn@tanh).
pub fn tanh_in_place(xs: &mut [f64]) {
    map_in_place::<Tanh>(Isa::best(), xs);
}

/// `dst[i] ← tanh(src[i])` for every element, vectorised, each element bit for bit
/// [`tanh()`](fn@tanh).
///
/// # Panics
///
/// When the slices' lengths differ.
pub fn tanh_into(src: &[f64], dst: &mut [f64]) {
    map_into::<Tanh>(Isa::best(), src, dst);
}

/// `xs[i] ← exp(xs[i])` for every element, vectorised, each element bit for bit
/// [`exp()`](fn@exp).
pub fn exp_in_place(xs: &mut [f64]) {
    map_in_place::<Exp>(Isa::best(), xs);
}

/// `dst[i] ← exp(src[i])` for every element, vectorised, each element bit for bit
/// [`exp()`](fn@exp).
///
/// # Panics
///
/// When the slices' lengths differ.
pub fn exp_into(src: &[f64], dst: &mut [f64]) {
    map_into::<Exp>(Isa::best(), src, dst);
}

/// A function the slice loops apply. A type rather than a closure: its
/// `#[inline(always)]` method is inlined into every loop, the wider ones included,
/// where a closure's call shim is not.
trait Kernel {
    fn apply(x: f64) -> f64;
}

struct Tanh;

impl Kernel for Tanh {
    #[inline(always)]
    fn apply(x: f64) -> f64 {
        tanh_kernel(x)
    }
}

struct Exp;

impl Kernel for Exp {
    #[inline(always)]
    fn apply(x: f64) -> f64 {
        exp_kernel(x)
    }
}

/// An instruction set the slice functions are compiled for. A value other than
/// `Baseline` exists only where the CPU has been found to support it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Isa {
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
    fn best() -> Self {
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
    fn available() -> Vec<Self> {
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
fn map_slice<K: Kernel>(xs: &mut [f64]) {
    for x in xs {
        *x = K::apply(*x);
    }
}

#[inline(always)]
fn map_pairs<K: Kernel>(src: &[f64], dst: &mut [f64]) {
    for (d, &s) in dst.iter_mut().zip(src) {
        *d = K::apply(s);
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    //! The loops compiled with wider vectors. Only the instruction selection differs
    //! from the baseline: the operations, and so the bits, are the same.

    use super::Kernel;

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
fn map_in_place<K: Kernel>(isa: Isa, xs: &mut [f64]) {
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
fn map_into<K: Kernel>(isa: Isa, src: &[f64], dst: &mut [f64]) {
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

/// The highest derivative order the rules of [`mod@tanh`] and [`mod@exp`] supply: a
/// reading of higher order (`Reading::ORDER`) is refused at compile time.
pub const MAX_RULE_ORDER: usize = 15;

/// The forward rule of [`tanh()`](fn@tanh), so that a call `vmath::tanh(x)` inside an
/// `#[autodiff]` function runs at every reading.
///
/// The value is [`tanh()`](fn@tanh) of the primal at every reading (so the primal part
/// of an `NDual`, a `Taylor` or a nested reading has the bits of the primal function);
/// the derivatives `f′ = 1 − a²`, `f″ = −2a f′`, `f‴ = −2f′² − 2a f″` are the
/// derivative table's lines for `tanh` at `a = tanh x`, the same the batched PINN jets
/// apply, and higher ones (Taylor readings beyond order 3) `f⁽ⁿ⁾ = f′ Rₙ(a)` with
/// `R₁ = 1`, `Rₙ₊₁ = −2a Rₙ + (1 − a²) Rₙ′`.
pub mod tanh {
    use super::MAX_RULE_ORDER;
    use crate::Reading;
    use crate::reading::table::lines::tanh as line;

    /// `tanh` at reading `D`: value and derivatives at the primal, composed into every
    /// lane by [`Reading::compose`].
    #[inline]
    pub fn frule<D: Reading<f64>>(x: D) -> D {
        const {
            assert!(
                D::ORDER <= MAX_RULE_ORDER,
                "vmath::tanh's rule supplies derivatives up to order MAX_RULE_ORDER"
            )
        };
        let z = x.primal_scalar();
        let a = super::tanh(z);
        if D::ORDER == 0 {
            return x.compose(&[a]);
        }
        let d1 = line::d1(z, a);
        if D::ORDER == 1 {
            return x.compose(&[a, d1]);
        }
        let d2 = line::d2(z, a, d1);
        if D::ORDER == 2 {
            return x.compose(&[a, d1, d2]);
        }
        let d3 = line::d3(a, d1, d2);
        if D::ORDER == 3 {
            return x.compose(&[a, d1, d2, d3]);
        }
        let mut d = [0.0; MAX_RULE_ORDER + 1];
        d[..4].copy_from_slice(&[a, d1, d2, d3]);
        higher(a, d1, &mut d[..=D::ORDER]);
        x.compose(&d[..=D::ORDER])
    }

    /// `d[n] = f′ Rₙ(a)` for `n ≥ 4`, the coefficients of `Rₙ` (degree `n − 1`, integers)
    /// by `Rₙ₊₁[j] = (j + 1)(Rₙ[j + 1] − Rₙ[j − 1])`. Factoring `f′` out keeps the
    /// derivatives' absolute error proportional to them where `a` nears ±1.
    fn higher(a: f64, d1: f64, d: &mut [f64]) {
        let mut r = [0.0; MAX_RULE_ORDER + 1];
        let mut next = [0.0; MAX_RULE_ORDER + 1];
        r[0] = 1.0;
        for n in 1..d.len() - 1 {
            // `r` holds Rₙ (degree n − 1); make Rₙ₊₁ (degree n).
            for j in 0..=n {
                let above = if j < n { r[j + 1] } else { 0.0 };
                let below = if j > 0 { r[j - 1] } else { 0.0 };
                next[j] = (j + 1) as f64 * (above - below);
            }
            r[..=n].copy_from_slice(&next[..=n]);
            if n + 1 >= 4 {
                let rn = r[..=n].iter().rev().fold(0.0, |acc, &c| acc * a + c);
                d[n + 1] = d1 * rn;
            }
        }
    }
}

/// The forward rule of [`exp()`](fn@exp), so that a call `vmath::exp(x)` inside an
/// `#[autodiff]` function runs at every reading: the value is [`exp()`](fn@exp) of the
/// primal, and so is every derivative.
pub mod exp {
    use super::MAX_RULE_ORDER;
    use crate::Reading;

    /// `exp` at reading `D`: value and derivatives at the primal, composed into every
    /// lane by [`Reading::compose`].
    #[inline]
    pub fn frule<D: Reading<f64>>(x: D) -> D {
        const {
            assert!(
                D::ORDER <= MAX_RULE_ORDER,
                "vmath::exp's rule supplies derivatives up to order MAX_RULE_ORDER"
            )
        };
        let e = super::exp(x.primal_scalar());
        x.compose(&[e; MAX_RULE_ORDER + 1][..=D::ORDER])
    }
}

#[cfg(test)]
mod tests {
    use super::{
        EXP_MAX, EXP_MIN, Exp, Isa, Kernel, TANH_SMALL, Tanh, exp, exp_in_place, exp_into,
        map_in_place, map_into, tanh, tanh_in_place, tanh_into,
    };
    use crate::testing::SplitMix64;

    /// A double-double `hi + lo`, `|lo| ≤ ulp(hi) / 2`: about 106 bits, the reference
    /// the functions are measured against.
    #[derive(Clone, Copy, Debug)]
    struct Dd {
        hi: f64,
        lo: f64,
    }

    impl Dd {
        const fn new(hi: f64) -> Self {
            Self { hi, lo: 0.0 }
        }
        fn neg(self) -> Self {
            Self {
                hi: -self.hi,
                lo: -self.lo,
            }
        }
        fn scale(self, n: i32) -> Self {
            Self {
                hi: ldexp(self.hi, n),
                lo: ldexp(self.lo, n),
            }
        }
    }

    fn two_sum(a: f64, b: f64) -> Dd {
        let s = a + b;
        let bb = s - a;
        Dd {
            hi: s,
            lo: (a - (s - bb)) + (b - bb),
        }
    }

    fn quick_two_sum(a: f64, b: f64) -> Dd {
        let s = a + b;
        Dd {
            hi: s,
            lo: b - (s - a),
        }
    }

    /// Dekker's split (no fused multiply-add, which may be emulated slowly).
    fn split(a: f64) -> (f64, f64) {
        let c = 134_217_729.0 * a;
        let hi = c - (c - a);
        (hi, a - hi)
    }

    fn two_prod(a: f64, b: f64) -> Dd {
        let p = a * b;
        let ((ah, al), (bh, bl)) = (split(a), split(b));
        Dd {
            hi: p,
            lo: ((ah * bh - p) + ah * bl + al * bh) + al * bl,
        }
    }

    fn add(x: Dd, y: Dd) -> Dd {
        let s = two_sum(x.hi, y.hi);
        let t = two_sum(x.lo, y.lo);
        let r = quick_two_sum(s.hi, s.lo + t.hi);
        quick_two_sum(r.hi, r.lo + t.lo)
    }

    fn mul(x: Dd, y: Dd) -> Dd {
        let p = two_prod(x.hi, y.hi);
        quick_two_sum(p.hi, p.lo + (x.hi * y.lo + x.lo * y.hi))
    }

    fn div(x: Dd, y: Dd) -> Dd {
        let q1 = x.hi / y.hi;
        let r = add(x, mul(y, Dd::new(q1)).neg());
        let q2 = r.hi / y.hi;
        let r = add(r, mul(y, Dd::new(q2)).neg());
        let q3 = r.hi / y.hi;
        add(quick_two_sum(q1, q2), Dd::new(q3))
    }

    /// `2ⁿ` for a normal exponent.
    fn pow2i(n: i32) -> f64 {
        assert!((-1022..=1023).contains(&n), "2^{n}");
        f64::from_bits(((n + 1023) as u64) << 52)
    }

    /// `x · 2ⁿ` in two exact steps, for `|n| ≤ 2044`.
    fn ldexp(x: f64, n: i32) -> f64 {
        let h = n / 2;
        x * pow2i(h) * pow2i(n - h)
    }

    /// The binade of `hi + lo` (a normal `hi`): `⌊log₂ |hi + lo|⌋`.
    fn binade(d: Dd) -> i32 {
        let bits = d.hi.abs().to_bits();
        let e = (bits >> 52) as i32 - 1023;
        let power_of_two = bits & ((1 << 52) - 1) == 0;
        if power_of_two && d.lo != 0.0 && d.lo.is_sign_negative() != d.hi.is_sign_negative() {
            e - 1
        } else {
            e
        }
    }

    /// The spacing of the floats in binade `e` (the subnormal spacing below the
    /// normal range).
    fn ulp_of_binade(e: i32) -> f64 {
        let u = e - 52;
        if u >= -1022 {
            pow2i(u)
        } else {
            f64::from_bits(1 << (u.max(-1074) + 1074))
        }
    }

    const LN2: Dd = Dd {
        hi: core::f64::consts::LN_2,
        lo: 2.319_046_813_846_299_6e-17,
    };

    /// `eˣ = m · 2ᵏ` in double-double, `m` in `[0.7, 1.5)`: `x = k ln 2 + r`, then
    /// `e^{r/1024}` by its Taylor series and ten squarings.
    fn exp_ref(x: f64) -> (Dd, i32) {
        let k = (x / LN2.hi).round();
        let r = add(Dd::new(x), mul(LN2, Dd::new(k)).neg());
        let s = r.scale(-10);
        let mut p = Dd::new(1.0);
        for n in (1..=12).rev() {
            p = add(Dd::new(1.0), div(mul(s, p), Dd::new(f64::from(n))));
        }
        for _ in 0..10 {
            p = mul(p, p);
        }
        (p, k as i32)
    }

    /// `tanh x` in double-double: its Taylor series near 0, `(1 − e^{−2|x|}) /
    /// (1 + e^{−2|x|})` up to 40, `1 − 2e^{−2|x|}` beyond (far below an ulp of 1).
    fn tanh_ref(x: f64) -> Dd {
        let a = x.abs();
        let t = if a < pow2i(-12) {
            let y = two_prod(a, a);
            let c = |n: f64, d: f64| div(Dd::new(n), Dd::new(d));
            let mut p = c(62.0, 2835.0);
            for (n, d) in [(-17.0, 315.0), (2.0, 15.0), (-1.0, 3.0), (1.0, 1.0)] {
                p = add(c(n, d), mul(y, p));
            }
            mul(Dd::new(a), p)
        } else if a <= 40.0 {
            let (m, k) = exp_ref(-2.0 * a);
            let e = m.scale(k);
            div(add(Dd::new(1.0), e.neg()), add(Dd::new(1.0), e))
        } else {
            Dd {
                hi: 1.0,
                lo: -2.0 * (-2.0 * a).exp(),
            }
        };
        if x.is_sign_negative() { t.neg() } else { t }
    }

    /// The error of `got` as `tanh x`, in ulps of the exact value.
    fn tanh_error(x: f64, got: f64) -> f64 {
        let want = tanh_ref(x);
        let ulp = if want.hi.abs() < f64::MIN_POSITIVE {
            f64::from_bits(1)
        } else {
            ulp_of_binade(binade(want))
        };
        ((got - want.hi) - want.lo).abs() / ulp
    }

    /// The error of `got` as `eˣ`, in ulps of the exact value (an ulp of the subnormal
    /// grid below `f64::MIN_POSITIVE`, and `+∞` counted as `2¹⁰²⁴`), computed on the
    /// reference's scale so that nothing over- or underflows.
    fn exp_error(x: f64, got: f64) -> f64 {
        if x > EXP_MAX {
            return if got == f64::INFINITY {
                0.0
            } else {
                f64::INFINITY
            };
        }
        if x < EXP_MIN {
            // eˣ < 2⁻¹⁰⁷⁶, a quarter of the smallest subnormal: 0 is within that.
            return got / f64::from_bits(1) + 0.25;
        }
        let (m, k) = exp_ref(x);
        let e = binade(m) + k;
        if e >= 1024 {
            return if got == f64::INFINITY {
                0.0
            } else {
                f64::INFINITY
            };
        }
        let ulp_exp = e.max(-1022) - 52;
        let got = if got == f64::INFINITY {
            ldexp(1.0, 1024 - k)
        } else {
            ldexp(got, -k)
        };
        ((got - m.hi) - m.lo).abs() / ldexp(1.0, ulp_exp - k)
    }

    /// The largest error over `xs` and where it is.
    #[derive(Clone, Copy, Debug)]
    struct Worst {
        ulps: f64,
        at: f64,
    }

    fn worst(xs: &[f64], f: fn(f64) -> f64, error: fn(f64, f64) -> f64) -> Worst {
        let mut w = Worst {
            ulps: 0.0,
            at: f64::NAN,
        };
        for &x in xs {
            let e = error(x, f(x));
            assert!(!e.is_nan(), "error at {x:e} is NaN");
            if e > w.ulps {
                w = Worst { ulps: e, at: x };
            }
        }
        w
    }

    /// `n` magnitudes log-spaced from 1e-300 to 710, and their negatives.
    fn log_sweep(n: usize) -> Vec<f64> {
        let (lo, hi) = (1e-300f64.ln(), 710f64.ln());
        let mut xs: Vec<f64> = (0..=n)
            .map(|i| (lo + (hi - lo) * i as f64 / n as f64).exp())
            .collect();
        xs.extend(xs.clone().iter().map(|x| -x));
        xs
    }

    fn linear_sweep(lo: f64, hi: f64, n: usize) -> Vec<f64> {
        (0..=n)
            .map(|i| lo + (hi - lo) * i as f64 / n as f64)
            .collect()
    }

    /// Random bit patterns (NaNs left out): all of them, and with `|x|` in
    /// `[2^lo, 2^hi)`.
    fn random_bits(n: usize, seed: u64, exponents: Option<(i32, i32)>) -> Vec<f64> {
        let mut rng = SplitMix64::new(seed);
        let mut xs = Vec::with_capacity(n);
        while xs.len() < n {
            let bits = rng.next_u64();
            let x = match exponents {
                None => f64::from_bits(bits),
                Some((lo, hi)) => {
                    let span = (hi - lo) as u64;
                    let e = (lo + 1023) as u64 + (bits >> 53) % span;
                    f64::from_bits((bits & (1 << 63)) | (e << 52) | (bits & ((1 << 52) - 1)))
                }
            };
            if !x.is_nan() {
                xs.push(x);
            }
        }
        xs
    }

    /// `steps` representable values either side of every point.
    fn around(points: &[f64], steps: usize) -> Vec<f64> {
        let mut xs = Vec::new();
        for &p in points {
            let (mut up, mut down) = (p, p);
            xs.push(p);
            for _ in 0..steps {
                up = up.next_up();
                down = down.next_down();
                xs.extend([up, down]);
            }
        }
        xs
    }

    /// Where `tanh` changes form or its terms saturate: the small/large switch, where
    /// the result reaches 1, where `e^{2|x|}` overflows and is clamped.
    fn tanh_boundaries() -> Vec<f64> {
        let points = [
            TANH_SMALL,
            19.0,
            19.06,
            19.1,
            354.8,
            355.0,
            0.5 * EXP_MAX,
            1e-154,
            1.5e-8,
        ];
        let mut xs = around(&points, 300);
        xs.extend(xs.clone().iter().map(|x| -x));
        xs
    }

    /// Where `exp` changes regime: overflow, the start of the subnormal range, the
    /// last nonzero result, the clamps, and the reduction's rounding points
    /// `(k + ½) ln 2`.
    fn exp_boundaries() -> Vec<f64> {
        let mut points = vec![
            709.782_712_893_384,
            -708.396_418_532_264_1,
            -745.133_219_101_941_1,
            EXP_MAX,
            EXP_MIN,
            0.0,
        ];
        for k in [-1075, -1000, -500, -3, -2, -1, 0, 1, 2, 3, 500, 1000, 1023] {
            points.push((f64::from(k) + 0.5) * core::f64::consts::LN_2);
        }
        around(&points, 300)
    }

    fn report(name: &str, set: &str, w: Worst) {
        println!(
            "vmath::{name}: max {:.3} ulp over {set} (at {:e})",
            w.ulps, w.at
        );
    }

    /// The whole-range sweeps, random patterns and boundaries of one function.
    fn measure(
        name: &str,
        f: fn(f64) -> f64,
        error: fn(f64, f64) -> f64,
        sets: &[(&str, Vec<f64>)],
    ) -> f64 {
        let mut max: f64 = 0.0;
        for (set, xs) in sets {
            let w = worst(xs, f, error);
            report(name, set, w);
            assert!(w.ulps <= 2.0, "vmath::{name}: {} ulp at {:e}", w.ulps, w.at);
            max = max.max(w.ulps);
        }
        max
    }

    #[test]
    fn tanh_is_within_two_ulps() {
        let sets = [
            ("the log sweep of |x| in [1e-300, 710]", log_sweep(200_000)),
            (
                "a linear sweep of [-20, 20]",
                linear_sweep(-20.0, 20.0, 400_001),
            ),
            ("random bit patterns", random_bits(100_000, 1, None)),
            (
                "random |x| in [2^-30, 2^6)",
                random_bits(200_000, 2, Some((-30, 6))),
            ),
            ("the branch boundaries", tanh_boundaries()),
        ];
        let max = measure("tanh", tanh, tanh_error, &sets);
        println!("vmath::tanh: max {max:.3} ulp overall");
    }

    #[test]
    fn exp_is_within_two_ulps() {
        let sets = [
            ("the log sweep of |x| in [1e-300, 710]", log_sweep(200_000)),
            (
                "a linear sweep of [-760, 715]",
                linear_sweep(-760.0, 715.0, 400_001),
            ),
            ("random bit patterns", random_bits(100_000, 3, None)),
            (
                "random |x| in [2^-30, 2^10)",
                random_bits(200_000, 4, Some((-30, 10))),
            ),
            ("the range boundaries", exp_boundaries()),
        ];
        let max = measure("exp", exp, exp_error, &sets);
        println!("vmath::exp: max {max:.3} ulp overall");
    }

    #[test]
    fn the_reference_agrees_with_libm() {
        // libm is within an ulp or two; a reference that disagreed would be wrong.
        let xs = [log_sweep(5_000), linear_sweep(-20.0, 20.0, 20_001)].concat();
        let t = worst(&xs, f64::tanh, tanh_error);
        let xs = [log_sweep(5_000), linear_sweep(-745.0, 709.0, 20_001)].concat();
        let e = worst(&xs, f64::exp, exp_error);
        println!("libm: tanh {:.3} ulp, exp {:.3} ulp", t.ulps, e.ulps);
        assert!(t.ulps <= 3.0 && e.ulps <= 3.0, "{t:?} {e:?}");
        // And values correctly rounded from a 300-bit evaluation: within half an ulp.
        assert_eq!(exp_error(0.0, 1.0), 0.0);
        assert_eq!(tanh_error(0.0, 0.0), 0.0);
        for (x, y) in [
            (0.5, 0.462_117_157_260_009_74),
            (1e-5, 9.999_999_999_666_668e-6),
            (0.7, 0.604_367_777_117_163_5),
            (3.0, 0.995_054_753_686_730_5),
            (-12.5, -0.999_999_999_972_224_1),
        ] {
            assert!(tanh_error(x, y) <= 0.5, "tanh {x}: {}", tanh_error(x, y));
        }
        for (x, y) in [
            (1.0, core::f64::consts::E),
            (0.1, 1.105_170_918_075_647_7),
            (-700.0, 9.859_676_543_759_77e-305),
            (700.0, 1.014_232_054_735_004_5e304),
            (-740.0, 4.2e-322),
        ] {
            assert!(exp_error(x, y) <= 0.5, "exp {x}: {}", exp_error(x, y));
        }
    }

    /// Three million random points in each interval (a minute of testing time), for
    /// the maxima the module docs record.
    #[test]
    #[ignore = "a minute long; run with --ignored"]
    fn dense_random_probe() {
        let mut rng = SplitMix64::new(5);
        let n = 3_000_000;
        let mut probe = |name, f, error, ranges: &[(f64, f64)]| {
            for &(lo, hi) in ranges {
                let xs: Vec<f64> = (0..n).map(|_| rng.uniform(lo, hi)).collect();
                let w = worst(&xs, f, error);
                report(name, &format!("{n} random points in [{lo}, {hi}]"), w);
                assert!(w.ulps <= 2.0, "vmath::{name}: {} ulp at {:e}", w.ulps, w.at);
            }
        };
        let ranges = [(0.0, 0.625), (0.625, 0.8), (0.8, 1.5), (1.5, 20.0)];
        probe(
            "tanh",
            tanh as fn(f64) -> f64,
            tanh_error as fn(f64, f64) -> f64,
            &ranges,
        );
        let ranges = [(-746.0, -700.0), (-5.0, 5.0), (-700.0, 710.0)];
        probe("exp", exp, exp_error, &ranges);
    }

    #[test]
    fn special_values() {
        assert_eq!(tanh(0.0).to_bits(), 0.0f64.to_bits());
        assert_eq!(tanh(-0.0).to_bits(), (-0.0f64).to_bits());
        assert_eq!(tanh(f64::INFINITY), 1.0);
        assert_eq!(tanh(f64::NEG_INFINITY), -1.0);
        assert!(tanh(f64::NAN).is_nan());
        assert_eq!(tanh(19.1), 1.0);
        assert_eq!(tanh(-19.1), -1.0);
        assert_eq!(tanh(f64::MAX), 1.0);
        assert!(tanh(19.0) < 1.0);
        for x in [f64::from_bits(1), 1e-310, f64::MIN_POSITIVE, 1e-200] {
            assert_eq!(tanh(x), x);
            assert_eq!(tanh(-x), -x);
        }
        assert_eq!(exp(0.0), 1.0);
        assert_eq!(exp(-0.0), 1.0);
        assert_eq!(exp(f64::INFINITY), f64::INFINITY);
        assert_eq!(exp(f64::NEG_INFINITY).to_bits(), 0);
        assert!(exp(f64::NAN).is_nan());
        assert_eq!(exp(709.79), f64::INFINITY);
        assert_eq!(exp(f64::MAX), f64::INFINITY);
        assert!(exp(709.78).is_finite());
        assert!(exp(-708.5) < f64::MIN_POSITIVE && exp(-708.5) > 0.0);
        assert_eq!(exp(-745.14), 0.0);
        assert_eq!(exp(-745.13), f64::from_bits(1));
        assert_eq!(exp(f64::MIN), 0.0);
        assert_eq!(exp(1e-300), 1.0);
    }

    /// Inputs for the bitwise comparisons: random values where the functions vary,
    /// across the branch points and the special values.
    fn mixed(n: usize, seed: u64) -> Vec<f64> {
        let specials = [
            0.0,
            -0.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            TANH_SMALL,
            -TANH_SMALL,
            f64::from_bits(1),
            710.0,
            -746.0,
            -745.0,
            709.8,
        ];
        let mut rng = SplitMix64::new(seed);
        (0..n)
            .map(|i| match i % 4 {
                0 => specials[(rng.next_u64() % specials.len() as u64) as usize],
                1 => rng.uniform(-1.0, 1.0),
                2 => rng.uniform(-30.0, 30.0),
                _ => rng.uniform(-800.0, 800.0),
            })
            .collect()
    }

    /// Every instruction set's loops, in place and into a second buffer, against the
    /// scalar function `f`, bit for bit.
    fn check_isas<K: Kernel>(name: &str, src: &[f64], f: fn(f64) -> f64) {
        let want: Vec<u64> = src.iter().map(|&x| f(x).to_bits()).collect();
        let bits = |ys: &[f64]| ys.iter().map(|y| y.to_bits()).collect::<Vec<u64>>();
        for isa in Isa::available() {
            let mut xs = src.to_vec();
            map_in_place::<K>(isa, &mut xs);
            assert!(
                bits(&xs) == want,
                "{name} in place, {isa:?}, length {}",
                src.len()
            );
            let mut dst = vec![0.0; src.len()];
            map_into::<K>(isa, src, &mut dst);
            assert!(
                bits(&dst) == want,
                "{name} into, {isa:?}, length {}",
                src.len()
            );
        }
    }

    #[test]
    fn slices_equal_the_scalar_functions_bit_for_bit() {
        println!("vmath: comparing {:?}", Isa::available());
        for len in 0..67 {
            for offset in 0..4 {
                let src = mixed(len + offset, (len * 4 + offset) as u64);
                let src = &src[offset..];
                check_isas::<Tanh>("tanh", src, tanh);
                check_isas::<Exp>("exp", src, exp);
                // The public entry points, on whatever this CPU picks.
                let same = |ys: &[f64], f: fn(f64) -> f64| {
                    ys.iter()
                        .zip(src)
                        .all(|(y, &x)| y.to_bits() == f(x).to_bits())
                };
                let (mut xs, mut dst) = (src.to_vec(), vec![0.0; len]);
                tanh_in_place(&mut xs);
                tanh_into(src, &mut dst);
                assert!(same(&xs, tanh) && same(&dst, tanh), "tanh, length {len}");
                let (mut xs, mut dst) = (src.to_vec(), vec![0.0; len]);
                exp_in_place(&mut xs);
                exp_into(src, &mut dst);
                assert!(same(&xs, exp) && same(&dst, exp), "exp, length {len}");
            }
        }
    }

    #[test]
    fn every_instruction_set_gives_the_same_bits_on_many_values() {
        let src = [
            mixed(50_000, 99),
            random_bits(50_000, 98, None),
            random_bits(50_000, 97, Some((-60, 10))),
        ]
        .concat();
        check_isas::<Tanh>("tanh", &src, tanh);
        check_isas::<Exp>("exp", &src, exp);
    }

    #[test]
    #[should_panic(expected = "source of 3 elements, destination of 2")]
    fn into_needs_equal_lengths() {
        tanh_into(&[0.0; 3], &mut [0.0; 2]);
    }

    mod rules {
        use crate::testing::{CheckOptions, check_rule};
        use crate::{NDual, Taylor, autodiff, derivatives_1d, vmath};

        #[autodiff(forward, crate = crate)]
        fn unit(x: f64, w: f64) -> f64 {
            crate::vmath::tanh(w * x) * w + crate::vmath::exp(-x * x)
        }

        #[autodiff(forward, crate = crate)]
        fn vtanh(x: f64) -> f64 {
            crate::vmath::tanh(x)
        }

        #[autodiff(forward, crate = crate)]
        fn libm_tanh(x: f64) -> f64 {
            x.tanh()
        }

        #[autodiff(forward, crate = crate)]
        fn vexp(x: f64) -> f64 {
            crate::vmath::exp(x)
        }

        #[test]
        fn the_rules_pass_check_rule() {
            let options = CheckOptions::new().widths(&[1, 2, 3, 8]);
            for point in [(0.4, -1.5), (-0.2, 3.0), (1.1, 0.7)] {
                let report = check_rule(unit::Rule, point, &options).expect("the check runs");
                assert!(report.passed(), "{report}");
            }
        }

        #[test]
        fn every_reading_has_the_primal_bits() {
            for x in [-3.0, -0.3, 0.0, 0.2, 0.625, 1.7, 25.0] {
                let a = vmath::tanh(x);
                assert_eq!(vtanh::frule::<f64>(x).to_bits(), a.to_bits());
                let d = vtanh::frule(NDual::<f64, 3>::variable(x, 1));
                assert_eq!(d.value().to_bits(), a.to_bits());
                assert_eq!(d.partials(), &[0.0, 1.0 - a * a, 0.0]);
                type D2 = NDual<NDual<f64, 1>, 1>;
                let dd =
                    vtanh::frule::<D2>(NDual::new(NDual::variable(x, 0), [NDual::new(1.0, [0.0])]));
                assert_eq!(dd.value().value().to_bits(), a.to_bits());
                let t = vtanh::frule(Taylor::<f64, 5>::variable(x, 1.0));
                assert_eq!(t.value().to_bits(), a.to_bits());
                assert_eq!(
                    vexp::frule(NDual::<f64, 1>::variable(x, 0)).value(),
                    vmath::exp(x)
                );
            }
        }

        #[test]
        fn high_orders_match_the_table_reading() {
            // Up to the drivers' highest Taylor order, against `f64::tanh` at the Taylor
            // reading (its own series recurrences).
            for x in [-2.5, -0.7, 0.0, 0.3, 1.2, 4.0] {
                let got = derivatives_1d(vtanh::Rule, x, 1.0, 8).unwrap();
                let want = derivatives_1d(libm_tanh::Rule, x, 1.0, 8).unwrap();
                assert_eq!(got[0].to_bits(), vmath::tanh(x).to_bits());
                for (n, (g, w)) in got.iter().zip(&want).enumerate() {
                    assert!(
                        (g - w).abs() <= 1e-12 * w.abs().max(1.0),
                        "d{n} tanh at {x}: {g} vs {w}"
                    );
                }
                let e = derivatives_1d(vexp::Rule, x, 1.0, 8).unwrap();
                let v = vmath::exp(x);
                assert_eq!(e[0].to_bits(), v.to_bits());
                assert!(e.iter().all(|&d| (d - v).abs() <= 1e-14 * v), "{e:?}");
            }
        }
    }
}
