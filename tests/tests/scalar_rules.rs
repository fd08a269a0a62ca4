//! Every scalar rule of the readings — each method of `Real`, the operators between
//! readings, with constants on the right (`x * c`) and on the left (`x.rsub(c)` for
//! `c - x`), compound assignment, sums and products — wrapped in a small `FRule` and
//! checked by `check_rule` at random points inside its domain, in `f64` and `f32`, at
//! every supported width (1, 2, 3, 4, 8, 16, 32 and 64).
//!
//! This binary installs the counting allocator, and every check requires it: each rule
//! is checked to allocate nothing.

use std::marker::PhantomData;

use lifted::drivers::ChunkScalar;
use lifted::testing::{CheckKind, CheckOptions, SUPPORTED_WIDTHS, SplitMix64, check_rule};
use lifted::{FRule, Param, Reading, Scalar};
use lifted_tests::alloc_counter::{self, CountingAllocator};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// Random points per rule and float type.
const POINTS: usize = 4;

/// A seed from a test's name, so each rule gets its own points.
fn seed_of(name: &str, float: &str) -> u64 {
    // FNV-1a.
    name.bytes()
        .chain([b'/'])
        .chain(float.bytes())
        .fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        })
}

/// Checks `rule` at `point`, at every supported width, requiring the allocation check
/// to run and pass.
#[track_caller]
fn check<R>(rule: R, point: R::Args, seed: u64)
where
    R: FRule,
    R::Float: ChunkScalar,
{
    alloc_counter::install();
    let options = CheckOptions::new()
        .seed(seed)
        .widths(&SUPPORTED_WIDTHS)
        .require_allocation_counter(true);
    match check_rule(rule, point.clone(), &options) {
        Ok(report) => assert!(
            report.kind_passed(CheckKind::Allocation),
            "the allocation check did not run at {point:?}:\n{report}"
        ),
        Err(failure) => panic!("at {point:?}:\n{failure}"),
    }
}

/// A uniform random value of the float type in `[lo, hi)`.
fn uniform<F: Scalar>(rng: &mut SplitMix64, lo: f64, hi: f64) -> F {
    <F as Scalar>::from_f64(rng.uniform(lo, hi))
}

/// The argument type of one parameter (every parameter is a float here).
macro_rules! arg_ty {
    ($a:ident, $f:ty) => {
        $f
    };
}

/// The rule body: the given one, or the primal's when they are spelled the same.
macro_rules! rule_body {
    (; $primal:expr) => {
        $primal
    };
    ($rule:expr; $primal:expr) => {
        $rule
    };
}

/// A random point of the domain: uniform in each interval, redrawn until the
/// condition (on the `f64` values) holds, then rounded to the float type.
macro_rules! sample {
    ($rng:ident, $f:ident, ($($a:ident in [$lo:literal, $hi:literal]),+) $(if $cond:expr)?) => {
        loop {
            let ($($a,)+) = ($($rng.uniform($lo, $hi),)+);
            if true $(&& $cond)? {
                break ($(<$f as Scalar>::from_f64($a),)+);
            }
        }
    };
}

/// `true` when `v` is at least `margin` away from every integer: keeps test points of
/// piecewise functions away from their jumps, so the finite differences of `f32`,
/// whose smallest step is 10⁻³, do not straddle one.
fn away_from_integers(v: f64, margin: f64) -> bool {
    (v - v.round()).abs() >= margin
}

/// `FRule` for one float type.
macro_rules! float_impl {
    ($f:ident, $name:expr, ($($a:ident),+), $primal:expr, $rule:expr) => {
        impl FRule for Rule<$f> {
            type Float = $f;
            type Args = ($(arg_ty!($a, $f),)+);
            type Output = $f;
            const CHUNK: usize = 1;
            const NAME: &'static str = $name;
            fn primal(self, args: &mut Self::Args) -> $f {
                let ($($a,)+) = *args;
                $primal
            }
            fn frule<D: Reading<$f>>(
                self,
                args: &mut <Self::Args as Param<$f>>::Store<D>,
            ) -> D {
                let ($($a,)+) = *args;
                $rule
            }
        }
    };
}

/// One module per rule: a marker `Rule<F>` implementing `FRule` for `f64` and `f32`,
/// and a test per float type checking it at random points of the domain.
macro_rules! scalar_rules {
    ($(
        $test:ident ($($a:ident in [$lo:literal, $hi:literal]),+) $(if $cond:expr)?
            => $primal:expr $(, rule $rule:expr)?;
    )*) => {$(
        mod $test {
            use super::*;

            #[derive(Clone, Copy, Debug, Default)]
            pub struct Rule<F>(PhantomData<F>);

            float_impl!(f64, stringify!($test), ($($a),+), $primal, rule_body!($($rule)?; $primal));
            float_impl!(f32, stringify!($test), ($($a),+), $primal, rule_body!($($rule)?; $primal));

            #[test]
            fn f64() {
                let mut rng = SplitMix64::new(seed_of(stringify!($test), "f64"));
                for _ in 0..POINTS {
                    let point = sample!(rng, f64, ($($a in [$lo, $hi]),+) $(if $cond)?);
                    check(Rule::<f64>::default(), point, rng.next_u64());
                }
            }

            #[test]
            fn f32() {
                let mut rng = SplitMix64::new(seed_of(stringify!($test), "f32"));
                for _ in 0..POINTS {
                    let point = sample!(rng, f32, ($($a in [$lo, $hi]),+) $(if $cond)?);
                    check(Rule::<f32>::default(), point, rng.next_u64());
                }
            }
        }
    )*};
}

scalar_rules! {
    // Trigonometry.
    sin(x in [-3.0, 3.0]) => x.sin();
    cos(x in [-3.0, 3.0]) => x.cos();
    tan(x in [-1.2, 1.2]) => x.tan();
    asin(x in [-0.95, 0.95]) => x.asin();
    acos(x in [-0.95, 0.95]) => x.acos();
    atan(x in [-3.0, 3.0]) => x.atan();
    atan2_upper(y in [0.1, 2.0], x in [-2.0, 2.0]) => y.atan2(x);
    atan2_lower(y in [-2.0, -0.1], x in [-2.0, 2.0]) => y.atan2(x);
    to_degrees(x in [-3.0, 3.0]) => x.to_degrees();
    to_radians(x in [-200.0, 200.0]) => x.to_radians();

    // Hyperbolic functions.
    sinh(x in [-3.0, 3.0]) => x.sinh();
    cosh(x in [-3.0, 3.0]) => x.cosh();
    tanh(x in [-3.0, 3.0]) => x.tanh();
    asinh(x in [-3.0, 3.0]) => x.asinh();
    acosh(x in [1.1, 4.0]) => x.acosh();
    atanh(x in [-0.9, 0.9]) => x.atanh();

    // Exponentials and logarithms.
    exp(x in [-3.0, 3.0]) => x.exp();
    exp2(x in [-3.0, 3.0]) => x.exp2();
    exp_m1(x in [-3.0, 3.0]) => x.exp_m1();
    ln(x in [0.1, 5.0]) => x.ln();
    log(x in [0.1, 5.0], b in [1.5, 4.0]) => x.log(b);
    log_base_below_one(x in [0.1, 5.0], b in [0.2, 0.8]) => x.log(b);
    log2(x in [0.1, 5.0]) => x.log2();
    log10(x in [0.1, 5.0]) => x.log10();
    ln_1p(x in [-0.9, 3.0]) => x.ln_1p();

    // Powers and roots.
    sqrt(x in [0.1, 5.0]) => x.sqrt();
    cbrt(x in [0.2, 5.0]) => x.cbrt();
    cbrt_negative(x in [-5.0, -0.2]) => x.cbrt();
    powf(x in [0.2, 3.0], y in [-2.0, 2.0]) => x.powf(y);
    hypot(x in [0.5, 3.0], y in [-3.0, 3.0]) => x.hypot(y);
    recip(x in [0.2, 3.0]) => x.recip();
    recip_negative(x in [-3.0, -0.2]) => x.recip();
    mul_add(x in [-3.0, 3.0], a in [-3.0, 3.0], b in [-3.0, 3.0]) => x.mul_add(a, b);

    // Sign, selection, rounding.
    abs(x in [-3.0, 3.0]) if x.abs() > 0.05 => x.abs();
    signum(x in [-3.0, 3.0]) if x.abs() > 0.05 => x.signum();
    copysign(x in [-3.0, 3.0], s in [-3.0, 3.0]) if s.abs() > 0.05 => x.copysign(s);
    min(x in [-3.0, 3.0], y in [-3.0, 3.0]) if (x - y).abs() > 0.05 => x.min(y);
    max(x in [-3.0, 3.0], y in [-3.0, 3.0]) if (x - y).abs() > 0.05 => x.max(y);
    clamp(x in [-3.0, 3.0], lo in [-2.0, -0.5], hi in [0.5, 2.0])
        if (x - lo).abs() > 0.05 && (x - hi).abs() > 0.05 => x.clamp(lo, hi);
    floor(x in [-5.0, 5.0]) if away_from_integers(x, 0.05) => x.floor();
    ceil(x in [-5.0, 5.0]) if away_from_integers(x, 0.05) => x.ceil();
    round(x in [-5.0, 5.0]) if away_from_integers(x + 0.5, 0.05) => x.round();
    trunc(x in [-5.0, 5.0]) if away_from_integers(x, 0.05) => x.trunc();
    fract(x in [-5.0, 5.0]) if away_from_integers(x, 0.05) => x.fract();
    rem_euclid(x in [-3.0, 3.0], y in [0.7, 2.0]) if away_from_integers(x / y, 0.1) => x.rem_euclid(y);
    rem_euclid_negative_divisor(x in [-3.0, 3.0], y in [-2.0, -0.7])
        if away_from_integers(x / y, 0.1) => x.rem_euclid(y);
    div_euclid(x in [-3.0, 3.0], y in [0.7, 2.0]) if away_from_integers(x / y, 0.1) => x.div_euclid(y);

    // Operators between readings.
    add(x in [-3.0, 3.0], y in [-3.0, 3.0]) => x + y;
    sub(x in [-3.0, 3.0], y in [-3.0, 3.0]) => x - y;
    mul(x in [-3.0, 3.0], y in [-3.0, 3.0]) => x * y;
    div(x in [-3.0, 3.0], y in [0.5, 3.0]) => x / y;
    div_negative(x in [-3.0, 3.0], y in [-3.0, -0.5]) => x / y;
    rem(x in [-3.0, 3.0], y in [0.7, 2.0]) if away_from_integers(x / y, 0.1) => x % y;
    rem_negative(x in [-3.0, 3.0], y in [-2.0, -0.7]) if away_from_integers(x / y, 0.1) => x % y;
    neg(x in [-3.0, 3.0]) => -x;

    // A constant on the right.
    add_const(x in [-3.0, 3.0]) => x + 1.25;
    sub_const(x in [-3.0, 3.0]) => x - 1.25;
    mul_const(x in [-3.0, 3.0]) => x * 1.25;
    div_const(x in [-3.0, 3.0]) => x / 1.25;
    rem_const(x in [-5.0, 5.0]) if away_from_integers(x / 1.7, 0.05) => x % 1.7;

    // A constant on the left: `c op x` in the primal, `x.rop(c)` in the rule.
    const_add(x in [-3.0, 3.0]) => 1.25 + x, rule x.radd(1.25);
    const_sub(x in [-3.0, 3.0]) => 1.25 - x, rule x.rsub(1.25);
    const_mul(x in [-3.0, 3.0]) => 1.25 * x, rule x.rmul(1.25);
    const_div(x in [0.2, 3.0]) => 1.25 / x, rule x.rdiv(1.25);
    const_div_negative(x in [-3.0, -0.2]) => 1.25 / x, rule x.rdiv(1.25);
    const_rem(x in [0.7, 2.0]) if away_from_integers(5.3 / x, 0.1) => 5.3 % x, rule x.rrem(5.3);

    // Compound assignment, with readings and with constants.
    compound_assign(x in [0.5, 2.0], y in [0.5, 2.0]) => {
        let mut z = x;
        z += y;
        z -= 0.5;
        z *= y;
        z /= 1.5;
        z += 0.25;
        z -= x;
        z /= y;
        z *= 3.0;
        z
    };
    rem_assign(x in [-3.0, 3.0], y in [0.7, 2.0]) if away_from_integers(x / y, 0.1) => {
        let mut z = x;
        z %= y;
        z
    };
    rem_assign_const(x in [-5.0, 5.0]) if away_from_integers(x / 1.7, 0.05) => {
        let mut z = x;
        z %= 1.7;
        z
    };

    // A composite of everything at once.
    composite(x in [0.5, 2.0], y in [-1.0, 1.0]) =>
        (x * y.sin() + (x * y).exp() / x).powf(0.5) - x.ln_1p().max(y.tanh()) * 2.0,
        rule (x * y.sin() + (x * y).exp() / x).powf(D::constant(0.5)) - x.ln_1p().max(y.tanh()) * 2.0;
}

/// Rules whose arguments or result are not all floats, written out.
macro_rules! special_rules {
    ($f:ident) => {
        /// `sin_cos`: a pair as the result.
        #[derive(Clone, Copy, Debug, Default)]
        pub struct SinCos;

        impl FRule for SinCos {
            type Float = $f;
            type Args = ($f,);
            type Output = ($f, $f);
            const CHUNK: usize = 1;
            const NAME: &'static str = "sin_cos";
            fn primal(self, args: &mut ($f,)) -> ($f, $f) {
                args.0.sin_cos()
            }
            fn frule<D: Reading<$f>>(self, args: &mut (D,)) -> (D, D) {
                args.0.sin_cos()
            }
        }

        /// `powi`: an integer exponent among the arguments (no degree of freedom).
        #[derive(Clone, Copy, Debug, Default)]
        pub struct Powi;

        impl FRule for Powi {
            type Float = $f;
            type Args = ($f, i32);
            type Output = $f;
            const CHUNK: usize = 1;
            const NAME: &'static str = "powi";
            fn primal(self, args: &mut ($f, i32)) -> $f {
                args.0.powi(args.1)
            }
            fn frule<D: Reading<$f>>(self, args: &mut (D, i32)) -> D {
                args.0.powi(args.1)
            }
        }

        /// `Sum` and `Product` over a fixed array of readings.
        #[derive(Clone, Copy, Debug, Default)]
        pub struct SumProduct;

        impl FRule for SumProduct {
            type Float = $f;
            type Args = ([$f; 4],);
            type Output = ($f, $f, $f, $f);
            const CHUNK: usize = 4;
            const NAME: &'static str = "sum_product";
            fn primal(self, args: &mut ([$f; 4],)) -> ($f, $f, $f, $f) {
                let a = &args.0;
                (
                    a.iter().sum(),
                    a.iter().product(),
                    a.iter().copied().sum(),
                    a.iter().copied().product(),
                )
            }
            fn frule<D: Reading<$f>>(self, args: &mut ([D; 4],)) -> (D, D, D, D) {
                let a = &args.0;
                (
                    a.iter().sum(),
                    a.iter().product(),
                    a.iter().copied().sum(),
                    a.iter().copied().product(),
                )
            }
        }

        #[test]
        fn sin_cos() {
            let mut rng = SplitMix64::new(seed_of("sin_cos", stringify!($f)));
            for _ in 0..POINTS {
                check(
                    SinCos,
                    (uniform::<$f>(&mut rng, -3.0, 3.0),),
                    rng.next_u64(),
                );
            }
        }

        #[test]
        fn powi() {
            let mut rng = SplitMix64::new(seed_of("powi", stringify!($f)));
            for n in [-3, -2, -1, 0, 1, 2, 3, 5] {
                for _ in 0..POINTS {
                    let x = uniform::<$f>(&mut rng, 0.3, 2.0);
                    check(Powi, (x, n), rng.next_u64());
                    check(Powi, (-x, n), rng.next_u64());
                }
            }
        }

        #[test]
        fn sum_product() {
            let mut rng = SplitMix64::new(seed_of("sum_product", stringify!($f)));
            for _ in 0..POINTS {
                let a: [$f; 4] = core::array::from_fn(|_| uniform::<$f>(&mut rng, -2.0, 2.0));
                check(SumProduct, (a,), rng.next_u64());
            }
        }
    };
}

mod special_f64 {
    use super::*;
    special_rules!(f64);
}

mod special_f32 {
    use super::*;
    special_rules!(f32);
}
