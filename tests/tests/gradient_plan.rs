//! `GradientPlan`: a prepared gradient evaluated at point after point gives what the
//! one-shot drivers give, bit for bit, at every width and reading; it allocates
//! nothing per call beyond the function's own allocations; bad shapes are errors.

use lifted::autodiff;
use lifted::drivers::{Driver, GradientPlan, PassReading};
use lifted::testing::SplitMix64;
use lifted_tests::alloc_counter::{CountingAllocator, allocations_on_this_thread, is_counting};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// W2's Rosenbrock function.
#[autodiff(forward, chunk = 8)]
pub fn rosenbrock(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        s += (1.0 - x[i]).powi(2) + 100.0 * (x[i + 1] - x[i] * x[i]).powi(2);
    }
    s
}

fn rosenbrock_gradient(x: &[f64]) -> Vec<f64> {
    let n = x.len();
    let mut g = vec![0.0; n];
    for i in 0..n - 1 {
        g[i] += -2.0 * (1.0 - x[i]) - 400.0 * x[i] * (x[i + 1] - x[i] * x[i]);
        g[i + 1] += 200.0 * (x[i + 1] - x[i] * x[i]);
    }
    g
}

/// A scale, a vector and an exponent: `a · Σ xᵢ^p`.
#[autodiff(forward, chunk = 3)]
fn scaled(a: f64, x: &[f64], p: f64) -> f64 {
    a * x.iter().map(|v| v.abs().powf(p)).sum::<f64>()
}

/// Doubles its argument in place and returns the sum of squares of the result: a rule
/// that mutates its arguments, so a kept lift must be lifted again every pass.
#[autodiff(forward, chunk = 2)]
fn doubled(x: &mut [f64]) -> f64 {
    for v in x.iter_mut() {
        *v *= 2.0;
    }
    x.iter().map(|v| v * v).sum::<f64>()
}

/// Two results: not a gradient.
#[autodiff(forward)]
fn pair(x: &[f64]) -> Vec<f64> {
    vec![x[0], x[1]]
}

fn point(rng: &mut SplitMix64, n: usize) -> Vec<f64> {
    (0..n).map(|_| rng.uniform(-1.5, 1.5)).collect()
}

fn assert_bits(what: &str, got: &[f64], want: &[f64]) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert_eq!(g.to_bits(), w.to_bits(), "{what}[{i}]: {g} vs {w}");
    }
}

fn assert_close(what: &str, got: &[f64], want: &[f64]) {
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= 1e-12 * w.abs().max(1.0),
            "{what}[{i}]: {g} vs {w}"
        );
    }
}

/// The plan of `driver` at several points of each size, against the driver's own
/// gradient and the closed form.
fn follows<W: lifted::drivers::PassWidth>(what: &str, driver: Driver<rosenbrock::Rule, W>) {
    let mut rng = SplitMix64::new(17);
    for n in [2, 5, 16, 40] {
        let args = (point(&mut rng, n),);
        let mut plan = driver.prepare_gradient(&args).unwrap();
        let mut grad = vec![f64::NAN; n];
        for _ in 0..4 {
            let args = (point(&mut rng, n),);
            let value = plan.gradient_into(&args, &mut grad).unwrap();
            let (v, g) = driver.gradient(&args).unwrap();
            assert_eq!(value.to_bits(), v.to_bits(), "{what}, n = {n}: value");
            assert_bits(&format!("{what}, n = {n}"), &grad, &g);
            assert_close(
                &format!("{what}, n = {n}"),
                &grad,
                &rosenbrock_gradient(&args.0),
            );
        }
    }
}

#[test]
fn a_plan_gives_the_drivers_gradient_at_every_width_and_reading() {
    follows("rule width", Driver::new(rosenbrock::Rule));
    follows("width 1", Driver::new(rosenbrock::Rule).chunk::<1>());
    follows("width 2", Driver::new(rosenbrock::Rule).chunk::<2>());
    follows("width 3", Driver::new(rosenbrock::Rule).chunk::<3>());
    follows("width 32", Driver::new(rosenbrock::Rule).chunk::<32>());
    follows("run-time width 4", Driver::new(rosenbrock::Rule).width(4));
    follows(
        "dense",
        Driver::new(rosenbrock::Rule).reading(PassReading::Dense),
    );
    follows(
        "zero-skipping",
        Driver::new(rosenbrock::Rule).reading(PassReading::ZeroSkipping),
    );
}

#[test]
fn a_plan_keeps_the_selection_and_several_arguments() {
    let mut rng = SplitMix64::new(3);
    for wrt in [vec![0, 1, 2], vec![2, 0], vec![1]] {
        let driver = Driver::new(scaled::Rule).wrt(&wrt);
        let mut plan = driver
            .prepare_gradient((0.5, &[0.3, -0.2, 0.9][..], 1.5))
            .unwrap();
        for _ in 0..3 {
            let x = point(&mut rng, 3);
            let (a, p) = (rng.uniform(0.5, 2.0), rng.uniform(1.2, 2.5));
            let (v, g) = plan.gradient((a, &x[..], p)).unwrap();
            let (v2, g2) = driver.gradient((a, &x[..], p)).unwrap();
            assert_eq!(v.to_bits(), v2.to_bits());
            assert_bits(&format!("wrt {wrt:?}"), &g, &g2);
            // Closed forms for the columns asked for.
            let s: f64 = x.iter().map(|v| v.abs().powf(p)).sum();
            let dx: Vec<f64> = x
                .iter()
                .map(|v| a * p * v.abs().powf(p - 1.0) * v.signum())
                .collect();
            let dp = a * x
                .iter()
                .map(|v| v.abs().powf(p) * v.abs().ln())
                .sum::<f64>();
            let mut exact = Vec::new();
            for &k in &wrt {
                match k {
                    0 => exact.push(s),
                    1 => exact.extend(&dx),
                    _ => exact.push(dp),
                }
            }
            assert_close(&format!("wrt {wrt:?}"), &g, &exact);
        }
    }
}

#[test]
fn a_plan_of_a_mutating_rule_lifts_every_pass_again() {
    let mut rng = SplitMix64::new(5);
    let mut plan = GradientPlan::prepare(doubled::Rule, (&mut vec![0.0; 5][..],)).unwrap();
    for _ in 0..3 {
        let x = point(&mut rng, 5);
        let (_, g) = plan.gradient((&mut x.clone()[..],)).unwrap();
        // Σ (2xᵢ)² → 8xᵢ.
        let exact: Vec<f64> = x.iter().map(|v| 8.0 * v).collect();
        assert_bits("doubled", &g, &exact);
    }
}

#[test]
fn a_plan_allocates_nothing_per_call() {
    assert!(is_counting(), "the counting allocator is not installed");
    let mut rng = SplitMix64::new(11);
    for n in [16, 300] {
        let args = (point(&mut rng, n),);
        let mut grad = vec![0.0; n];
        // The one-shot driver lifts into new buffers: the count can tell.
        let before = allocations_on_this_thread();
        lifted::gradient_into(rosenbrock::Rule, &args, &mut grad).unwrap();
        assert!(
            allocations_on_this_thread() > before,
            "n = {n}: gradient_into"
        );

        let mut plan = GradientPlan::prepare(rosenbrock::Rule, &args).unwrap();
        plan.gradient_into(&args, &mut grad).unwrap();
        for _ in 0..3 {
            let args = (point(&mut rng, n),);
            let before = allocations_on_this_thread();
            plan.gradient_into(&args, &mut grad).unwrap();
            let after = allocations_on_this_thread();
            assert_eq!(after - before, 0, "n = {n}: the plan allocated");
            assert_close(&format!("n = {n}"), &grad, &rosenbrock_gradient(&args.0));
        }
    }
}

#[test]
fn bad_input_to_a_plan_is_an_error() {
    let mut plan = GradientPlan::prepare(rosenbrock::Rule, (vec![0.0; 4],)).unwrap();
    assert_eq!(plan.columns(), 4);
    assert_eq!(plan.plan().width, 8);
    let err = plan
        .gradient_into(&(vec![0.0; 5],), &mut [0.0; 5])
        .unwrap_err();
    assert!(
        matches!(
            err,
            lifted::Error::ShapeMismatch {
                expected: 4,
                got: 5,
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("argument 0"), "{err}");
    let err = plan
        .gradient_into(&(vec![0.0; 4],), &mut [0.0; 3])
        .unwrap_err();
    assert!(
        matches!(
            err,
            lifted::Error::BufferLength {
                expected: 4,
                got: 3,
                ..
            }
        ),
        "{err}"
    );
    // After errors the plan still gives the right gradient.
    let x = vec![0.3, -0.7, 1.1, 0.2];
    let (_, g) = plan.gradient((x.clone(),)).unwrap();
    assert_close("after errors", &g, &rosenbrock_gradient(&x));

    let mut plan = GradientPlan::prepare(pair::Rule, (vec![1.0, 2.0],)).unwrap();
    let err = plan.gradient((vec![1.0, 2.0],)).unwrap_err();
    assert!(
        matches!(err, lifted::Error::NotScalarOutput { dim: 2, .. }),
        "{err}"
    );
    let err = Driver::new(rosenbrock::Rule)
        .wrt(&[1])
        .prepare_gradient((vec![0.0; 4],))
        .unwrap_err();
    assert!(
        matches!(err, lifted::Error::ArgumentOutOfRange { .. }),
        "{err}"
    );
}
