//! Accuracy against a double-double reference, special values, and the slice loops
//! against the scalar functions bit for bit.

use super::kernels::{EXP_MAX, EXP_MIN, TANH_SMALL};
use super::simd::{Exp, Isa, Kernel, Tanh, map_in_place, map_into};
use super::{exp, exp_in_place, exp_into, tanh, tanh_in_place, tanh_into};
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
