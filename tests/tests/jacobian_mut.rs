//! `jacobian_mut`: the Jacobian of what a function writes to its `&mut` arguments,
//! checked against closed forms and central differences at widths 1, 2, 3 and 64, in
//! both pass readings, with bad selections reported as errors.

#![allow(clippy::needless_range_loop)]

use lifted::Error;
use lifted::autodiff;
use lifted::drivers::{Driver, Jacobian, PassReading};

/// A periodic 1-D reaction–diffusion residual written into `out`, returning its
/// squared norm.
#[autodiff(forward, chunk = 4)]
fn residual(u: &[f64], k: f64, out: &mut [f64]) -> f64 {
    let n = u.len();
    let mut norm = 0.0;
    for i in 0..n {
        let left = u[(i + n - 1) % n];
        let right = u[(i + 1) % n];
        out[i] = left - 2.0 * u[i] + right + k * u[i] * u[i] * u[i];
        norm += out[i] * out[i];
    }
    norm
}

/// ∂out/∂u of [`residual`] in closed form.
fn residual_jacobian(u: &[f64], k: f64) -> Vec<Vec<f64>> {
    let n = u.len();
    let mut j = vec![vec![0.0; n]; n];
    for i in 0..n {
        j[i][(i + n - 1) % n] += 1.0;
        j[i][(i + 1) % n] += 1.0;
        j[i][i] += -2.0 + 3.0 * k * u[i] * u[i];
    }
    j
}

/// An explicit Euler step of a pendulum chain, updating the state in place.
#[autodiff(forward, chunk = 2)]
fn euler_step(state: &mut [f64], dt: f64) {
    let n = state.len() / 2;
    for i in 0..n {
        let (q, p) = (state[i], state[n + i]);
        state[i] = q + dt * p;
        state[n + i] = p - dt * q.sin();
    }
}

fn assert_matrix(jac: &Jacobian<f64>, expected: &[Vec<f64>], tol: f64, what: &str) {
    assert_eq!(jac.rows(), expected.len(), "{what}: rows");
    for (i, row) in expected.iter().enumerate() {
        let got = jac.row(i).expect("row in range");
        assert_eq!(got.len(), row.len(), "{what}: columns");
        for (j, (&g, &e)) in got.iter().zip(row).enumerate() {
            assert!(
                (g - e).abs() <= tol * (1.0 + e.abs()),
                "{what}: ({i}, {j}) is {g}, expected {e}"
            );
        }
    }
}

fn point(n: usize) -> Vec<f64> {
    (0..n)
        .map(|i| 0.3 + 0.7 * ((i as f64) * 1.3).sin())
        .collect()
}

#[test]
fn residual_jacobian_matches_closed_form_at_every_width_and_reading() {
    let k = 0.8;
    for n in [1, 3, 7, 20] {
        let u = point(n);
        let expected = residual_jacobian(&u, k);
        let mut primal_out = vec![0.0; n];
        let norm = residual(&u, k, &mut primal_out);
        for reading in [PassReading::Dense, PassReading::ZeroSkipping] {
            let run = |width: usize| {
                let mut args = (u.clone(), k, vec![f64::NAN; n]);
                let driver = Driver::new(residual::Rule).reading(reading).wrt(&[0]);
                let result = match width {
                    1 => driver.chunk::<1>().jacobian_mut(&mut args, &[2]),
                    2 => driver.chunk::<2>().jacobian_mut(&mut args, &[2]),
                    64 => driver.chunk::<64>().jacobian_mut(&mut args, &[2]),
                    w => driver.width(w).jacobian_mut(&mut args, &[2]),
                };
                // The written argument holds what one call of the function writes.
                assert_eq!(args.1, k);
                assert_eq!(args.2, primal_out, "n = {n}, width {width}: out");
                (format!("width {width}"), result)
            };
            let runs = [run(1), run(2), run(3), run(64)];
            for (what, result) in runs {
                let (value, jac) = result.expect("jacobian_mut");
                assert_eq!(value, norm, "n = {n}, {what}: value");
                assert_eq!(jac.cols(), n);
                assert_matrix(
                    &jac,
                    &expected,
                    1e-14,
                    &format!("n = {n}, {reading:?}, {what}"),
                );
            }
        }
    }
}

#[test]
fn rule_width_and_free_function_agree_with_finite_differences() {
    let n = 6;
    let dt = 0.1;
    let state = point(2 * n);
    let mut args = (state.clone(), dt);
    let ((), jac) = lifted::jacobian_mut(euler_step::Rule, &mut args, &[0]).expect("jacobian");
    let mut stepped = state.clone();
    euler_step(&mut stepped, dt);
    assert_eq!(args.0, stepped);
    // Columns: every degree of freedom of every argument, `dt` last.
    assert_eq!(jac.shape(), (2 * n, 2 * n + 1));
    let h = 1e-6;
    for j in 0..=2 * n {
        let shifted = |delta: f64| {
            let (mut s, mut t) = (state.clone(), dt);
            if j < 2 * n {
                s[j] += delta;
            } else {
                t += delta;
            }
            euler_step(&mut s, t);
            s
        };
        let (plus, minus) = (shifted(h), shifted(-h));
        for i in 0..2 * n {
            let fd = (plus[i] - minus[i]) / (2.0 * h);
            let ad = jac[(i, j)];
            assert!(
                (ad - fd).abs() <= 1e-7 * (1.0 + fd.abs()),
                "({i}, {j}): {ad} vs {fd}"
            );
        }
    }
}

#[test]
fn rows_follow_the_selection_order() {
    let (u, k) = (point(4), 0.5);
    let mut args = (u.clone(), k, vec![0.0; 4]);
    let (_, jac) = Driver::new(residual::Rule)
        .wrt(&[0])
        .jacobian_mut(&mut args, &[2, 0])
        .expect("jacobian");
    // Rows: `out` (4), then `u` itself, which the function leaves alone (identity).
    let mut expected = residual_jacobian(&u, k);
    expected.extend((0..4).map(|i| (0..4).map(|j| f64::from(u8::from(i == j))).collect()));
    assert_matrix(&jac, &expected, 1e-14, "rows [2, 0]");
}

#[test]
fn bad_selections_are_errors_and_leave_the_arguments() {
    let mut args = (point(3), 1.0, vec![7.0; 3]);
    let before = args.clone();
    let out_of_range = lifted::jacobian_mut(residual::Rule, &mut args, &[3]);
    assert!(
        matches!(
            out_of_range,
            Err(Error::ArgumentOutOfRange {
                index: 3,
                count: 3,
                ..
            })
        ),
        "{out_of_range:?}"
    );
    let twice = lifted::jacobian_mut(residual::Rule, &mut args, &[2, 2]);
    assert!(
        matches!(twice, Err(Error::DuplicateArgument { index: 2, .. })),
        "{twice:?}"
    );
    let bad_width = Driver::new(residual::Rule)
        .width(5)
        .jacobian_mut(&mut args, &[2]);
    assert!(
        matches!(bad_width, Err(Error::UnsupportedWidth { .. })),
        "{bad_width:?}"
    );
    assert_eq!(args, before);
    // An empty selection gives no rows and still runs the function.
    let (_, jac) = lifted::jacobian_mut(residual::Rule, &mut args, &[]).expect("no rows");
    assert_eq!(jac.shape(), (0, 3 + 1 + 3));
    assert_ne!(args.2, before.2);
}
