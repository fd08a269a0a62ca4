//! The test functions ForwardDiff.jl and the other JuliaDiff packages are checked
//! with (JuliaDiff/DiffTests.jl, src/DiffTests.jl), translated from Julia: 1-based
//! indices shifted, broadcasts written as loops or iterator chains, the in-place
//! `f!(y, x)` functions as `&mut [f64]` parameters. The Julia name is given above
//! each.

use lifted::autodiff;
use std::f64::consts::PI;

// num2num_1(x) = sin(x)^2 / cos(x)^2
/// tan² through sines and cosines.
#[autodiff(forward)]
pub fn num2num_1(x: f64) -> f64 {
    x.sin().powi(2) / x.cos().powi(2)
}

// num2num_2(x) = 2*x + sqrt(x*x*x)
/// 2x + x^(3/2).
#[autodiff(forward)]
pub fn num2num_2(x: f64) -> f64 {
    2.0 * x + (x * x * x).sqrt()
}

// num2num_3(x) = 10.31^(x + x) - x
/// A constant base raised to a lifted power.
#[autodiff(forward)]
pub fn num2num_3(x: f64) -> f64 {
    10.31_f64.powf(x + x) - x
}

// num2num_5(x) = 1. / (1. + exp(-x))
/// The logistic function.
#[autodiff(forward)]
pub fn num2num_5(x: f64) -> f64 {
    1. / (1. + (-x).exp())
}

// num2arr_1(x): eight values built from the num2num functions.
/// A vector of the scalar test functions.
#[autodiff(forward)]
pub fn num2arr_1(x: f64) -> Vec<f64> {
    vec![
        num2num_1(x),
        num2num_2(x),
        num2num_3(x),
        num2num_1(x) - num2num_2(x),
        num2num_2(x),
        num2num_3(x),
        num2num_2(x),
        num2num_3(x),
    ]
}

// num2arr_1!(y, x): fill!(y, 0); y[i] = (sin(x) + y[i-1])^2
/// An in-place recurrence from a scalar.
#[autodiff(forward)]
pub fn num2arr_1_in_place(y: &mut [f64], x: f64) {
    for v in y.iter_mut() {
        *v = 0.0;
    }
    for i in 1..y.len() {
        y[i] = (x.sin() + y[i - 1]).powi(2);
    }
}

// vec2num_1(x) = (exp(x[1]) + log(x[3]) * x[4]) / x[5]
/// A few entries combined.
#[autodiff(forward)]
pub fn vec2num_1(x: &[f64]) -> f64 {
    (x[0].exp() + x[2].ln() * x[3]) / x[4]
}

// vec2num_2(x) = x[1]*x[2] + sin(x[1])
/// Two entries only.
#[autodiff(forward)]
pub fn vec2num_2(x: &[f64]) -> f64 {
    x[0] * x[1] + x[0].sin()
}

// vec2num_3(x) = norm(x' .* x)
/// The Frobenius norm of the outer product x xᵀ.
#[autodiff(forward)]
pub fn vec2num_3(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for &a in x {
        for &b in x {
            s += (a * b) * (a * b);
        }
    }
    s.sqrt()
}

// vec2num_4(x) = ((sum(x) + prod(x)); 1)
/// A result that does not depend on the input.
#[autodiff(forward)]
pub fn vec2num_4(x: &[f64]) -> f64 {
    let _ = x.iter().sum::<f64>() + x.iter().product::<f64>();
    1.0
}

// vec2num_5(x) = sum((-x).^3)
/// Σ (−xᵢ)³.
#[autodiff(forward)]
pub fn vec2num_5(x: &[f64]) -> f64 {
    x.iter().map(|v| (-v).powi(3)).sum()
}

// vec2num_6(x) = sum([ifelse(i > 0, i, 0) for i in x])
/// The sum of the positive entries.
#[autodiff(forward)]
pub fn vec2num_6(x: &[f64]) -> f64 {
    x.iter().map(|&i| if i > 0.0 { i } else { 0.0 }).sum()
}

// vec2num_7(x) = sum(map(y -> x[1] * y, x))
/// A closure capturing an entry of its own argument.
#[autodiff(forward)]
pub fn vec2num_7(x: &[f64]) -> f64 {
    x.iter().map(|y| x[0] * y).sum()
}

// rosenbrock_1(x): a = one(eltype(x)); b = 100a; loop over i.
/// Rosenbrock with the parameters bound to locals.
#[autodiff(forward)]
pub fn rosenbrock_1(x: &[f64]) -> f64 {
    let a = 1.0;
    let b = 100.0 * a;
    let mut result = 0.0;
    for i in 0..x.len() - 1 {
        result += (a - x[i]).powi(2) + b * (x[i + 1] - x[i].powi(2)).powi(2);
    }
    result
}

// rosenbrock_2(x): a = x[1]; b = 100a; map over x[2:end], x[1:end-1].
/// Rosenbrock whose parameters are the first entry.
#[autodiff(forward)]
pub fn rosenbrock_2(x: &[f64]) -> f64 {
    let a = x[0];
    let b = 100.0 * a;
    let n = x.len();
    x[1..]
        .iter()
        .zip(x[..n - 1].iter())
        .map(|(i, j)| (a - j).powi(2) + b * (i - j.powi(2)).powi(2))
        .sum()
}

// rosenbrock_3(x) = sum(map((i, j) -> (1 - j)^2 + 100*(i - j^2)^2, x[2:end], x[1:end-1]))
/// Rosenbrock over shifted sub-slices, by index.
#[autodiff(forward)]
pub fn rosenbrock_3(x: &[f64]) -> f64 {
    let head = &x[..x.len() - 1];
    let tail = &x[1..];
    let mut s = 0.0;
    for k in 0..head.len() {
        s += (1.0 - head[k]).powi(2) + 100.0 * (tail[k] - head[k].powi(2)).powi(2);
    }
    s
}

// rosenbrock_4(x): t1 = (1 .+ x[1:end-1]).^2; t2 = x[2:end] .+ (x[1:end-1]).^2;
// sum(t1 .+ 100 .* (abs.(t2)).^2)
/// A Rosenbrock variant through collected temporaries.
#[autodiff(forward)]
pub fn rosenbrock_4(x: &[f64]) -> f64 {
    let n = x.len();
    let t1: Vec<f64> = (0..n - 1).map(|i| (1.0 + x[i]).powi(2)).collect();
    let t2: Vec<f64> = (0..n - 1).map(|i| x[i + 1] + x[i].powi(2)).collect();
    let mut s = 0.0;
    for i in 0..n - 1 {
        s += t1[i] + 100.0 * t2[i].abs().powi(2);
    }
    s
}

// ackley(x): a, b, c = 20.0, -0.2, 2.0*π; accumulate in a loop over x.
/// Ackley with accumulating loops.
#[autodiff(forward)]
pub fn ackley(x: &[f64]) -> f64 {
    let (a, b, c) = (20.0, -0.2, 2.0 * PI);
    let len_recip = 1.0 / x.len() as f64;
    let mut sum_sqrs = 0.0;
    let mut sum_cos = 0.0;
    for &i in x {
        sum_cos += (c * i).cos();
        sum_sqrs += i * i;
    }
    -a * (b * (len_recip * sum_sqrs).sqrt()).exp() - (len_recip * sum_cos).exp() + a + 1f64.exp()
}

// self_weighted_logit(x) = inv(1.0 + exp(-dot(x, x)))
/// The logistic function of ‖x‖².
#[autodiff(forward)]
pub fn self_weighted_logit(x: &[f64]) -> f64 {
    let d: f64 = x.iter().map(|v| v * v).sum();
    1.0 / (1.0 + (-d).exp())
}

// mat2num_3(x) = sum(map(n -> sqrt(abs(n) + n^2) * 0.5, A))
/// An element-wise map summed over a matrix.
#[autodiff(forward)]
pub fn mat2num_3(x: &[f64]) -> f64 {
    x.iter().map(|&n| (n.abs() + n * n).sqrt() * 0.5).sum()
}

// mat2num_4(x) = mean(sum(sin.(x) * x, dims=2))
/// The mean row sum of sin(X)·X, X square and flat row-major.
#[autodiff(forward)]
pub fn mat2num_4(x: &[f64], n: usize) -> f64 {
    let mut total = 0.0;
    for i in 0..n {
        for j in 0..n {
            let mut p = 0.0;
            for k in 0..n {
                p += x[i * n + k].sin() * x[k * n + j];
            }
            total += p;
        }
    }
    total / n as f64
}

// softmax(x) = sum(exp.(x) ./ sum(exp.(x), dims=2))
/// The sum of a row-wise softmax (equal to the number of rows).
#[autodiff(forward)]
pub fn softmax_rows_sum(x: &[f64], cols: usize) -> f64 {
    let rows = x.len() / cols;
    let mut s = 0.0;
    for r in 0..rows {
        let row = &x[r * cols..(r + 1) * cols];
        let z: f64 = row.iter().map(|v| v.exp()).sum();
        for v in row {
            s += v.exp() / z;
        }
    }
    s
}

// neural_step(x1, w1, w2) = sigmoid(dot(w2[1:size(w1, 2)], relu(w1 * x1[1:size(w1, 2)])))
// with relu(x) = log.(1.0 .+ exp.(x)) and sigmoid(n) = 1. / (1. + exp.(-n)).
/// One neural step, W₁ square and flat.
#[autodiff(forward)]
pub fn neural_step(x1: &[f64], w1: &[f64], w2: &[f64]) -> f64 {
    let n = w2.len();
    let mut dot = 0.0;
    for i in 0..n {
        let mut z = 0.0;
        for j in 0..n {
            z += w1[i * n + j] * x1[j];
        }
        dot += w2[i] * (1.0 + z.exp()).ln();
    }
    1. / (1. + (-dot).exp())
}

// chebyquad!(y, x)
/// The Chebyquad residuals, in place.
#[autodiff(forward)]
pub fn chebyquad_in_place(y: &mut [f64], x: &[f64]) {
    let tk = 1.0 / x.len() as f64;
    for j in 0..x.len() {
        let mut temp1 = 1.0;
        let mut temp2 = 2.0 * x[j] - 1.0;
        let temp = 2.0 * temp2;
        for i in 0..y.len() {
            y[i] += temp2;
            let ti = temp * temp2 - temp1;
            temp1 = temp2;
            temp2 = ti;
        }
    }
    let mut iev = -1.0;
    for k in 0..y.len() {
        y[k] *= tk;
        if iev > 0.0 {
            y[k] += 1.0 / (((k + 1) * (k + 1)) as f64 - 1.0);
        }
        iev = -iev;
    }
}

// chebyquad(x) = (y = fill(zero(eltype(x)), size(x)); chebyquad!(y, x); return y)
/// The Chebyquad residuals as a new vector.
#[autodiff(forward)]
pub fn chebyquad(x: &[f64]) -> Vec<f64> {
    let mut y = vec![0.0; x.len()];
    chebyquad_in_place(&mut y, x);
    y
}

// brown_almost_linear!(y, x)
/// Brown's almost-linear function, in place.
#[autodiff(forward)]
pub fn brown_almost_linear_in_place(y: &mut [f64], x: &[f64]) {
    let c = x.iter().sum::<f64>() - (x.len() + 1) as f64;
    for i in 0..x.len() - 1 {
        for j in 0..y.len() - 1 {
            y[j] += x[i] + c;
        }
    }
    let last = y.len() - 1;
    y[last] = x.iter().product::<f64>() - 1.0;
}

// trigonometric!(y, x)
/// The trigonometric function, in place.
#[autodiff(forward)]
pub fn trigonometric_in_place(y: &mut [f64], x: &[f64]) {
    for &xi in x {
        for j in 0..y.len() {
            y[j] = xi.cos();
        }
    }
    let c: f64 = y.iter().sum();
    let n = x.len() as f64;
    for &xi in x {
        for j in 0..y.len() {
            y[j] = xi.sin() * y[j] + n - c;
        }
    }
}

// mutation_test_1!(y, x)
/// Writes and reads back in place.
#[autodiff(forward)]
pub fn mutation_test_1(y: &mut [f64], x: &[f64]) {
    y[0] = x[0];
    y[0] *= x[1];
    y[1] *= x[2];
    y[2] = y.iter().sum();
}

// mutation_test_2!(y, x)
/// Compound assignments in place.
#[autodiff(forward)]
pub fn mutation_test_2(y: &mut [f64], x: &[f64]) {
    y[0] *= x[0];
    y[1] *= x[0];
    y[0] *= x[1];
    y[1] *= x[1];
}

crate::cases! {
    num2num_1(0.7),
    num2num_2(1.3),
    num2num_3(0.4),
    num2num_5(-0.6),
    num2arr_1(0.7),
    num2arr_1_in_place(&[0.5, 0.2, 0.1, 0.3], 0.7),
    vec2num_1(&[0.3, 0.5, 1.7, 0.9, 2.2]),
    vec2num_2(&[0.3, 0.5, 1.7, 0.9, 2.2]),
    vec2num_3(&[0.3, 0.5, 1.7, 0.9, 2.2]),
    vec2num_4(&[0.3, 0.5, 1.7, 0.9, 2.2]),
    vec2num_5(&[0.3, -0.5, 1.7, 0.9, 2.2]),
    vec2num_6(&[0.3, -0.5, 1.7, -0.9, 2.2]),
    vec2num_7(&[0.3, -0.5, 1.7, 0.9, 2.2]),
    rosenbrock_1(&[0.3, 0.5, 1.7, 0.9, 1.2]),
    rosenbrock_2(&[0.3, 0.5, 1.7, 0.9, 1.2]),
    rosenbrock_3(&[0.3, 0.5, 1.7, 0.9, 1.2]),
    rosenbrock_4(&[0.3, -0.5, 1.7, 0.9, 1.2]),
    ackley(&[0.3, -0.5, 1.7, 0.9, 1.2]),
    self_weighted_logit(&[0.3, -0.5, 0.7, 0.2, 0.4]),
    mat2num_3(&[0.3, -0.5, 1.7, 0.9]),
    mat2num_4(&[0.3, -0.5, 1.7, 0.9, 0.1, -1.2, 0.6, 0.8, 1.1], 3),
    softmax_rows_sum(&[0.3, -0.5, 1.7, 0.9, 0.1, -1.2], 3),
    neural_step(&[0.3, -0.5, 1.1], &[0.2, -0.4, 0.6, 0.1, 0.3, -0.2, 0.5, 0.7, -0.1], &[0.4, -0.6, 0.9]),
    chebyquad_in_place(&[0.0, 0.0, 0.0, 0.0, 0.0], &[0.1, 0.3, 0.45, 0.7, 0.85]),
    chebyquad(&[0.1, 0.3, 0.45, 0.7, 0.85]),
    brown_almost_linear_in_place(&[0.0, 0.0, 0.0, 0.0, 0.0], &[0.9, 1.1, 1.3, 0.7, 1.2]),
    trigonometric_in_place(&[1.0, 1.0, 1.0, 1.0, 1.0], &[0.2, 0.5, 0.9, 1.3, 0.4]),
    mutation_test_1(&[0.5, 1.5, 0.2], &[0.3, 0.7, 1.1]),
    mutation_test_2(&[0.5, 1.5], &[0.3, 0.7]),
}
