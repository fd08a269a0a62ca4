//! Strong zero (design invariant 6): a lane whose tangent is exactly zero stays exactly
//! `0.0`, never NaN, through every rule at its singular points, where the derivative
//! is infinite or undefined and `0 · ∞` would otherwise leak into untouched lanes. The
//! seeded lane gets the (possibly infinite) derivative. Checked at widths 2 and 8, and
//! for a second-order reading.

use core::f64::consts::{FRAC_PI_2, PI};

use lifted::{NDual, Reading, Real};

/// What the seeded lane must hold.
#[derive(Clone, Copy, Debug)]
enum Seeded {
    /// This value, exactly (infinities included).
    Is(f64),
    /// NaN: the derivative does not exist there (the value is not made up).
    Undefined,
}

/// Asserts lane 0 (and `extra` seeded lanes) against `expected`, every other lane
/// exactly zero.
#[track_caller]
fn check<const N: usize>(name: &str, y: NDual<f64, N>, expected: &[Seeded]) {
    for (k, &p) in y.partials().iter().enumerate() {
        match expected.get(k) {
            Some(Seeded::Is(e)) => assert!(
                p == *e || (p.is_nan() && e.is_nan()),
                "{name} (width {N}): seeded lane {k} is {p}, expected {e}"
            ),
            Some(Seeded::Undefined) => {
                assert!(
                    p.is_nan(),
                    "{name} (width {N}): lane {k} is {p}, expected NaN"
                );
            }
            None => assert!(
                p == 0.0,
                "{name} (width {N}): untouched lane {k} is {p}, not exactly zero"
            ),
        }
    }
}

/// A value seeded in lane 0 with tangent one.
fn var<const N: usize>(x: f64) -> NDual<f64, N> {
    NDual::variable(x, 0)
}

const INF: f64 = f64::INFINITY;

fn unary_singular_points<const N: usize>() {
    use Seeded::Is;
    type Rule<const N: usize> = fn(NDual<f64, N>) -> NDual<f64, N>;
    let cases: [(&str, f64, Rule<N>, f64, Seeded); 18] = [
        ("ln(0)", 0.0, |x| x.ln(), -INF, Is(INF)),
        ("ln(-0)", -0.0, |x| x.ln(), -INF, Is(-INF)),
        ("sqrt(0)", 0.0, |x| x.sqrt(), 0.0, Is(INF)),
        ("cbrt(0)", 0.0, |x| x.cbrt(), 0.0, Is(INF)),
        ("log2(0)", 0.0, |x| x.log2(), -INF, Is(INF)),
        ("log10(0)", 0.0, |x| x.log10(), -INF, Is(INF)),
        ("ln_1p(-1)", -1.0, |x| x.ln_1p(), -INF, Is(INF)),
        ("acosh(1)", 1.0, |x| x.acosh(), 0.0, Is(INF)),
        ("asin(1)", 1.0, |x| x.asin(), FRAC_PI_2, Is(INF)),
        ("asin(-1)", -1.0, |x| x.asin(), -FRAC_PI_2, Is(INF)),
        ("acos(1)", 1.0, |x| x.acos(), 0.0, Is(-INF)),
        ("acos(-1)", -1.0, |x| x.acos(), PI, Is(-INF)),
        ("atanh(1)", 1.0, |x| x.atanh(), INF, Is(INF)),
        ("atanh(-1)", -1.0, |x| x.atanh(), -INF, Is(INF)),
        ("recip(0)", 0.0, |x| x.recip(), INF, Is(-INF)),
        ("powi(0, -2)", 0.0, |x| x.powi(-2), INF, Is(-INF)),
        ("1 / x at 0", 0.0, |x| x.rdiv(1.0), INF, Is(-INF)),
        (
            "powf(0, 0.5)",
            0.0,
            |x| x.powf(NDual::constant(0.5)),
            0.0,
            Is(INF),
        ),
    ];
    for (name, at, f, value, seeded) in cases {
        let y = f(var(at));
        assert!(
            y.value() == value,
            "{name}: value {} expected {value}",
            y.value()
        );
        check(name, y, &[seeded]);
        // Constants stay constants: no lane at all is touched.
        check(name, f(NDual::constant(at)), &[]);
    }
}

/// Two-argument rules at their singular points: lane 0 seeds the first argument,
/// lane 1 the second, the other lanes are untouched.
fn binary_singular_points<const N: usize>() {
    use Seeded::{Is, Undefined};
    let x = |v: f64| NDual::<f64, N>::variable(v, 0);
    let y = |v: f64| NDual::<f64, N>::variable(v, 1);

    // Base 0: d/dx x^y = y x^(y-1), d/dy x^y = x^y ln x with limit 0 where x^y is 0.
    check("powf(0, 2.5)", x(0.0).powf(y(2.5)), &[Is(0.0), Is(0.0)]);
    check("powf(0, 0.5)", x(0.0).powf(y(0.5)), &[Is(INF), Is(0.0)]);
    check("powf(0, 1)", x(0.0).powf(y(1.0)), &[Is(1.0), Is(0.0)]);
    check("powf(0, -1)", x(0.0).powf(y(-1.0)), &[Is(-INF), Is(-INF)]);
    // x^0 is the constant 1, also at x = 0: its base derivative is 0, not 0 · ∞.
    check("powf(0, 0)", x(0.0).powf(y(0.0)), &[Is(0.0), Is(-INF)]);
    check(
        "powf(0, 0 constant)",
        x(0.0).powf(NDual::constant(0.0)),
        &[Is(0.0)],
    );
    // Exponent lanes alone at base 0: the base is a constant.
    check(
        "powf(0 constant, 2.5)",
        NDual::constant(0.0).powf(y(2.5)),
        &[Is(0.0), Is(0.0)],
    );
    // Base lanes alone, the exponent a constant.
    check(
        "powf(0, 0.5 constant)",
        x(0.0).powf(NDual::constant(0.5)),
        &[Is(INF)],
    );
    // At base 1 the exponent lane is ln 1 = 0; at a positive base the usual values.
    check("powf(1, 3)", x(1.0).powf(y(3.0)), &[Is(3.0), Is(0.0)]);

    // The origin: the derivatives do not exist, the untouched lanes stay zero.
    let h = x(0.0).hypot(y(0.0));
    assert_eq!(h.value(), 0.0);
    check("hypot(0, 0)", h, &[Undefined, Undefined]);
    let a = x(0.0).atan2(y(0.0));
    assert_eq!(a.value(), 0.0);
    check("atan2(0, 0)", a, &[Undefined, Undefined]);
    // One argument seeded, the other a constant zero.
    check(
        "hypot(0, 0 constant)",
        x(0.0).hypot(NDual::constant(0.0)),
        &[Undefined],
    );
    check(
        "atan2(0 constant, 0)",
        NDual::constant(0.0).atan2(y(0.0)),
        &[Is(0.0), Undefined],
    );

    // log(x, b) at x = 0 and at base 1.
    check("log(0, 2)", x(0.0).log(y(2.0)), &[Is(INF), Is(INF)]);
    check(
        "log(0, 2 constant)",
        x(0.0).log(NDual::constant(2.0)),
        &[Is(INF)],
    );
    check(
        "log(2 constant, 1)",
        NDual::constant(2.0).log(y(1.0)),
        &[Is(0.0), Is(-INF)],
    );
}

/// Away from the singular points, an unseeded lane is zero anyway: the full composite
/// keeps it so.
fn composite<const N: usize>() {
    let x = NDual::<f64, N>::variable(0.0, 0);
    let z = NDual::<f64, N>::constant(0.0);
    let f = x.sqrt() + x.ln() + (x * x).cbrt() + x.hypot(z) + z.powf(x.exp()) + x.acosh();
    for (k, p) in f.partials().iter().enumerate().skip(1) {
        assert!(*p == 0.0, "composite: lane {k} is {p}");
    }
}

#[test]
fn width_two() {
    unary_singular_points::<2>();
    binary_singular_points::<2>();
    composite::<2>();
}

#[test]
fn width_eight() {
    unary_singular_points::<8>();
    binary_singular_points::<8>();
    composite::<8>();
}

/// Second order: an inner lane that is zero stays zero through the inner rules, and a
/// zero outer lane (a whole inner dual of zeros) stays a whole inner dual of zeros.
/// (Inside a seeded outer lane the inner product of tangent and coefficient is plain
/// multiplication, so its inner lanes may meet `0 · ∞` at these points.)
#[test]
fn second_order() {
    type D2 = NDual<NDual<f64, 2>, 2>;
    // Seeded in lane 0 at both levels; lane 1 untouched at both.
    let x = D2::new(
        NDual::variable(0.0, 0),
        [NDual::constant(1.0), NDual::constant(0.0)],
    );
    for (name, y) in [
        ("sqrt", x.sqrt()),
        ("ln", x.ln()),
        ("cbrt", x.cbrt()),
        ("recip", x.recip()),
        ("powf(0, 0.5)", x.powf(<D2 as Reading<f64>>::constant(0.5))),
    ] {
        assert!(y.value().partial(1) == 0.0, "{name}: inner lane 1");
        let untouched = y.partial(1);
        assert!(
            untouched.value() == 0.0 && untouched.partials() == &[0.0, 0.0],
            "{name}: outer lane 1 is {untouched:?}"
        );
    }
}
