//! `derivatives_1d` and annotated functions at `Taylor<f64, K>`: the high-order towers
//! of 1D PDE residuals (KdV's `u_xxx`, Kuramoto–Sivashinsky's `u_xxxx`) against closed
//! forms, derived rules running unchanged at the Taylor reading, errors, and `f32`.

use lifted::{Error, NDual, Taylor, autodiff};

/// The profile `u(x) = sin(x) · exp(−x²)`.
#[autodiff(forward)]
fn u(x: f64) -> f64 {
    x.sin() * (-x * x).exp()
}

/// A travelling wave `u(x − c t)` with the same profile, of two arguments.
#[autodiff(forward)]
fn wave(x: f64, t: f64, #[constant] c: f64) -> f64 {
    let s = x - c * t;
    s.sin() * (-s * s).exp()
}

/// The profile summed over a grid of shifts, through slices and a loop.
#[autodiff(forward)]
fn field(x: &[f64], w: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += w[i] * u(x[i]);
    }
    s
}

/// Scales a buffer in place and returns a norm: `&mut [f64]` at the Taylor reading.
#[autodiff(forward)]
fn scaled_norm(y: &mut [f64], a: f64) -> f64 {
    for v in y.iter_mut() {
        *v *= a;
    }
    y.iter().map(|v| v * v).sum::<f64>().sqrt()
}

/// Local arrays at the Taylor reading: a `Vec` built, pushed to, sliced and windowed.
#[autodiff(forward)]
fn local_arrays(x: &[f64]) -> f64 {
    let mut v = vec![0.0; x.len()];
    for i in 0..x.len() {
        v[i] = x[i] * x[i];
    }
    v.push(x[0].exp());
    let mut s = 0.0;
    for w in v.windows(2) {
        s += w[0] * w[1];
    }
    let tail = &v[1..];
    for t in tail.iter() {
        s += t;
    }
    s
}

#[autodiff(forward)]
fn vector_valued(x: f64) -> Vec<f64> {
    vec![x, x * x]
}

#[autodiff(forward)]
fn u32f(x: f32) -> f32 {
    x.sin() * (-x * x).exp()
}

fn binomial(n: usize, k: usize) -> f64 {
    (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
}

/// The n-th derivative of `sin(x) · exp(−x²)` by Leibniz: `exp(−x²)⁽ᵐ⁾ =
/// (−1)ᵐ Hₘ(x) exp(−x²)` with the physicists' Hermite polynomials.
fn u_closed(x: f64, n: usize) -> f64 {
    let mut h = vec![1.0, 2.0 * x];
    for m in 1..n {
        let next = 2.0 * x * h[m] - 2.0 * m as f64 * h[m - 1];
        h.push(next);
    }
    let g = (-x * x).exp();
    (0..=n)
        .map(|k| {
            let sin_k = (x + k as f64 * std::f64::consts::FRAC_PI_2).sin();
            let m = n - k;
            let g_m = (-1f64).powi(m as i32) * h[m] * g;
            binomial(n, k) * sin_k * g_m
        })
        .sum()
}

fn close(got: f64, want: f64, tol: f64) -> bool {
    (got - want).abs() <= tol * want.abs().max(1.0)
}

fn grid() -> impl Iterator<Item = f64> {
    (0..=12).map(|i| -1.5 + 0.25 * f64::from(i))
}

#[test]
fn kdv_and_kuramoto_sivashinsky_towers_match_closed_forms() -> Result<(), Error> {
    for x in grid() {
        let d = lifted::derivatives_1d(u::Rule, x, 1.0, 4)?;
        assert_eq!(d.len(), 5);
        assert_eq!(d[0].to_bits(), u(x).to_bits(), "the value is the primal's");
        for (n, &dn) in d.iter().enumerate() {
            assert!(close(dn, u_closed(x, n), 1e-13), "u^({n}) at {x}: {dn}");
        }
        // The residual terms: u u_x + u_xxx (KdV), u_xx + u_xxxx + u u_x (KS).
        let kdv = d[0] * d[1] + d[3];
        let ks = d[2] + d[4] + d[0] * d[1];
        let want_kdv = u_closed(x, 0) * u_closed(x, 1) + u_closed(x, 3);
        let want_ks = u_closed(x, 2) + u_closed(x, 4) + u_closed(x, 0) * u_closed(x, 1);
        assert!(close(kdv, want_kdv, 1e-13) && close(ks, want_ks, 1e-13));
    }
    Ok(())
}

#[test]
fn every_order_up_to_the_maximum() -> Result<(), Error> {
    for order in 0..=lifted::drivers::MAX_TAYLOR_ORDER {
        for x in grid() {
            let d = lifted::derivatives_1d(u::Rule, x, 1.0, order)?;
            assert_eq!(d.len(), order + 1);
            for (n, &dn) in d.iter().enumerate() {
                assert!(
                    close(dn, u_closed(x, n), 1e-12),
                    "order {order}, u^({n}) at {x}"
                );
            }
        }
    }
    Ok(())
}

#[test]
fn towers_along_a_direction_of_several_arguments() -> Result<(), Error> {
    let c = 0.75;
    for x in grid() {
        let t = 0.4;
        // Along x: ∂ⁿu/∂xⁿ; along t: (−c)ⁿ times that; along (1, 1): (1 − c)ⁿ.
        let dx = lifted::derivatives_1d(wave::Rule, (x, t, c), (1.0, 0.0, 0.0), 4)?;
        let dt = lifted::derivatives_1d(wave::Rule, (x, t, c), (0.0, 1.0, 0.0), 4)?;
        let dd = lifted::derivatives_1d(wave::Rule, (x, t, c), (1.0, 1.0, 0.0), 4)?;
        let s = x - c * t;
        for n in 0..=4 {
            let want = u_closed(s, n);
            assert!(close(dx[n], want, 1e-13), "x, {n}");
            assert!(close(dt[n], (-c).powi(n as i32) * want, 1e-13), "t, {n}");
            assert!(
                close(dd[n], (1.0 - c).powi(n as i32) * want, 1e-13),
                "(1, 1), {n}"
            );
        }
    }
    // Slices: along the coordinate x[1], only the term w[1] u(x[1]) moves.
    let xs = vec![0.1, -0.3, 0.6];
    let ws = vec![1.0, 2.0, -0.5];
    let d = lifted::derivatives_1d(field::Rule, (&xs, &ws), (&[0.0, 1.0, 0.0], &[0.0; 3]), 3)?;
    assert_eq!(d[0], field(&xs, &ws));
    for (n, &dn) in d.iter().enumerate().skip(1) {
        assert!(close(dn, 2.0 * u_closed(-0.3, n), 1e-13));
    }
    // In-place updates of a `&mut [f64]` argument: |a y| along a, = |y| · a exactly linear.
    let y = vec![3.0, 4.0];
    let d = lifted::derivatives_1d(scaled_norm::Rule, (&y, 2.0), (&[0.0, 0.0], 1.0), 3)?;
    assert_eq!(d, [10.0, 5.0, 0.0, 0.0]);
    Ok(())
}

#[test]
fn local_arrays_at_taylor() -> Result<(), Error> {
    // Along x[0] with x = (a, b): s = a²b² + b² e^a + b² + e^a.
    let (a, b) = (0.4, -0.7);
    let d = lifted::derivatives_1d(local_arrays::Rule, &[a, b], &[1.0, 0.0], 4)?;
    assert_eq!(d[0], local_arrays(&[a, b]));
    let want = |n: usize| {
        let sq = [a * a, 2.0 * a, 2.0, 0.0, 0.0][n];
        sq * b * b + (b * b + 1.0) * a.exp()
    };
    for (n, &dn) in d.iter().enumerate().skip(1) {
        assert!(close(dn, want(n), 1e-14), "{n}: {dn} vs {}", want(n));
    }
    Ok(())
}

#[test]
fn derived_rules_run_at_taylor_unchanged() {
    for x in grid() {
        let t = u::frule::<Taylor<f64, 6>>(Taylor::variable(x, 1.0));
        assert_eq!(t.value().to_bits(), u(x).to_bits());
        for n in 0..=6 {
            assert!(close(t.derivative(n), u_closed(x, n), 1e-12));
        }
        // Forward over forward: the same second derivative as the nested duals.
        let x2 = NDual::<NDual<f64, 1>, 1>::new(NDual::variable(x, 0), [NDual::constant(1.0)]);
        let n2 = u::frule::<NDual<NDual<f64, 1>, 1>>(x2);
        let t2 = u::frule::<Taylor<f64, 2>>(Taylor::variable(x, 1.0));
        assert!(close(t2.derivative(2), n2.partial(0).partial(0), 1e-14));
        assert!(close(t2.derivative(1), n2.partial(0).value(), 1e-15));
    }
}

/// A polynomial annotated function: at dyadic points the Taylor second derivative is
/// the nested duals' bit for bit.
#[autodiff(forward)]
fn cubic(x: f64, y: f64) -> f64 {
    let z = 3.0 * x * x * y - x / 4.0 + 0.5;
    z * z - 2.0 * y * x * x * x
}

#[test]
fn annotated_polynomial_second_derivative_is_bitwise_the_nested_one() -> Result<(), Error> {
    type D2 = NDual<NDual<f64, 1>, 1>;
    let seed = |v: f64, d: f64| D2::new(NDual::new(v, [d]), [NDual::constant(d)]);
    for i in -8..=8 {
        for j in [-3.0, 0.5, 1.25] {
            let x = f64::from(i) / 4.0;
            let tower = lifted::derivatives_1d(cubic::Rule, (x, j), (1.0, 0.5), 2)?;
            let n = cubic::frule::<D2>(seed(x, 1.0), seed(j, 0.5));
            assert_eq!(tower[0].to_bits(), n.value().value().to_bits());
            assert_eq!(tower[1].to_bits(), n.partial(0).value().to_bits());
            assert_eq!(tower[2].to_bits(), n.partial(0).partial(0).to_bits());
        }
    }
    Ok(())
}

#[test]
fn bad_input_is_an_error() {
    assert_eq!(
        lifted::derivatives_1d(u::Rule, 0.5, 1.0, 9),
        Err(Error::UnsupportedOrder {
            function: "u",
            requested: 9,
            max: 8
        })
    );
    let e = lifted::derivatives_1d(u::Rule, 0.5, 1.0, 100).unwrap_err();
    assert_eq!(
        e.to_string(),
        "u: derivative order 100 is not supported (at most 8)"
    );
    let xs = vec![0.1, 0.2];
    let short = lifted::derivatives_1d(field::Rule, (&xs, &xs), (&[1.0], &[0.0, 0.0]), 2);
    assert!(matches!(
        short,
        Err(Error::TangentShape {
            argument: 0,
            expected: 2,
            got: 1,
            ..
        })
    ));
    assert_eq!(
        lifted::derivatives_1d(vector_valued::Rule, 0.5, 1.0, 2),
        Err(Error::NotScalarOutput {
            function: "vector_valued",
            dim: 2
        })
    );
    assert_eq!(
        lifted::derivatives_1d(u::Rule, 0.5, 1.0, 0),
        Ok(vec![u(0.5)])
    );
}

#[test]
fn f32_towers() -> Result<(), Error> {
    for x in grid() {
        let xf = x as f32;
        let d = lifted::derivatives_1d(u32f::Rule, xf, 1.0f32, 4)?;
        assert_eq!(d[0].to_bits(), u32f(xf).to_bits());
        for (n, &dn) in d.iter().enumerate() {
            let want = u_closed(f64::from(xf), n);
            assert!(
                close(f64::from(dn), want, 2e-5),
                "f32 u^({n}) at {x}: {dn} vs {want}"
            );
        }
    }
    Ok(())
}
