//! The array-level element-wise functions of `lifted::elementwise` on arrays of
//! different shapes: broadcast rows and scalars, constant operands, every chunk width,
//! a batched dense layer against the same layer written as an element loop, the
//! broadcasting panics, second derivatives at the nested and Taylor readings, `f32`.

use lifted::elementwise as ew;
use lifted::linalg::{Mat, matmul, sum};
use lifted::{Constant, autodiff};

#[path = "support/check.rs"]
mod check_support;
#[path = "support/elementwise.rs"]
#[allow(dead_code)]
mod support;
use check_support::check;
use support::*;

// ---------------------------------------------------------------------------------
// Broadcasting
// ---------------------------------------------------------------------------------

/// `z` is `n × k` row-major, `b` a row of `k`: every op broadcasts `b` over the rows,
/// with the row first or second.
#[autodiff(forward, chunk = 4)]
fn row_broadcast(z: &[f64], b: &[f64]) -> Vec<f64> {
    let mut out: Vec<f64> = ew::add(z, b);
    let v: Vec<f64> = ew::mul(z, b);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::div(z, b);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::powf(z, b);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::hypot(z, b);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::atan2(z, b);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::min(z, b);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::max(z, b);
    out.extend_from_slice(&v);
    // The row first: b ⊙ z.
    let v: Vec<f64> = ew::sub(b, z);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::div(b, z);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::powf(b, z);
    out.extend_from_slice(&v);
    out
}

/// A broadcast op: its name, whether the row comes first, its value and partials.
type RowOp = (&'static str, bool, fn(f64, f64) -> f64, Partials);

/// The ops of [`row_broadcast`].
fn row_broadcast_table() -> Vec<RowOp> {
    let get = |name: &str| {
        let (_, f, p) = BINARY_STACK.iter().find(|e| e.0 == name).unwrap();
        (*f, *p)
    };
    let mut table = Vec::new();
    for name in ["add", "mul", "div", "powf", "hypot", "atan2", "min", "max"] {
        let (f, p) = get(name);
        table.push((name, false, f, p));
    }
    for name in ["sub", "div", "powf"] {
        let (f, p) = get(name);
        table.push((name, true, f, p));
    }
    table
}

/// The Jacobian of a stacked broadcast function with respect to `(z, b)` from the
/// partials, and its values.
fn row_broadcast_exact(z: &[f64], b: &[f64]) -> (Vec<f64>, Vec<Vec<f64>>) {
    let mut values = Vec::new();
    let mut blocks = Vec::new();
    for (_, row_first, f, p) in row_broadcast_table() {
        if row_first {
            values.extend((0..z.len()).map(|i| f(b[i % b.len()], z[i])));
            // Columns (b, z) → reorder to (z, b).
            let j = broadcast_jacobian(p, b, z);
            let (lb, lz) = (b.len(), z.len());
            let cols = lb + lz;
            let mut block = vec![0.0; z.len() * cols];
            for i in 0..z.len() {
                for c in 0..lz {
                    block[i * cols + c] = j[i * cols + lb + c];
                }
                for c in 0..lb {
                    block[i * cols + lz + c] = j[i * cols + c];
                }
            }
            blocks.push(block);
        } else {
            values.extend((0..z.len()).map(|i| f(z[i], b[i % b.len()])));
            blocks.push(broadcast_jacobian(p, z, b));
        }
    }
    (values, blocks)
}

#[test]
fn a_row_broadcasts_over_the_rows_of_a_matrix() {
    let (n, k) = (3, 4);
    // Positive z and b for powf both ways, no ties for min and max.
    let z = data(n * k, 4, 0.2, 2.0);
    let b = vec![0.55, 1.7, 0.9, 1.25];
    let (values, blocks) = row_broadcast_exact(&z, &b);
    assert_bits("primal", &row_broadcast(&z, &b), &values);
    let (y, jac) = lifted::jacobian(row_broadcast::Rule, (z.clone(), b.clone())).unwrap();
    assert_bits("value", &y, &values);
    let block = n * k * (n * k + k);
    assert_eq!(jac.shape(), (blocks.len() * n * k, n * k + k));
    for (m, (exact, (name, row_first, _, _))) in
        blocks.iter().zip(row_broadcast_table()).enumerate()
    {
        let got = &jac.data()[m * block..(m + 1) * block];
        assert_close(
            &format!("{name} (row first: {row_first})"),
            got,
            exact,
            1e-14,
        );
    }
    let flat = |v: &[f64]| row_broadcast(&v[..n * k], &v[n * k..]);
    let zb: Vec<f64> = z.iter().chain(&b).copied().collect();
    assert_close(
        "differences",
        jac.data(),
        &fd_jacobian(flat, &zb, 1e-6),
        1e-7,
    );
    check(row_broadcast::Rule, (z, b));
}

/// A one-element operand is a scalar.
#[autodiff(forward, chunk = 2)]
fn scalar_broadcast(x: &[f64], s: &[f64]) -> Vec<f64> {
    let scaled: Vec<f64> = ew::mul(s, x);
    ew::powf(&scaled, s)
}

#[test]
fn a_one_element_operand_is_a_scalar() {
    let x: Vec<f64> = vec![0.5, 1.5, 2.5, 0.25, 1.0];
    let s: Vec<f64> = vec![1.3];
    let c = s[0];
    let want: Vec<f64> = x.iter().map(|&v| (c * v).powf(c)).collect();
    assert_bits("primal", &scalar_broadcast(&x, &s), &want);
    let (y, jac) = lifted::jacobian(scalar_broadcast::Rule, (x.clone(), s.clone())).unwrap();
    assert_bits("value", &y, &want);
    assert_eq!(jac.shape(), (5, 6));
    for (i, &v) in x.iter().enumerate() {
        // y = (c v)^c: ∂v = c² (c v)^(c−1), ∂c = (c v)^c (ln(c v) + 1).
        let mut row = vec![0.0; 6];
        row[i] = c * c * (c * v).powf(c - 1.0);
        row[5] = (c * v).powf(c) * ((c * v).ln() + 1.0);
        assert_close(&format!("row {i}"), jac.row(i).unwrap(), &row, 1e-14);
    }
}

/// Active `z` with a constant row `b`, the constant first or second.
#[autodiff(forward, chunk = 4)]
fn with_constant_row(z: &[f64], #[constant] b: &[f64]) -> Vec<f64> {
    let mut out: Vec<f64> = ew::add(z, b);
    let v: Vec<f64> = ew::mul(z, b);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::div(b, z);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::powf(z, b);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::hypot(b, z);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::atan2(z, b);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::min(z, b);
    out.extend_from_slice(&v);
    let v: Vec<f64> = ew::max(b, z);
    out.extend_from_slice(&v);
    // Constant with constant: a constant array of the reading, then used actively.
    let bb: Vec<f64> = ew::mul(b, b);
    let v: Vec<f64> = ew::sub(z, &bb);
    out.extend_from_slice(&v);
    out
}

/// Element `i` of an op's result and its partial in `zᵢ`.
type ValueAndPartial<'a> = Box<dyn Fn(usize) -> (f64, f64) + 'a>;

#[test]
fn constant_operands_contribute_values_and_no_columns() {
    let (n, k) = (4, 3);
    let z = data(n * k, 5, 0.1, 2.0);
    let b = vec![0.8, 1.35, 0.45];
    let m = n * k;
    let bi = |i: usize| b[i % k];
    // (value, ∂/∂zᵢ) per op, in the order of the function.
    let ops: Vec<(&str, ValueAndPartial<'_>)> = vec![
        ("add", Box::new(|i| (z[i] + bi(i), 1.0))),
        ("mul", Box::new(|i| (z[i] * bi(i), bi(i)))),
        ("div", Box::new(|i| (bi(i) / z[i], -bi(i) / (z[i] * z[i])))),
        (
            "powf",
            Box::new(|i| (z[i].powf(bi(i)), bi(i) * z[i].powf(bi(i) - 1.0))),
        ),
        (
            "hypot",
            Box::new(|i| (bi(i).hypot(z[i]), z[i] / bi(i).hypot(z[i]))),
        ),
        (
            "atan2",
            Box::new(|i| (z[i].atan2(bi(i)), bi(i) / (z[i] * z[i] + bi(i) * bi(i)))),
        ),
        (
            "min",
            Box::new(|i| (z[i].min(bi(i)), if z[i] < bi(i) { 1.0 } else { 0.0 })),
        ),
        (
            "max",
            Box::new(|i| (bi(i).max(z[i]), if z[i] > bi(i) { 1.0 } else { 0.0 })),
        ),
        ("sub", Box::new(|i| (z[i] - bi(i) * bi(i), 1.0))),
    ];
    let want: Vec<f64> = ops
        .iter()
        .flat_map(|(_, f)| (0..m).map(|i| f(i).0))
        .collect();
    assert_bits("primal", &with_constant_row(&z, &b), &want);
    let (y, jac) =
        lifted::jacobian(with_constant_row::Rule, (z.clone(), Constant(b.clone()))).unwrap();
    assert_bits("value", &y, &want);
    assert_eq!(
        jac.shape(),
        (ops.len() * m, m),
        "the constant has no columns"
    );
    for (o, (name, f)) in ops.iter().enumerate() {
        let mut exact = vec![0.0; m * m];
        for i in 0..m {
            exact[i * m + i] = f(i).1;
        }
        assert_close(name, &jac.data()[o * m * m..(o + 1) * m * m], &exact, 1e-14);
    }
    // Some of each min/max branch was taken.
    assert!(z.iter().enumerate().any(|(i, &v)| v < bi(i)));
    assert!(z.iter().enumerate().any(|(i, &v)| v > bi(i)));
}

// ---------------------------------------------------------------------------------
// Chunk widths
// ---------------------------------------------------------------------------------

macro_rules! at_chunk {
    ($($name:ident = $chunk:literal),* $(,)?) => {$(
        /// `tanh(x ⊙ b + b)·exp(−x)` with a broadcast row `b`.
        #[autodiff(forward, chunk = $chunk)]
        fn $name(x: &[f64], b: &[f64]) -> Vec<f64> {
            let xb: Vec<f64> = ew::mul(x, b);
            let h: Vec<f64> = ew::add(&xb, b);
            let t: Vec<f64> = ew::tanh(&h);
            let nx: Vec<f64> = ew::neg(x);
            let e: Vec<f64> = ew::exp(&nx);
            ew::mul(&t, &e)
        }
    )*};
}

at_chunk!(chunk_1 = 1, chunk_2 = 2, chunk_3 = 3, chunk_16 = 16);

#[test]
fn every_chunk_width_gives_the_same_jacobian() {
    let x = data(8, 6, -1.0, 1.0);
    let b = vec![0.3, -0.7];
    let args = (x.clone(), b.clone());
    let (y1, reference) = lifted::jacobian(chunk_1::Rule, args.clone()).unwrap();
    for (width, (y, jac)) in [
        (2, lifted::jacobian(chunk_2::Rule, args.clone()).unwrap()),
        (3, lifted::jacobian(chunk_3::Rule, args.clone()).unwrap()),
        (16, lifted::jacobian(chunk_16::Rule, args.clone()).unwrap()),
    ] {
        assert_bits(&format!("value at chunk {width}"), &y, &y1);
        assert_bits(
            &format!("jacobian at chunk {width}"),
            jac.data(),
            reference.data(),
        );
    }
    for width in [1, 2, 3, 4, 8, 16, 64] {
        let (y, jac) = lifted::jacobian_with_chunk(chunk_3::Rule, args.clone(), width).unwrap();
        assert_bits(&format!("value, driver chunk {width}"), &y, &y1);
        assert_bits(
            &format!("jacobian, driver chunk {width}"),
            jac.data(),
            reference.data(),
        );
    }
    // And the closed form: yᵢ = tanh(xᵢ bⱼ + bⱼ) e^{−xᵢ}, j = i mod 2.
    let cols = x.len() + b.len();
    for i in 0..x.len() {
        let bj = b[i % 2];
        let t = (x[i] * bj + bj).tanh();
        let e = (-x[i]).exp();
        let dt = 1.0 - t * t;
        let mut row = vec![0.0; cols];
        row[i] = dt * bj * e - t * e;
        row[x.len() + i % 2] = dt * (x[i] + 1.0) * e;
        assert_close(&format!("row {i}"), reference.row(i).unwrap(), &row, 1e-14);
    }
    check(chunk_3::Rule, args);
}

// ---------------------------------------------------------------------------------
// A dense layer over a batch
// ---------------------------------------------------------------------------------

/// `tanh(X W + b)` for `n` rows of `X`, in array calls.
#[autodiff(forward, chunk = 4)]
fn layer(w: &[f64], b: &[f64], x: &[f64], n: usize) -> Vec<f64> {
    let k = b.len();
    let z: Vec<f64> = matmul(Mat::new(x, n, x.len() / n), Mat::new(w, w.len() / k, k));
    let h: Vec<f64> = ew::add(&z, b);
    ew::tanh(&h)
}

/// The same layer with the element-wise part written as a loop.
#[autodiff(forward, chunk = 4)]
fn layer_loop(w: &[f64], b: &[f64], x: &[f64], n: usize) -> Vec<f64> {
    let k = b.len();
    let z: Vec<f64> = matmul(Mat::new(x, n, x.len() / n), Mat::new(w, w.len() / k, k));
    let mut out: Vec<f64> = Vec::with_capacity(z.len());
    for i in 0..z.len() {
        out.push((z[i] + b[i % k]).tanh());
    }
    out
}

/// Two layers and a squared-error loss, the weights constant: a scalar of the batch.
#[autodiff(forward, chunk = 8)]
fn two_layer_loss(
    #[constant] w1: &[f64],
    #[constant] b1: &[f64],
    #[constant] w2: &[f64],
    #[constant] b2: &[f64],
    x: &[f64],
    n: usize,
) -> f64 {
    let (h1, k1, k2) = (w1.len() / b1.len(), b1.len(), b2.len());
    let z1: Vec<f64> = matmul(Mat::new(x, n, x.len() / n), Mat::new(w1, h1, k1));
    let a1: Vec<f64> = ew::tanh(&ew::add(&z1, b1));
    let z2: Vec<f64> = matmul(Mat::new(&a1, n, k1), Mat::new(w2, k1, k2));
    let y: Vec<f64> = ew::add(&z2, b2);
    let sq: Vec<f64> = ew::powi(&y, 2);
    sum(&sq)
}

#[test]
fn a_batched_layer_equals_its_loop_and_central_differences() {
    let (n, m, k) = (3, 4, 2);
    let w = data(m * k, 7, -1.0, 1.0);
    let b = data(k, 8, -0.5, 0.5);
    let x = data(n * m, 9, -1.0, 1.0);
    let args = (w.clone(), b.clone(), x.clone(), n);
    assert_bits("primal", &layer(&w, &b, &x, n), &layer_loop(&w, &b, &x, n));
    // 22 columns: the driver's wide pass, and dense passes of 4.
    let (y, jac) = lifted::jacobian(layer::Rule, args.clone()).unwrap();
    let (y_loop, jac_loop) = lifted::jacobian(layer_loop::Rule, args.clone()).unwrap();
    assert_bits("value vs loop", &y, &y_loop);
    assert_bits("jacobian vs loop", jac.data(), jac_loop.data());
    let (y4, jac4) = lifted::jacobian_with_chunk(layer::Rule, args.clone(), 4).unwrap();
    let (_, jac4_loop) = lifted::jacobian_with_chunk(layer_loop::Rule, args.clone(), 4).unwrap();
    assert_bits("value at 4", &y4, &y);
    assert_bits("jacobian at 4 vs loop", jac4.data(), jac4_loop.data());
    assert_close("jacobian at 4 vs wide", jac4.data(), jac.data(), 1e-14);

    let (lw, lb) = (w.len(), b.len());
    let flat = |v: &[f64]| layer(&v[..lw], &v[lw..lw + lb], &v[lw + lb..], n);
    let all: Vec<f64> = w.iter().chain(&b).chain(&x).copied().collect();
    assert_eq!(jac.shape(), (n * k, all.len()));
    assert_close(
        "differences",
        jac.data(),
        &fd_jacobian(flat, &all, 1e-6),
        1e-8,
    );
    check(layer::Rule, args);

    // Two layers, the batch's gradient.
    let w2 = data(k * 3, 10, -1.0, 1.0);
    let b2 = data(3, 11, -0.5, 0.5);
    let (value, grad) = lifted::gradient(
        two_layer_loss::Rule,
        (
            Constant(w.clone()),
            Constant(b.clone()),
            Constant(w2.clone()),
            Constant(b2.clone()),
            x.clone(),
            n,
        ),
    )
    .unwrap();
    let loss = |v: &[f64]| vec![two_layer_loss(&w, &b, &w2, &b2, v, n)];
    assert_eq!(value.to_bits(), loss(&x)[0].to_bits());
    assert_close("loss gradient", &grad, &fd_jacobian(loss, &x, 1e-6), 1e-8);
}

// ---------------------------------------------------------------------------------
// Shapes
// ---------------------------------------------------------------------------------

#[autodiff(forward, chunk = 2)]
fn sum_of(a: &[f64], b: &[f64]) -> Vec<f64> {
    ew::add(a, b)
}

#[test]
#[should_panic(expected = "elementwise::add: operands of lengths 5 and 3 do not broadcast")]
fn the_primal_panics_on_lengths_that_do_not_broadcast() {
    let _ = sum_of(&[1.0; 5], &[1.0; 3]);
}

#[test]
#[should_panic(expected = "operands of lengths 3 and 5 do not broadcast")]
fn the_rule_panics_on_lengths_that_do_not_broadcast() {
    let _ = lifted::jacobian(sum_of::Rule, (vec![1.0; 3], vec![1.0; 5]));
}

#[test]
#[should_panic(expected = "elementwise::add: operands of lengths 4 and 3 do not broadcast")]
fn the_rule_panics_at_a_dense_reading_called_directly() {
    let a = lifted::NDualArray::<f64, 2>::from_primal_fn(vec![1.0; 4], |_, _| 1.0);
    let b = lifted::NDualArray::<f64, 2>::from_primal_fn(vec![1.0; 3], |_, _| 1.0);
    let _ = sum_of::frule::<lifted::NDual<f64, 2>>(a.view(), b.view());
}

#[test]
#[should_panic(expected = "elementwise::mul: operands of lengths 0 and 3 do not broadcast")]
fn an_empty_operand_does_not_broadcast() {
    let _ = ew::mul(&[][..] as &[f64], &[1.0, 2.0, 3.0][..]);
}

#[test]
#[should_panic(expected = "do not broadcast")]
fn the_rule_panics_on_an_empty_operand_against_a_full_one() {
    let _ = lifted::jacobian(sum_of::Rule, (vec![1.0, 2.0], Vec::new()));
}

#[test]
fn empty_operands_of_equal_length_give_empty_results() {
    let empty: &[f64] = &[];
    assert!(ew::add(empty, empty).is_empty());
    assert!(ew::tanh(empty).is_empty());
    assert!(ew::powi(empty, 3).is_empty());
    assert!(sum_of(empty, empty).is_empty());
    let d = sum_of::frule::<lifted::NDual<f64, 2>>(
        lifted::NDualArray::<f64, 2>::new().view(),
        lifted::NDualArray::<f64, 2>::new().view(),
    );
    assert!(d.is_empty());
}

// ---------------------------------------------------------------------------------
// Second derivatives
// ---------------------------------------------------------------------------------

#[autodiff(forward, chunk = 4)]
fn tanh_of(x: &[f64]) -> Vec<f64> {
    ew::tanh(x)
}

#[autodiff(forward, chunk = 4)]
fn sum_tanh(x: &[f64]) -> f64 {
    let t: Vec<f64> = ew::tanh(x);
    sum(&t)
}

/// With a constant row broadcast over `x`: a constant operand at the nested and Taylor
/// readings.
#[autodiff(forward, chunk = 4)]
fn sum_tanh_biased(x: &[f64], #[constant] b: &[f64]) -> f64 {
    let h: Vec<f64> = ew::add(x, b);
    let t: Vec<f64> = ew::tanh(&h);
    sum(&t)
}

/// `d²/dx² tanh x = −2 tanh x (1 − tanh² x)`.
fn tanh_second(v: f64) -> f64 {
    let t = v.tanh();
    -2.0 * t * (1.0 - t * t)
}

#[test]
fn second_derivatives_of_an_array_call_at_nested_and_taylor_readings() {
    let x = data(5, 12, -2.0, 2.0);
    let n = x.len();
    let (value, grad, h) = lifted::hessian(sum_tanh::Rule, (x.clone(),)).unwrap();
    assert_eq!(value.to_bits(), sum_tanh(&x).to_bits());
    let dt: Vec<f64> = x.iter().map(|v| 1.0 / v.cosh().powi(2)).collect();
    assert_close("gradient", &grad, &dt, 1e-14);
    for i in 0..n {
        for j in 0..n {
            if i == j {
                assert_close(
                    &format!("h[{i}]"),
                    &[h[(i, i)]],
                    &[tanh_second(x[i])],
                    1e-14,
                );
            } else {
                assert_eq!(h[(i, j)], 0.0, "h[({i}, {j})]");
            }
        }
    }
    // The vector result, pure second derivatives only.
    let (y, d2) = lifted::hessian_diag(tanh_of::Rule, (x.clone(),)).unwrap();
    assert_bits("value", &y, &tanh_of(&x));
    for i in 0..n {
        let mut row = vec![0.0; n];
        row[i] = tanh_second(x[i]);
        assert_close(&format!("row {i}"), d2.row(i).unwrap(), &row, 1e-14);
    }
    // Along a direction v, at the Taylor reading: (d/dt)^k Σ tanh(xᵢ + t vᵢ).
    let v = data(n, 13, -1.0, 1.0);
    let d = lifted::derivatives_1d(sum_tanh::Rule, (x.clone(),), (v.clone(),), 2).unwrap();
    assert_eq!(d[0].to_bits(), sum_tanh(&x).to_bits());
    let first: f64 = x.iter().zip(&v).map(|(a, b)| b / a.cosh().powi(2)).sum();
    let second: f64 = x.iter().zip(&v).map(|(a, b)| b * b * tanh_second(*a)).sum();
    assert_close("taylor", &d[1..], &[first, second], 1e-13);

    // A constant row broadcast over x: the same, shifted.
    let (x, v, n) = (data(6, 14, -2.0, 2.0), data(6, 15, -1.0, 1.0), 6);
    let row = vec![0.4, -0.9];
    let shifted: Vec<f64> = (0..n).map(|i| x[i] + row[i % 2]).collect();
    let args = (x.clone(), Constant(row.clone()));
    let (value, _, h) = lifted::hessian(sum_tanh_biased::Rule, args.clone()).unwrap();
    assert_eq!(value.to_bits(), sum_tanh_biased(&x, &row).to_bits());
    for i in 0..n {
        for j in 0..n {
            let want = if i == j { tanh_second(shifted[i]) } else { 0.0 };
            assert_close(
                &format!("biased h[({i}, {j})]"),
                &[h[(i, j)]],
                &[want],
                1e-14,
            );
        }
    }
    let d =
        lifted::derivatives_1d(sum_tanh_biased::Rule, args, (v.clone(), Constant(row)), 2).unwrap();
    let second: f64 = shifted
        .iter()
        .zip(&v)
        .map(|(a, b)| b * b * tanh_second(*a))
        .sum();
    assert_close("biased taylor", &d[2..], &[second], 1e-13);
}

// ---------------------------------------------------------------------------------
// f32
// ---------------------------------------------------------------------------------

#[autodiff(forward, chunk = 2)]
fn layer_f32(x: &[f32], #[constant] b: &[f32]) -> Vec<f32> {
    let h: Vec<f32> = ew::add(x, b);
    ew::tanh(&h)
}

#[test]
fn single_precision_works_the_same() {
    let x = vec![0.25f32, -0.5, 1.0, 0.75];
    let b = vec![0.1f32, -0.2];
    let (y, jac) = lifted::jacobian(layer_f32::Rule, (x.clone(), Constant(b.clone()))).unwrap();
    for i in 0..4 {
        let t = (x[i] + b[i % 2]).tanh();
        assert_eq!(y[i].to_bits(), t.to_bits());
        assert!((jac[(i, i)] - (1.0 - t * t)).abs() < 1e-6);
    }
}
