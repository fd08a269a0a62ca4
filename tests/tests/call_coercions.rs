//! Calls pass what rustc's coercions accept: fixed arrays, `Vec`s, mutable slices and
//! sub-slices where a rule takes `&[f64]` or `&mut [f64]`. Each function's Jacobian is
//! checked against its closed form at chunk widths 1, 2, 3 and 16 (the dense `NDual`
//! reading, whose arrays are laid out apart from fixed arrays of its values, and the
//! zero-skipping one, whose arrays are slices of its values).

// `&mut` where `&` is expected is what the test is about.
#![allow(clippy::unnecessary_mut_passed)]

use lifted::autodiff;
use lifted::drivers::{Driver, PassReading, RunTimeWidth};

/// `Σ (i + 1) xᵢ`.
#[autodiff(forward)]
pub fn weighted_sum(x: &[f64]) -> f64 {
    x.iter()
        .enumerate()
        .map(|(i, &v)| (i as f64 + 1.0) * v)
        .sum()
}

/// Scales the elements in place by `s`.
#[autodiff(forward)]
pub fn scale(y: &mut [f64], s: f64) {
    for v in y.iter_mut() {
        *v *= s;
    }
}

/// `&[f64; 3]`, `&mut [f64; 3]` (shared where a slice is expected), a sub-slice of a
/// fixed array, and a fixed array lent mutably and read after the call.
#[autodiff(forward)]
pub fn fixed_arrays(a: [f64; 3], s: f64) -> [f64; 4] {
    let mut b = [a[0] * a[1], a[1], a[2] * a[2]];
    let first = weighted_sum(&a);
    let shared = weighted_sum(&mut b);
    let tail = weighted_sum(&a[1..]);
    scale(&mut b, s);
    [first, shared, tail, b[0] + b[1] + b[2]]
}

/// `&Vec<f64>`, `&mut Vec<f64>`, `&mut v[a..b]` and a `&mut [f64]` parameter passed on
/// twice (reborrowed).
#[autodiff(forward)]
pub fn vectors(x: &[f64], out: &mut [f64], s: f64) -> f64 {
    let mut v = x.to_vec();
    let total = weighted_sum(&v);
    scale(&mut v, s);
    scale(&mut v[1..], s);
    out[0] = v[0];
    out[1] = v[1];
    scale(out, 2.0);
    let mid = weighted_sum(out);
    total + mid
}

/// A reading's name with a driver of each rule at it.
type AtReading = (
    String,
    Driver<fixed_arrays::Rule, RunTimeWidth>,
    Driver<vectors::Rule, RunTimeWidth>,
);

fn readings() -> Vec<AtReading> {
    let mut all = Vec::new();
    for chunk in [1, 2, 3, 16] {
        for (reading, name) in [
            (PassReading::Dense, "dense"),
            (PassReading::ZeroSkipping, "zero-skipping"),
        ] {
            all.push((
                format!("{name} chunk {chunk}"),
                Driver::new(fixed_arrays::Rule)
                    .reading(reading)
                    .width(chunk),
                Driver::new(vectors::Rule).reading(reading).width(chunk),
            ));
        }
    }
    all
}

#[test]
fn fixed_arrays_coerce_to_slices() {
    let (a, s) = ([0.5, -1.5, 2.0], 3.0);
    let [a0, a1, a2] = a;
    // b = (a0 a1, a1, a2²); outputs: Σ(i+1)aᵢ, Σ(i+1)bᵢ, a1 + 2 a2, s Σ b.
    let want_value = [
        a0 + 2.0 * a1 + 3.0 * a2,
        a0 * a1 + 2.0 * a1 + 3.0 * a2 * a2,
        a1 + 2.0 * a2,
        s * (a0 * a1 + a1 + a2 * a2),
    ];
    let sum_b = a0 * a1 + a1 + a2 * a2;
    let want = [
        [1.0, 2.0, 3.0, 0.0],
        [a1, a0 + 2.0, 6.0 * a2, 0.0],
        [0.0, 1.0, 2.0, 0.0],
        [s * a1, s * (a0 + 1.0), s * 2.0 * a2, sum_b],
    ];
    for (name, driver, _) in readings() {
        let (value, jac) = driver.jacobian((a, s)).expect("jacobian");
        for (got, want) in value.iter().zip(want_value) {
            assert!(
                (got - want).abs() <= 1e-14 * want.abs().max(1.0),
                "{name}: value {got} vs {want}"
            );
        }
        assert_eq!(value, fixed_arrays(a, s), "{name}: value is the primal's");
        for (i, row) in want.iter().enumerate() {
            for (j, &w) in row.iter().enumerate() {
                let g = jac[(i, j)];
                assert!(
                    (g - w).abs() <= 1e-14 * w.abs().max(1.0),
                    "{name}: ∂{i}/∂{j} = {g}, want {w}"
                );
            }
        }
    }
}

#[test]
fn vectors_and_mutable_slices_coerce_and_reborrow() {
    let (x, s) = (vec![0.25, -0.5, 1.5], 2.0);
    // v = (s x0, s² x1, s² x2); out = 2 (v0, v1); result = Σ(i+1)xᵢ + out0 + 2 out1.
    let mut out = vec![0.0; 2];
    let value = vectors(&x, &mut out, s);
    let want_value = x[0] + 2.0 * x[1] + 3.0 * x[2] + 2.0 * s * x[0] + 4.0 * s * s * x[1];
    assert!((value - want_value).abs() <= 1e-14);
    // Columns: x (3), out (2, overwritten: no effect), s.
    let want = [
        1.0 + 2.0 * s,
        2.0 + 4.0 * s * s,
        3.0,
        0.0,
        0.0,
        2.0 * x[0] + 8.0 * s * x[1],
    ];
    let args = (x.clone(), vec![0.0; 2], s);
    for (name, _, driver) in readings() {
        let (result, jac) = driver.jacobian(&args).expect("jacobian");
        assert_eq!(result, value, "{name}: value is the primal's");
        for (j, &w) in want.iter().enumerate() {
            let g = jac[(0, j)];
            assert!(
                (g - w).abs() <= 1e-14 * w.abs().max(1.0),
                "{name}: ∂/∂{j} = {g}, want {w}"
            );
        }
    }
    // The in/out slice and its tangent in direction ∂/∂s: out = (2 s x0, 2 s² x1).
    let mut args = (x.clone(), vec![0.0; 2], s);
    let mut tangents = (vec![0.0; 3], vec![0.0; 2], 1.0);
    lifted::jvp_mut(vectors::Rule, &mut args, &mut tangents).expect("jvp_mut");
    assert_eq!(args.1, out);
    assert_eq!(tangents.1, [2.0 * x[0], 4.0 * s * x[1]]);
}
