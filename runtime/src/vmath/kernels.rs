//! The scalar kernels: the range reductions, polynomials and selects of `exp` and
//! `tanh`, straight-line code that every loop version inlines.

/// `1.5 · 2⁵²`: adding it to a float of magnitude below 2⁵¹ rounds that float to an
/// integer (ties to even) held in the low bits of the sum's encoding.
pub(super) const SHIFTER: f64 = 6_755_399_441_055_744.0;

/// `ln 2` in two parts (fdlibm's): the high part has 21 trailing zero bits, so
/// `k · LN2_HI` is exact for every `|k| < 2²¹`.
pub(super) const LN2_HI: f64 = f64::from_bits(0x3fe6_2e42_fee0_0000);
pub(super) const LN2_LO: f64 = f64::from_bits(0x3dea_39ef_3579_3c76);

/// Arguments are clamped to `[EXP_MIN, EXP_MAX]` before the reduction: `exp` has
/// overflowed above the upper end and underflowed to 0 below the lower one, and the
/// clamp keeps `k` where both halves of the scale `2^k` are normal.
pub(super) const EXP_MAX: f64 = 710.0;
pub(super) const EXP_MIN: f64 = -746.0;

/// Taylor coefficients `1/k!` of `eʳ`, k = 2 … 13: on `|r| ≤ ln 2 / 2` the first
/// omitted term is below 5e-18, a twentieth of an ulp of the result.
pub(super) const EXP_C: [f64; 12] = [
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
pub(super) fn exp_kernel(x: f64) -> f64 {
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
pub(super) fn pow2(t: f64) -> f64 {
    f64::from_bits(t.to_bits().wrapping_add(1023) << 52)
}

/// Cephes' `tanh` coefficients: `tanh x = x + x³ P(x²) / Q(x²)` on `|x| < 0.625`,
/// `P` highest degree first, `Q` monic.
pub(super) const TANH_P: [f64; 3] = [
    -9.643_991_794_250_523e-1,
    -9.928_772_310_019_185e1,
    -1.614_687_684_417_084_5e3,
];
pub(super) const TANH_Q: [f64; 3] = [
    1.128_116_784_916_329_3e2,
    2.235_488_390_601_004_6e3,
    4.844_063_053_251_255e3,
];

/// Below it `tanh` is the odd rational, above it `1 − 2 / (e^{2|x|} + 1)`.
pub(super) const TANH_SMALL: f64 = 0.625;

/// `tanh x`, branch-free (see the module docs for its accuracy and special values).
///
/// Both forms are computed and the operands of one final division selected, the sign
/// restored last: `|x| + |x|³ P / Q` below [`TANH_SMALL`], where the formula through
/// `exp` would cancel, and `1 + (−2) / (e^{2|x|} + 1)` above, which is 1 once `e^{2|x|}`
/// is large or infinite.
#[inline(always)]
pub(super) fn tanh_kernel(x: f64) -> f64 {
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
