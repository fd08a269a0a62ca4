//! Derived rules of `#[autodiff]` functions, checked by `check_rule`: finite
//! differences at widths 1, 2, 3 and 8, lane independence, and the primal reading
//! reproducing the primal function bit for bit.

use lifted::autodiff;
use lifted::testing::{CheckOptions, LaneCheck, check_rule};

/// W2's Rosenbrock function.
#[autodiff(forward, chunk = 8)]
pub fn rosenbrock(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        s += (1.0 - x[i]).powi(2) + 100.0 * (x[i + 1] - x[i] * x[i]).powi(2);
    }
    s
}

#[autodiff(forward)]
fn ackley(x: &[f64]) -> f64 {
    let (a, b, c) = (20.0, 0.2, 2.0 * std::f64::consts::PI);
    let n = x.len() as f64;
    let mut s1 = 0.0;
    let mut s2 = 0.0;
    for &v in x {
        s1 += v * v;
        s2 += (c * v).cos();
    }
    -a * (-b * (s1 / n).sqrt()).exp() - (s2 / n).exp() + a + std::f64::consts::E
}

#[autodiff(forward)]
fn scalar_chain(x: f64) -> f64 {
    x.sin().powi(2) / x.cos().powi(2)
        + (x * x * x).sqrt()
        + 10.31_f64.powf(2.0 * x)
        + 1.0 / (1.0 + (-x).exp())
}

#[autodiff(forward)]
fn two_args(x: f64, y: f64) -> f64 {
    let t: f64 = 1.0;
    let z = if x > y { x * y } else { x - y * 2. };
    let w = match (x * 10.0) as i64 {
        0..=3 => z + t,
        _ => z - t,
    };
    w.atan2(y) + f64::max(x, 0.5) + f64::hypot(x, y)
}

#[autodiff(forward)]
fn in_place(y: &mut [f64], x: &[f64]) {
    for i in 0..y.len() {
        y[i] += x[i] * y[i];
    }
    y[0] *= 2.0;
    for v in y.iter_mut() {
        *v = v.tanh();
    }
}

#[autodiff(forward)]
fn calls_others(x: &[f64], y: f64) -> f64 {
    let r = rosenbrock(x);
    let s = scalar_chain(y);
    r * s + two_args(y, r / 1000.0)
}

#[autodiff(forward)]
fn power(x: f64, n: u32) -> f64 {
    if n == 0 { 1.0 } else { x * power(x, n - 1) }
}

#[autodiff(forward)]
fn iterators(x: &[f64]) -> f64 {
    let s: f64 = x.iter().map(|v| v * v).sum::<f64>();
    let p = x.iter().fold(1.0, |acc, v| acc * (1.0 + v));
    let mut w = 0.0;
    for win in x.windows(2) {
        w += win[1] - win[0];
    }
    let mut e = 0.0;
    for (i, v) in x.iter().enumerate() {
        e += (i as f64) * v;
    }
    s + p + w + e
}

// `vec![a, b, c]` on purpose: its lowering is what is tested.
#[allow(clippy::useless_vec)]
#[autodiff(forward)]
fn builds_vectors(x: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; x.len()];
    let mut acc = Vec::with_capacity(x.len());
    for i in 0..x.len() {
        out[i] = x[i] * 2.0;
        acc.push(x[i].exp());
    }
    let tail = &x[1..];
    let extra = vec![tail[0], 3.0, x[0] * x[0]];
    for i in 0..out.len() {
        out[i] += acc[i] + extra[i % 3];
    }
    out
}

#[autodiff(forward)]
fn weighted(x: &[f64], #[constant] w: &[f64], #[constant] scale: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += w[i] * x[i];
    }
    scale * s + 2.0 * scale
}

#[autodiff(forward)]
fn fixed(p: [f64; 3]) -> (f64, f64) {
    let [a, b, c] = p;
    (a * b + c, (a - c).exp())
}

#[autodiff(forward)]
fn loops(x: f64) -> f64 {
    let mut y = x;
    let mut k = 0;
    while k < 5 {
        y = y * 0.5 + 1.0 / y.max(0.1);
        k += 1;
    }
    let z = loop {
        y -= 0.25;
        if y < 1.0 {
            break y;
        }
    };
    'outer: for i in 0..3 {
        for j in 0..3 {
            if j > i {
                continue 'outer;
            }
            y += z * (j as f64);
        }
    }
    y
}

#[autodiff(forward)]
fn single(x: f32, y: f32) -> f32 {
    (x * y).sin() + 2.0 * x.exp() - y / 3.0
}

fn options() -> CheckOptions {
    CheckOptions::new().widths(&[1, 2, 3, 8])
}

fn check<R: lifted::FRule>(rule: R, args: R::Args, options: &CheckOptions)
where
    R::Float: lifted::drivers::ChunkScalar,
{
    let report = check_rule(rule, args, options).unwrap_or_else(|e| panic!("{e}"));
    assert!(report.passed(), "{report}");
}

#[test]
fn rosenbrock_rule() {
    check(
        rosenbrock::Rule,
        (vec![0.3, -0.7, 1.2, 0.5, 0.9],),
        &options(),
    );
}

#[test]
fn ackley_rule() {
    check(ackley::Rule, (vec![0.3, -0.7, 1.2, 0.5],), &options());
}

#[test]
fn scalar_chain_rule() {
    check(scalar_chain::Rule, (0.7,), &options());
}

#[test]
fn branches_and_matches() {
    check(two_args::Rule, (0.2, 0.9), &options());
    check(two_args::Rule, (0.9, 0.2), &options());
}

#[test]
fn in_place_updates() {
    check(
        in_place::Rule,
        (vec![0.5, -0.3, 0.8], vec![1.5, 0.25, -0.5]),
        &options(),
    );
}

#[test]
fn calls_between_rules() {
    check(calls_others::Rule, (vec![0.3, -0.2, 0.4], 0.6), &options());
}

#[test]
fn recursion() {
    check(power::Rule, (1.3, 4), &options());
}

#[test]
fn iterator_chains() {
    check(iterators::Rule, (vec![0.3, -0.2, 0.4, 0.9],), &options());
}

#[test]
fn vectors() {
    check(
        builds_vectors::Rule,
        (vec![0.3, -0.2, 0.4, 0.9],),
        &options(),
    );
}

#[test]
fn constants() {
    check(
        weighted::Rule,
        (
            vec![0.3, -0.2, 0.4],
            lifted::Constant(vec![1.0, 2.0, -1.0]),
            lifted::Constant(1.5),
        ),
        &options(),
    );
}

#[test]
fn fixed_arrays_and_tuples() {
    check(fixed::Rule, ([0.3, -0.2, 0.4],), &options());
}

#[test]
fn loops_and_labels() {
    check(loops::Rule, (2.5,), &options());
}

#[test]
fn f32_functions() {
    check(single::Rule, (0.4, 0.8), &options());
}

#[test]
fn primal_function_is_untouched() {
    assert_eq!(power(2.0, 3), 8.0);
    let x = [0.5, 0.5];
    assert_eq!(
        rosenbrock(&x),
        (1.0f64 - 0.5).powi(2) + 100.0 * (0.5f64 - 0.25).powi(2)
    );
    let _ = LaneCheck::Bitwise;
}

#[autodiff(forward)]
fn piecewise(x: f64) -> f64 {
    if x > 1.0 {
        x * x
    } else if x > -1.0 {
        3.0 * x
    } else {
        -x.exp()
    }
}

/// The rule takes the branch the primal takes at the same point: the derivative is
/// that of the branch, checked against closed forms on each piece.
#[test]
fn rule_follows_the_primal_control_path() {
    use lifted::NDual;
    for (x, slope) in [(2.0, 4.0), (0.5, 3.0), (-2.0, -(-2.0f64).exp())] {
        let d = piecewise::frule(NDual::<f64, 1>::variable(x, 0));
        assert_eq!(d.value().to_bits(), piecewise(x).to_bits());
        assert!(
            (d.partial(0) - slope).abs() < 1e-15,
            "x = {x}: {} vs {slope}",
            d.partial(0)
        );
        check(piecewise::Rule, (x,), &options());
    }
}
