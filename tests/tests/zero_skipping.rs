//! The zero-skipping reading `ZDual` and the gradient/Jacobian drivers that use it:
//! gradients equal the dense `NDual` reading's on the same chunking (as values: only
//! the sign of a zero may differ), closed forms and central differences, at widths 1,
//! 2, 3, 8 and 64; strong zero; the choice of reading and width when none is fixed.

use lifted::Error;
use lifted::drivers::{DRIVER_WIDTHS, Driver, PassPlan, PassReading, ZERO_SKIP_MIN_COLUMNS};
use lifted::{FRule, NDual, Param, Reading, Real, ZDual, autodiff};

#[autodiff(forward, chunk = 8)]
fn rosenbrock(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        s += (1.0 - x[i]).powi(2) + 100.0 * (x[i + 1] - x[i] * x[i]).powi(2);
    }
    s
}

/// Ackley's function: square roots, cosines and exponentials of sums.
#[autodiff(forward, chunk = 8)]
fn ackley(x: &[f64]) -> f64 {
    let n = x.len() as f64;
    let mut sq = 0.0;
    let mut cs = 0.0;
    for v in x.iter() {
        sq += v * v;
        cs += (2.0 * std::f64::consts::PI * v).cos();
    }
    -20.0 * (-0.2 * (sq / n).sqrt()).exp() - (cs / n).exp() + 20.0 + std::f64::consts::E
}

/// Branches on the primal, piecewise functions, powers, logarithms and divisions.
#[autodiff(forward, chunk = 8)]
fn branchy(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        let v = x[i];
        let t = if v > 0.25 {
            v.powf(1.5) + v.ln()
        } else if v < -0.25 {
            (v * v + 1.0).sqrt() / (2.0 - v)
        } else {
            v.abs().max(0.1 * v) + v.atan2(0.5)
        };
        s += t * (1.0 + 0.1 * (i as f64));
        if i > 0 {
            s += (x[i - 1] * v).min(0.3).tanh();
        }
    }
    s
}

/// A vector result for Jacobians: neighbours coupled, so each row has few nonzeros.
#[autodiff(forward, chunk = 8)]
fn coupled(x: &[f64]) -> Vec<f64> {
    let mut y = vec![0.0; x.len()];
    for i in 0..x.len() {
        let left = if i > 0 { x[i - 1] } else { 0.0 };
        y[i] = x[i].sin() * left + x[i].exp() / (1.0 + left * left);
    }
    y
}

fn point(n: usize) -> Vec<f64> {
    // Deterministic, in (-1, 1), no input exactly at a branch boundary.
    (0..n)
        .map(|i| ((i as f64 * 0.7548776662).fract() * 2.0 - 1.0) * 0.97 + 0.013)
        .collect()
}

/// The gradient of a rule of one slice at reading `D` of width `N`, chunk by chunk,
/// lifted by hand (no driver involved): `seed(x, lane)`, `read(y) -> (value, lanes)`.
fn gradient_by<R, D, const N: usize>(
    rule: R,
    x: &[f64],
    seed: impl Fn(f64, Option<usize>) -> D,
    read: impl Fn(D) -> (f64, [f64; N]),
) -> (f64, Vec<f64>)
where
    R: FRule<Float = f64, Args = (Vec<f64>,), Output = f64>,
    D: Reading<f64>,
{
    let args = (x.to_vec(),);
    let mut grad = vec![0.0; x.len()];
    let mut value = f64::NAN;
    let mut first = 0;
    while first < x.len() {
        let mut dof: usize = 0;
        let mut store = args.lift(&mut |v| {
            let lane = dof.checked_sub(first).filter(|&l| l < N);
            dof += 1;
            seed(v, lane)
        });
        let (y, lanes) = read(rule.frule::<D>(&mut store));
        value = y;
        let end = (first + N).min(x.len());
        grad[first..end].copy_from_slice(&lanes[..end - first]);
        first += N;
    }
    (value, grad)
}

fn dense<R, const N: usize>(rule: R, x: &[f64]) -> (f64, Vec<f64>)
where
    R: FRule<Float = f64, Args = (Vec<f64>,), Output = f64>,
{
    gradient_by::<R, NDual<f64, N>, N>(
        rule,
        x,
        |v, lane| lane.map_or(NDual::constant(v), |l| NDual::variable(v, l)),
        |y| (y.value(), *y.partials()),
    )
}

fn skipping<R, const N: usize>(rule: R, x: &[f64]) -> (f64, Vec<f64>)
where
    R: FRule<Float = f64, Args = (Vec<f64>,), Output = f64>,
{
    gradient_by::<R, ZDual<f64, N>, N>(
        rule,
        x,
        |v, lane| lane.map_or(ZDual::constant(v), |l| ZDual::variable(v, l)),
        |y| (y.value(), y.partials()),
    )
}

/// Equal as values, component by component, and none NaN.
fn assert_same(what: &str, a: &[f64], b: &[f64]) {
    assert_eq!(a.len(), b.len(), "{what}: lengths");
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        assert!(!x.is_nan() && !y.is_nan(), "{what}[{i}]: NaN ({x}, {y})");
        assert!(x == y, "{what}[{i}]: {x:e} != {y:e}");
    }
}

fn assert_close(what: &str, got: &[f64], want: &[f64], tol: f64) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let err = (g - w).abs() / w.abs().max(1.0);
        assert!(
            err <= tol,
            "{what}[{i}]: got {g:e}, want {w:e} (rel err {err:e})"
        );
    }
}

fn rosenbrock_gradient(x: &[f64]) -> Vec<f64> {
    let n = x.len();
    let mut g = vec![0.0; n];
    for i in 0..n - 1 {
        let r = x[i + 1] - x[i] * x[i];
        g[i] += -2.0 * (1.0 - x[i]) - 400.0 * x[i] * r;
        g[i + 1] += 200.0 * r;
    }
    g
}

fn central_differences(f: impl Fn(&[f64]) -> f64, x: &[f64]) -> Vec<f64> {
    let mut y = x.to_vec();
    (0..x.len())
        .map(|i| {
            let h = 1e-6 * x[i].abs().max(1.0);
            y[i] = x[i] + h;
            let up = f(&y);
            y[i] = x[i] - h;
            let down = f(&y);
            y[i] = x[i];
            (up - down) / (2.0 * h)
        })
        .collect()
}

/// Every check at width `N` for one function of `n` inputs.
fn check_width<R, const N: usize>(
    name: &str,
    rule: R,
    primal: fn(&[f64]) -> f64,
    n: usize,
    reference: &[f64],
    tol: f64,
) where
    R: FRule<Float = f64, Args = (Vec<f64>,), Output = f64>,
{
    let x = point(n);
    let (vd, gd) = dense::<R, N>(rule, &x);
    let (vs, gs) = skipping::<R, N>(rule, &x);
    assert_eq!(vs.to_bits(), primal(&x).to_bits(), "{name} N={N}: value");
    assert_eq!(vs.to_bits(), vd.to_bits(), "{name} N={N}: value vs NDual");
    assert_same(&format!("{name} N={N}: ZDual vs NDual"), &gs, &gd);
    assert_close(&format!("{name} N={N}: vs reference"), &gs, reference, tol);
    // Through the driver, the reading chosen explicitly, at the same width.
    let by_driver = |reading| {
        Driver::new(rule)
            .chunk::<N>()
            .reading(reading)
            .gradient(&x)
            .unwrap()
    };
    if N.is_power_of_two() {
        let (v, g) = by_driver(PassReading::ZeroSkipping);
        assert_eq!(v.to_bits(), vs.to_bits(), "{name} N={N}: driver value");
        assert_same(&format!("{name} N={N}: driver"), &g, &gs);
        let (_, g) = by_driver(PassReading::Dense);
        assert_same(&format!("{name} N={N}: dense driver"), &g, &gd);
    }
}

fn check_all_widths<R>(
    name: &str,
    rule: R,
    primal: fn(&[f64]) -> f64,
    n: usize,
    reference: &[f64],
    tol: f64,
) where
    R: FRule<Float = f64, Args = (Vec<f64>,), Output = f64>,
{
    check_width::<R, 1>(name, rule, primal, n, reference, tol);
    check_width::<R, 2>(name, rule, primal, n, reference, tol);
    check_width::<R, 3>(name, rule, primal, n, reference, tol);
    check_width::<R, 8>(name, rule, primal, n, reference, tol);
    check_width::<R, 64>(name, rule, primal, n, reference, tol);
}

#[test]
fn rosenbrock_matches_closed_form_and_ndual() {
    for n in [2, 17, 100] {
        let want = rosenbrock_gradient(&point(n));
        check_all_widths("rosenbrock", rosenbrock::Rule, rosenbrock, n, &want, 1e-13);
    }
}

#[test]
fn ackley_matches_differences_and_ndual() {
    for n in [3, 70] {
        let want = central_differences(ackley, &point(n));
        check_all_widths("ackley", ackley::Rule, ackley, n, &want, 1e-7);
    }
}

#[test]
fn branches_match_differences_and_ndual() {
    for n in [5, 90] {
        let x = point(n);
        // Every branch is taken somewhere.
        assert!(x.iter().any(|&v| v > 0.25) && x.iter().any(|&v| v < -0.25));
        assert!(x.iter().any(|&v| v.abs() < 0.25));
        let want = central_differences(branchy, &x);
        check_all_widths("branchy", branchy::Rule, branchy, n, &want, 1e-7);
    }
}

#[test]
fn jacobian_zero_skipping_matches_dense_and_differences() {
    let x = point(80);
    for width in [1, 2, 8, 64] {
        let (ys, js) = Driver::new(coupled::Rule)
            .width(width)
            .reading(PassReading::ZeroSkipping)
            .jacobian(&x)
            .unwrap();
        let (yd, jd) = Driver::new(coupled::Rule)
            .width(width)
            .reading(PassReading::Dense)
            .jacobian(&x)
            .unwrap();
        assert_eq!(ys, yd);
        assert_eq!(ys, coupled(&x));
        assert_same(&format!("jacobian N={width}"), js.data(), jd.data());
        for i in [0, 1, 40, 79] {
            let want = central_differences(|x| coupled(x)[i], &x);
            assert_close(
                &format!("jacobian row {i}"),
                js.row(i).unwrap(),
                &want,
                1e-7,
            );
        }
    }
}

#[test]
fn values_from_unseeded_inputs_stay_flat() {
    let c = ZDual::<f64, 4>::constant(0.3);
    let x = ZDual::<f64, 4>::variable(0.7, 2);
    for (name, y) in [
        ("sin", c.sin()),
        ("exp", c.exp()),
        ("powi", c.powi(3)),
        ("powf", c.powf(c)),
        ("atan2", c.atan2(c)),
        ("mul", c * c),
        ("div", c / (c + 1.0)),
        ("rdiv", 1.0 / c),
        ("mul_add", c.mul_add(c, c)),
        ("compose", c.compose(&[1.0, 2.0])),
    ] {
        assert!(y.is_flat(), "{name} of a constant has partials");
    }
    // A flat operand leaves the seeded one's partials as NDual computes them.
    let (xd, cd) = (x.to_ndual(), c.to_ndual());
    for (name, z, d) in [
        ("mul", x * c, xd * cd),
        ("div", x / c, xd / cd),
        ("rdiv", c / x, cd / xd),
        ("sub", c - x, cd - xd),
        ("hypot", c.hypot(x), cd.hypot(xd)),
        ("powf", x.powf(c), xd.powf(cd)),
    ] {
        assert!(!z.is_flat(), "{name}");
        assert_eq!(z.value().to_bits(), d.value().to_bits(), "{name}: value");
        assert_same(name, &z.partials(), d.partials());
    }
    let mut s = c;
    s += x;
    assert_eq!(s.partials(), [0.0, 0.0, 1.0, 0.0]);
}

#[test]
fn strong_zero_at_singular_points() {
    // Lane 1 moves the argument, lane 0 does not: lane 0 stays exactly zero where the
    // derivative is infinite, flat values stay flat.
    let zero_in_lane0 = |v: f64| ZDual::<f64, 2>::new(v, [0.0, 1.0]);
    let flat = ZDual::<f64, 2>::constant(0.0);
    let z = zero_in_lane0(0.0);
    for (name, y) in [
        ("sqrt", z.sqrt()),
        ("cbrt", z.cbrt()),
        ("ln", z.ln()),
        ("hypot", z.hypot(flat)),
        ("powf", z.powf(ZDual::constant(0.5))),
        ("recip", z.recip()),
    ] {
        assert_eq!(y.partials()[0], 0.0, "{name}: lane 0 of {y:?}");
    }
    for (name, y) in [
        ("sqrt", flat.sqrt()),
        ("cbrt", flat.cbrt()),
        ("ln", flat.ln()),
        ("hypot", flat.hypot(flat)),
        ("powf", flat.powf(ZDual::constant(0.5))),
    ] {
        assert!(y.is_flat(), "{name}: {y:?}");
    }
    // A flat operand contributes nothing, even next to an infinite value; NDual's
    // NaN-safe product rule counts its ∞ · 0 as zero too.
    let big = ZDual::<f64, 2>::new(f64::INFINITY, [0.0, 1.0]);
    let two = ZDual::<f64, 2>::constant(2.0);
    assert_eq!((big * two).partials(), [0.0, 2.0]);
    assert_eq!((big.to_ndual() * two.to_ndual()).partials(), &[0.0, 2.0]);
}

#[autodiff(forward)]
fn sq(x: &[f32]) -> f32 {
    x.iter().map(|v| v * v.sin()).sum::<f32>()
}

#[test]
fn f32_reading() {
    let x: Vec<f32> = (0..70).map(|i| i as f32 * 0.01).collect();
    let (_, gs) = Driver::new(sq::Rule)
        .reading(PassReading::ZeroSkipping)
        .gradient(&x)
        .unwrap();
    let (_, gd) = Driver::new(sq::Rule)
        .reading(PassReading::Dense)
        .gradient(&x)
        .unwrap();
    assert_eq!(gs, gd);
    for (g, v) in gs.iter().zip(&x) {
        assert!((g - (v.sin() + v * v.cos())).abs() <= 1e-6);
    }
}

#[test]
fn reading_by_columns_width_as_set() {
    let dense = |width| PassPlan {
        reading: PassReading::Dense,
        width,
    };
    let skip = |width| PassPlan {
        reading: PassReading::ZeroSkipping,
        width,
    };
    // The rule's width (`chunk = 8`) whatever the number of columns; zero-skipping
    // beyond the threshold.
    let driver = Driver::new(rosenbrock::Rule);
    assert_eq!(driver.plan(1), dense(8));
    assert_eq!(driver.plan(ZERO_SKIP_MIN_COLUMNS), dense(8));
    assert_eq!(driver.plan(ZERO_SKIP_MIN_COLUMNS + 1), skip(8));
    assert_eq!(driver.plan(4096), skip(8));
    // A width set on the driver is the width, at compile time or at run time.
    assert_eq!(driver.clone().chunk::<5>().plan(200), skip(5));
    assert_eq!(driver.clone().width(64).plan(3), dense(64));
    // A fixed reading is kept.
    assert_eq!(
        driver.clone().reading(PassReading::Dense).plan(200),
        dense(8)
    );
    assert_eq!(driver.reading(PassReading::ZeroSkipping).plan(2), skip(8));
}

/// A width chosen at run time is one of the table's or an error that lists them; a
/// width fixed at compile time may be any.
#[test]
fn widths_outside_the_table_are_errors_naming_it() {
    let x = point(40);
    let (_, reference) = lifted::gradient(rosenbrock::Rule, &x).unwrap();
    for width in DRIVER_WIDTHS {
        let (_, g) = Driver::new(rosenbrock::Rule)
            .width(width)
            .gradient(&x)
            .unwrap();
        assert_same(&format!("width {width}"), &g, &reference);
    }
    for width in [0, 5, 7, 65, 100] {
        let err = Driver::new(rosenbrock::Rule)
            .width(width)
            .gradient(&x)
            .unwrap_err();
        assert_eq!(
            err,
            Error::UnsupportedWidth {
                function: "rosenbrock",
                requested: width,
                supported: &DRIVER_WIDTHS,
            }
        );
        let message = err.to_string();
        assert!(message.contains("[1, 2, 3, 4, 8, 16, 32, 64]"), "{message}");
        assert!(message.contains("Driver::chunk::<K>()"), "{message}");
    }
    let (_, five) = Driver::new(rosenbrock::Rule)
        .chunk::<5>()
        .gradient(&x)
        .unwrap();
    assert_same("chunk 5", &five, &reference);
    let (_, seven) = Driver::new(rosenbrock::Rule)
        .chunk::<7>()
        .reading(PassReading::Dense)
        .jacobian(&x)
        .unwrap();
    assert_same("chunk 7", seven.data(), &reference);
}

#[test]
fn chosen_width_gives_the_fixed_widths_result() {
    for n in [5, 16, 17, 64, 300] {
        let x = point(n);
        let (v, g) = lifted::gradient(rosenbrock::Rule, &x).unwrap();
        assert_close("rosenbrock auto", &g, &rosenbrock_gradient(&x), 1e-13);
        for width in [1, 2, 8, 64] {
            for reading in [PassReading::Dense, PassReading::ZeroSkipping] {
                let (vf, gf) = Driver::new(rosenbrock::Rule)
                    .width(width)
                    .reading(reading)
                    .gradient(&x)
                    .unwrap();
                assert_eq!(v.to_bits(), vf.to_bits());
                assert_same(&format!("n={n} width={width} {reading:?}"), &g, &gf);
            }
        }
        let mut into = vec![0.0; n];
        let vi = lifted::gradient_into(rosenbrock::Rule, (&x,), &mut into).unwrap();
        assert_eq!(vi.to_bits(), v.to_bits());
        assert_same("gradient_into", &into, &g);
    }
}
