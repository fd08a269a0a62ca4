//! The drivers (`lifted::jvp`, `gradient`, `jacobian`, …) against closed forms and
//! central finite differences, at several chunk widths; bitwise agreement between
//! widths; in-place functions; constant arguments; errors instead of panics.

use lifted::drivers::{Driver, Jacobian};
use lifted::testing::SplitMix64;
use lifted::{Constant, Error, FRule, Param, Reading, autodiff};
use lifted_tests::alloc_counter::{CountingAllocator, allocations_on_this_thread, is_counting};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

// ---------------------------------------------------------------------------------
// Functions under test
// ---------------------------------------------------------------------------------

/// W2's Rosenbrock function.
#[autodiff(forward, chunk = 8)]
pub fn rosenbrock(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        s += (1.0 - x[i]).powi(2) + 100.0 * (x[i + 1] - x[i] * x[i]).powi(2);
    }
    s
}

/// Its gradient, by hand.
fn rosenbrock_gradient(x: &[f64]) -> Vec<f64> {
    let n = x.len();
    let mut g = vec![0.0; n];
    for i in 0..n - 1 {
        g[i] += -2.0 * (1.0 - x[i]) - 400.0 * x[i] * (x[i + 1] - x[i] * x[i]);
        g[i + 1] += 200.0 * (x[i + 1] - x[i] * x[i]);
    }
    g
}

/// Σ sin(xᵢ)·yⁱ + y·exp(x₀x₁): a vector and a scalar argument.
#[autodiff(forward, chunk = 4)]
fn mixed(x: &[f64], y: f64) -> f64 {
    let mut s = 0.0;
    let mut p = 1.0;
    for &v in x {
        s += v.sin() * p;
        p *= y;
    }
    s + y * (x[0] * x[1]).exp()
}

/// The gradient of [`mixed`] by hand: ∂/∂x then ∂/∂y.
fn mixed_gradient(x: &[f64], y: f64) -> Vec<f64> {
    let e = (x[0] * x[1]).exp();
    let mut g: Vec<f64> = (0..x.len())
        .map(|i| x[i].cos() * y.powi(i as i32))
        .collect();
    g[0] += y * x[1] * e;
    g[1] += y * x[0] * e;
    let dy: f64 = (1..x.len())
        .map(|i| x[i].sin() * i as f64 * y.powi(i as i32 - 1))
        .sum();
    g.push(dy + e);
    g
}

/// A vector field: outᵢ = xᵢ·x₍ᵢ₊₁₎ mod n + t·cos(xᵢ).
#[autodiff(forward, chunk = 4)]
fn field(x: &[f64], t: f64) -> Vec<f64> {
    let n = x.len();
    let mut out = vec![0.0; n];
    for i in 0..n {
        out[i] = x[i] * x[(i + 1) % n] + t * x[i].cos();
    }
    out
}

/// The Jacobian of [`field`] by hand (n ≥ 3), row-major, columns x then t.
fn field_jacobian(x: &[f64], t: f64) -> Vec<f64> {
    let n = x.len();
    let cols = n + 1;
    let mut j = vec![0.0; n * cols];
    for i in 0..n {
        let next = (i + 1) % n;
        j[i * cols + i] += x[next] - t * x[i].sin();
        j[i * cols + next] += x[i];
        j[i * cols + n] = x[i].cos();
    }
    j
}

/// exp(x²)·sin(x).
#[autodiff(forward)]
fn bump(x: f64) -> f64 {
    (x * x).exp() * x.sin()
}

fn bump_derivative(x: f64) -> f64 {
    (x * x).exp() * (2.0 * x * x.sin() + x.cos())
}

/// A curve: a tuple result of one scalar.
#[autodiff(forward)]
fn curve(t: f64) -> (f64, f64, f64) {
    (t.cos(), t.sin(), t * t)
}

/// Updates `y` in place.
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

/// Weights and a scale that are never differentiated.
#[autodiff(forward)]
fn weighted(x: &[f64], #[constant] w: &[f64], #[constant] scale: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += w[i] * x[i] * x[i];
    }
    scale * s
}

/// An integer argument.
#[autodiff(forward)]
fn power(x: f64, n: u32) -> f64 {
    if n == 0 { 1.0 } else { x * power(x, n - 1) }
}

/// Fixed arrays in and out.
#[autodiff(forward)]
fn polar(p: [f64; 2]) -> [f64; 2] {
    let [r, t] = p;
    [r * t.cos(), r * t.sin()]
}

/// Scalars and a fixed array: nothing to allocate.
#[autodiff(forward, chunk = 2)]
fn scalars(a: f64, b: f64, p: [f64; 3]) -> f64 {
    a * b.sin() + p[0] * p[1] - p[2].exp() * a
}

/// Single precision.
#[autodiff(forward)]
fn single(x: f32, y: f32) -> f32 {
    (x * y).sin() + 2.0 * x.exp() - y / 3.0
}

/// A hand-written rule with an impossible default width.
#[derive(Clone, Copy)]
struct ZeroChunk;

impl FRule for ZeroChunk {
    type Float = f64;
    type Args = (f64,);
    type Output = f64;
    const CHUNK: usize = 0;
    const NAME: &'static str = "zero_chunk";
    fn primal(self, args: &mut (f64,)) -> f64 {
        args.0 * args.0
    }
    fn frule<D: Reading<f64>>(self, args: &mut (D,)) -> D {
        args.0 * args.0
    }
}

// ---------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------

/// Widths asked for at run time.
const WIDTHS: [usize; 5] = [1, 2, 3, 8, 64];

fn flat<P: Param<f64>>(p: &P) -> Vec<f64> {
    let mut v = Vec::new();
    p.flatten(&mut v);
    v
}

/// Central differences of the primal along `dir` (flattened like the arguments):
/// the derivative of the result and of the arguments after the call.
fn fd_directional<R: FRule<Float = f64>>(
    rule: R,
    args: &R::Args,
    dir: &[f64],
) -> (Vec<f64>, Vec<f64>) {
    let x0 = flat(args);
    let h = 1e-6 * x0.iter().fold(1.0f64, |m, v| m.max(v.abs()));
    let eval = |s: f64| {
        let mut a = args.clone();
        let moved: Vec<f64> = x0.iter().zip(dir).map(|(x, d)| x + s * d).collect();
        a.unflatten(&mut moved.into_iter());
        let out = rule.primal(&mut a);
        (flat(&out), flat(&a))
    };
    let (op, ap) = eval(h);
    let (om, am) = eval(-h);
    let d = |p: Vec<f64>, m: Vec<f64>| -> Vec<f64> {
        p.iter().zip(&m).map(|(a, b)| (a - b) / (2.0 * h)).collect()
    };
    (d(op, om), d(ap, am))
}

/// The Jacobian of the result by central differences, row-major.
fn fd_jacobian<R: FRule<Float = f64>>(rule: R, args: &R::Args) -> Vec<f64> {
    let n = args.dim();
    let cols: Vec<Vec<f64>> = (0..n)
        .map(|j| {
            let mut e = vec![0.0; n];
            e[j] = 1.0;
            fd_directional(rule, args, &e).0
        })
        .collect();
    let m = cols.first().map_or(0, Vec::len);
    (0..m)
        .flat_map(|i| cols.iter().map(move |c| c[i]))
        .collect()
}

#[track_caller]
fn assert_close(what: &str, got: &[f64], want: &[f64], rtol: f64) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    let scale = want.iter().fold(1.0f64, |m, v| m.max(v.abs()));
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= rtol * scale,
            "{what}[{i}]: {g} vs {w} (rtol {rtol}, scale {scale})"
        );
    }
}

#[track_caller]
fn assert_bits(what: &str, got: &[f64], want: &[f64]) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert_eq!(g.to_bits(), w.to_bits(), "{what}[{i}]: {g} vs {w}");
    }
}

fn point(rng: &mut SplitMix64, n: usize, lo: f64, hi: f64) -> Vec<f64> {
    (0..n).map(|_| rng.uniform(lo, hi)).collect()
}

const CLOSED: f64 = 1e-12;
const FD: f64 = 1e-7;

// ---------------------------------------------------------------------------------
// jvp, jvp_mut, jvp_many, jvp_chunk, derivative
// ---------------------------------------------------------------------------------

#[test]
fn jvp_against_closed_form_and_differences() {
    let mut rng = SplitMix64::new(11);
    for _ in 0..5 {
        let x = point(&mut rng, 4, -1.0, 1.0);
        let y = rng.uniform(0.5, 1.5);
        let dx = point(&mut rng, 4, -1.0, 1.0);
        let dy = rng.uniform(-1.0, 1.0);
        let (value, slope) = lifted::jvp(mixed::Rule, (&x, y), (&dx, dy)).unwrap();
        assert_eq!(value.to_bits(), mixed(&x, y).to_bits());
        let g = mixed_gradient(&x, y);
        let exact: f64 = g[..4].iter().zip(&dx).map(|(g, d)| g * d).sum::<f64>() + g[4] * dy;
        assert_close("jvp vs closed form", &[slope], &[exact], CLOSED);
        let mut dir = dx.clone();
        dir.push(dy);
        let (fd, _) = fd_directional(mixed::Rule, &(x.clone(), y), &dir);
        assert_close("jvp vs differences", &[slope], &fd, FD);
    }
}

#[test]
fn jvp_of_vector_results() {
    let x = vec![0.3, -0.7, 1.1, 0.4];
    let t = 0.8;
    let dx = vec![1.0, -0.5, 0.25, 2.0];
    let dt = -0.3;
    let (out, tangent) = lifted::jvp(field::Rule, (&x, t), (&dx, dt)).unwrap();
    assert_bits("primal", &out, &field(&x, t));
    let jac = field_jacobian(&x, t);
    let mut dir = dx.clone();
    dir.push(dt);
    let exact: Vec<f64> = (0..4)
        .map(|i| (0..5).map(|j| jac[i * 5 + j] * dir[j]).sum())
        .collect();
    assert_close("vector jvp vs closed form", &tangent, &exact, CLOSED);
    let (fd, _) = fd_directional(field::Rule, &(x, t), &dir);
    assert_close("vector jvp vs differences", &tangent, &fd, FD);
}

#[test]
fn jvp_through_integer_and_constant_arguments() {
    // d/dx xⁿ = n xⁿ⁻¹; the integer has no tangent (anything of its type will do).
    let (value, slope) = lifted::jvp(power::Rule, (1.5, 4u32), (1.0, 0u32)).unwrap();
    assert_eq!(value, 1.5f64.powi(4));
    assert_close("power", &[slope], &[4.0 * 1.5f64.powi(3)], CLOSED);
    // Constant arguments: their tangent slots are ignored.
    let x = vec![0.5, -1.0, 2.0];
    let w = vec![1.0, 2.0, 3.0];
    let dx = vec![1.0, 1.0, 1.0];
    let (_, slope) = lifted::jvp(weighted::Rule, (&x, &w, 2.0), (&dx, &w, 123.0)).unwrap();
    let exact: f64 = (0..3).map(|i| 2.0 * 2.0 * w[i] * x[i] * dx[i]).sum();
    assert_close("weighted", &[slope], &[exact], CLOSED);
}

#[test]
fn jvp_mut_updates_arguments_and_their_tangents() {
    let mut rng = SplitMix64::new(5);
    for _ in 0..4 {
        let y0 = point(&mut rng, 5, -0.8, 0.8);
        let x = point(&mut rng, 5, -0.8, 0.8);
        let dy = point(&mut rng, 5, -1.0, 1.0);
        let dx = point(&mut rng, 5, -1.0, 1.0);
        let start = (y0.clone(), x.clone());
        let mut args = start.clone();
        let mut tangents = (dy.clone(), dx.clone());
        let ((), ()) = lifted::jvp_mut(in_place::Rule, &mut args, &mut tangents).unwrap();
        // The primal state is the primal function's, bit for bit.
        let mut y = y0.clone();
        in_place(&mut y, &x);
        assert_bits("y after", &args.0, &y);
        assert_bits("x after", &args.1, &x);
        // Closed form: yᵢ ← tanh(cᵢ (1 + xᵢ) yᵢ), c₀ = 2, cᵢ = 1 otherwise.
        let exact: Vec<f64> = (0..5)
            .map(|i| {
                let c = if i == 0 { 2.0 } else { 1.0 };
                (1.0 - y[i] * y[i]) * c * ((1.0 + x[i]) * dy[i] + y0[i] * dx[i])
            })
            .collect();
        assert_close("in-place tangent", &tangents.0, &exact, CLOSED);
        assert_bits("read-only tangent", &tangents.1, &dx);
        let mut dir = dy.clone();
        dir.extend_from_slice(&dx);
        let (_, fd_args) = fd_directional(in_place::Rule, &start, &dir);
        assert_close(
            "in-place tangent vs differences",
            &tangents.0,
            &fd_args[..5],
            FD,
        );
    }
    // Plain `jvp` of an in-place function runs on a copy.
    let args = (vec![0.5, 0.5], vec![1.0, 1.0]);
    let ((), ()) = lifted::jvp(in_place::Rule, &args, &args).unwrap();
    assert_eq!(args.0, [0.5, 0.5]);
}

#[test]
fn jvp_many_equals_one_jvp_per_direction_bit_for_bit() {
    let mut rng = SplitMix64::new(3);
    let x = point(&mut rng, 6, -1.0, 1.0);
    let t = 0.4;
    let dirs: Vec<(Vec<f64>, f64)> = (0..11)
        .map(|_| (point(&mut rng, 6, -1.0, 1.0), rng.uniform(-1.0, 1.0)))
        .collect();
    let singles: Vec<Vec<f64>> = dirs
        .iter()
        .map(|d| lifted::jvp(field::Rule, (&x, t), d).unwrap().1)
        .collect();
    let (out, many) = lifted::jvp_many(field::Rule, (&x, t), &dirs).unwrap();
    assert_bits("primal", &out, &field(&x, t));
    assert_eq!(many.len(), 11);
    for (k, (m, s)) in many.iter().zip(&singles).enumerate() {
        assert_bits(&format!("default width, direction {k}"), m, s);
    }
    for width in WIDTHS {
        let (_, many) = Driver::new(field::Rule)
            .width(width)
            .jvp_many((&x, t), &dirs)
            .unwrap();
        for (k, (m, s)) in many.iter().zip(&singles).enumerate() {
            assert_bits(&format!("width {width}, direction {k}"), m, s);
        }
    }
    // Against differences.
    for (d, m) in dirs.iter().zip(&many) {
        let mut dir = d.0.clone();
        dir.push(d.1);
        let (fd, _) = fd_directional(field::Rule, &(x.clone(), t), &dir);
        assert_close("jvp_many vs differences", m, &fd, FD);
    }
    // No directions: the value alone.
    let (out, none) = lifted::jvp_many(field::Rule, (&x, t), &[]).unwrap();
    assert_bits("primal, no directions", &out, &field(&x, t));
    assert!(none.is_empty());
}

#[test]
fn jvp_chunk_at_fixed_widths() {
    let x = vec![0.2, 0.9, -0.4];
    let y = 1.3;
    let g = mixed_gradient(&x, y);
    // The four coordinate directions at once, width 4.
    let dirs: [(Vec<f64>, f64); 4] = core::array::from_fn(|k| {
        let mut d = vec![0.0; 3];
        if k < 3 {
            d[k] = 1.0;
        }
        (d, if k == 3 { 1.0 } else { 0.0 })
    });
    let (value, slopes) = lifted::jvp_chunk(mixed::Rule, (&x, y), &dirs).unwrap();
    assert_eq!(value.to_bits(), mixed(&x, y).to_bits());
    assert_close("jvp_chunk::<4> vs closed form", &slopes, &g, CLOSED);
    // An odd width, 3, and bitwise against width 1.
    let three = [dirs[0].clone(), dirs[2].clone(), dirs[3].clone()];
    let (_, s3) = lifted::jvp_chunk(mixed::Rule, (&x, y), &three).unwrap();
    for (k, d) in three.iter().enumerate() {
        let (_, [s1]) = lifted::jvp_chunk(mixed::Rule, (&x, y), core::array::from_ref(d)).unwrap();
        assert_eq!(s3[k].to_bits(), s1.to_bits());
    }
}

#[test]
fn derivative_against_closed_form_and_differences() {
    for x in [-1.3, -0.2, 0.0, 0.7, 1.9] {
        let (value, slope) = lifted::derivative(bump::Rule, x).unwrap();
        assert_eq!(value.to_bits(), bump(x).to_bits());
        assert_close("derivative", &[slope], &[bump_derivative(x)], CLOSED);
        let (fd, _) = fd_directional(bump::Rule, &(x,), &[1.0]);
        assert_close("derivative vs differences", &[slope], &fd, FD);
    }
    // A tuple result: the derivative has the result's type.
    let (p, dp) = lifted::derivative(curve::Rule, 0.6).unwrap();
    assert_eq!(p, curve(0.6));
    assert_close(
        "curve",
        &flat(&dp),
        &[-(0.6f64.sin()), 0.6f64.cos(), 1.2],
        CLOSED,
    );
}

// ---------------------------------------------------------------------------------
// gradient
// ---------------------------------------------------------------------------------

#[test]
fn rosenbrock_gradient_matches_the_analytic_one_at_every_width() {
    let mut rng = SplitMix64::new(2);
    for n in [16, 256] {
        let x = point(&mut rng, n, -1.5, 1.5);
        let exact = rosenbrock_gradient(&x);
        let (value, reference) = lifted::gradient(rosenbrock::Rule, &x).unwrap();
        assert_eq!(value.to_bits(), rosenbrock(&x).to_bits());
        assert_close(&format!("n = {n}"), &reference, &exact, CLOSED);
        for width in WIDTHS {
            let (v, g) = lifted::gradient_with_chunk(rosenbrock::Rule, &x, width).unwrap();
            assert_eq!(v.to_bits(), value.to_bits());
            // Lanes are independent: every width gives the same bits.
            assert_bits(&format!("n = {n}, width {width}"), &g, &reference);
        }
    }
    // Against differences, at n = 16.
    let x = point(&mut rng, 16, -1.5, 1.5);
    let (_, g) = lifted::gradient(rosenbrock::Rule, &x).unwrap();
    let fd = fd_jacobian(rosenbrock::Rule, &(x.clone(),));
    assert_close("rosenbrock vs differences", &g, &fd, FD);
}

#[test]
fn gradient_over_several_arguments() {
    let mut rng = SplitMix64::new(7);
    for _ in 0..3 {
        let x = point(&mut rng, 5, -1.0, 1.0);
        let y = rng.uniform(0.5, 1.2);
        let exact = mixed_gradient(&x, y);
        let fd = fd_jacobian(mixed::Rule, &(x.clone(), y));
        for width in WIDTHS {
            let (value, g) = lifted::gradient_with_chunk(mixed::Rule, (&x, y), width).unwrap();
            assert_eq!(value.to_bits(), mixed(&x, y).to_bits());
            assert_close(&format!("width {width}"), &g, &exact, CLOSED);
            assert_close(&format!("width {width} vs differences"), &g, &fd, FD);
        }
    }
}

#[test]
fn gradient_of_single_precision() {
    let (x, y) = (0.4f32, 0.8f32);
    for width in WIDTHS {
        let (value, g) = lifted::gradient_with_chunk(single::Rule, (x, y), width).unwrap();
        assert_eq!(value.to_bits(), single(x, y).to_bits());
        let exact = [
            y * (x * y).cos() + 2.0 * x.exp(),
            x * (x * y).cos() - 1.0 / 3.0,
        ];
        for (a, b) in g.iter().zip(exact) {
            assert!((a - b).abs() <= 1e-5, "{a} vs {b}");
        }
        // Differences in f64 of the f32 function are too coarse; one-sided in f32
        // with a large step is enough to catch a wrong derivative.
        let h = 1e-2f32;
        let fd = [
            (single(x + h, y) - single(x - h, y)) / (2.0 * h),
            (single(x, y + h) - single(x, y - h)) / (2.0 * h),
        ];
        for (a, b) in g.iter().zip(fd) {
            assert!((a - b).abs() <= 1e-3, "{a} vs {b}");
        }
    }
}

#[test]
fn gradient_with_constant_arguments() {
    let x = vec![0.5, -1.0, 2.0, 0.25];
    let w = vec![1.0, 2.0, 3.0, -1.0];
    let args = (x.clone(), Constant(w.clone()), Constant(1.5));
    let (value, g) = lifted::gradient(weighted::Rule, &args).unwrap();
    assert_eq!(value.to_bits(), weighted(&x, &w, 1.5).to_bits());
    // Constants have no degrees of freedom: the gradient is over x only.
    let exact: Vec<f64> = (0..4).map(|i| 2.0 * 1.5 * w[i] * x[i]).collect();
    assert_close("weighted", &g, &exact, CLOSED);
    assert_close(
        "weighted vs differences",
        &g,
        &fd_jacobian(weighted::Rule, &args),
        FD,
    );
    // The same through borrowed arguments.
    let (_, g2) = lifted::gradient(weighted::Rule, (&x, &w[..], 1.5)).unwrap();
    assert_bits("borrowed", &g2, &g);
    // Selecting a constant argument selects nothing.
    let (_, g3) = lifted::gradient_wrt(weighted::Rule, &args, &[1, 0, 2]).unwrap();
    assert_bits("constant selected", &g3, &g);
}

#[test]
fn gradient_wrt_selects_and_orders_arguments() {
    let x = vec![0.2, 0.9, -0.4];
    let y = 1.3;
    let all = mixed_gradient(&x, y);
    for width in WIDTHS {
        let driver = Driver::new(mixed::Rule).width(width);
        let (_, gx) = driver.clone().wrt(&[0]).gradient((&x, y)).unwrap();
        assert_bits(
            "wrt x",
            &gx,
            &lifted::gradient(mixed::Rule, (&x, y)).unwrap().1[..3],
        );
        let (_, gy) = driver.clone().wrt(&[1]).gradient((&x, y)).unwrap();
        assert_close("wrt y", &gy, &all[3..], CLOSED);
        let (_, gyx) = driver.clone().wrt(&[1, 0]).gradient((&x, y)).unwrap();
        assert_close("wrt y, x", &gyx[..1], &all[3..], CLOSED);
        assert_close("wrt y, x", &gyx[1..], &all[..3], CLOSED);
        let (v, none) = driver.wrt(&[]).gradient((&x, y)).unwrap();
        assert_eq!(v.to_bits(), mixed(&x, y).to_bits());
        assert!(none.is_empty());
    }
    assert_eq!(
        lifted::drivers::Driver::new(mixed::Rule)
            .wrt(&[1])
            .columns_at((&x, y))
            .unwrap(),
        1
    );
}

#[test]
fn gradient_into_reuses_the_buffer() {
    let mut rng = SplitMix64::new(9);
    let mut grad = vec![f64::NAN; 32];
    for _ in 0..3 {
        let args = (point(&mut rng, 32, -1.0, 1.0),);
        let value = lifted::gradient_into(rosenbrock::Rule, &args, &mut grad).unwrap();
        let (v, g) = lifted::gradient(rosenbrock::Rule, &args).unwrap();
        assert_eq!(value.to_bits(), v.to_bits());
        assert_bits("into", &grad, &g);
    }
    let driver = Driver::new(mixed::Rule).chunk::<2>().wrt(&[1]);
    let mut dy = [0.0];
    let value = driver
        .gradient_into((&[0.1, 0.2][..], 0.7), &mut dy)
        .unwrap();
    assert_eq!(value.to_bits(), mixed(&[0.1, 0.2], 0.7).to_bits());
    assert_close(
        "into, wrt y",
        &dy,
        &mixed_gradient(&[0.1, 0.2], 0.7)[2..],
        CLOSED,
    );
}

#[test]
#[expect(
    clippy::needless_borrows_for_generic_args,
    reason = "the borrowed argument tuple is the form under test"
)]
fn gradient_into_of_scalars_does_not_allocate() {
    assert!(is_counting(), "the counting allocator is not installed");
    let args = (0.7, -0.4, [0.5, 1.5, -0.25]);
    let mut grad = [0.0; 5];
    for width in [1, 2, 4, 8] {
        let driver = Driver::new(scalars::Rule).width(width);
        let before = allocations_on_this_thread();
        let value = driver.gradient_into(&args, &mut grad).unwrap();
        let after = allocations_on_this_thread();
        assert_eq!(after - before, 0, "width {width}: allocated");
        assert_eq!(
            value.to_bits(),
            scalars(0.7, -0.4, [0.5, 1.5, -0.25]).to_bits()
        );
        let (a, b, p) = (0.7f64, -0.4f64, [0.5, 1.5, -0.25f64]);
        let exact = [
            b.sin() - p[2].exp(),
            a * b.cos(),
            p[1],
            p[0],
            -p[2].exp() * a,
        ];
        assert_close(&format!("width {width}"), &grad, &exact, CLOSED);
    }
}

// ---------------------------------------------------------------------------------
// jacobian
// ---------------------------------------------------------------------------------

#[test]
fn jacobian_against_closed_form_and_differences() {
    let mut rng = SplitMix64::new(4);
    for n in [3, 7, 20] {
        let x = point(&mut rng, n, -1.0, 1.0);
        let t = rng.uniform(-1.0, 1.0);
        let exact = field_jacobian(&x, t);
        let fd = fd_jacobian(field::Rule, &(x.clone(), t));
        let (out, reference) = lifted::jacobian(field::Rule, (&x, t)).unwrap();
        assert_bits("primal", &out, &field(&x, t));
        assert_eq!(reference.shape(), (n, n + 1));
        for width in WIDTHS {
            let (_, jac) = lifted::jacobian_with_chunk(field::Rule, (&x, t), width).unwrap();
            assert_close(
                &format!("n = {n}, width {width}"),
                jac.data(),
                &exact,
                CLOSED,
            );
            assert_close(
                &format!("n = {n}, width {width} vs differences"),
                jac.data(),
                &fd,
                FD,
            );
            assert_bits(
                &format!("n = {n}, width {width} vs default"),
                jac.data(),
                reference.data(),
            );
        }
    }
}

#[test]
fn jacobian_equals_width_one_jvps_bit_for_bit() {
    let x = vec![0.3, -0.7, 1.1, 0.4, 0.9];
    let t = 0.8;
    let cols = 6;
    let columns: Vec<Vec<f64>> = (0..cols)
        .map(|j| {
            let mut e = vec![0.0; 5];
            if j < 5 {
                e[j] = 1.0;
            }
            lifted::jvp(field::Rule, (&x, t), (&e, if j == 5 { 1.0 } else { 0.0 }))
                .unwrap()
                .1
        })
        .collect();
    for width in [2, 4, 8] {
        let (_, jac) = lifted::jacobian_with_chunk(field::Rule, (&x, t), width).unwrap();
        for (j, c) in columns.iter().enumerate() {
            assert_bits(
                &format!("width {width}, column {j}"),
                &jac.column(j).unwrap(),
                c,
            );
        }
    }
}

#[test]
fn jacobian_of_fixed_arrays_and_selected_arguments() {
    let (xy, jac) = lifted::jacobian(polar::Rule, [2.0, 0.3]).unwrap();
    assert_eq!(xy, polar([2.0, 0.3]));
    let (c, s) = (0.3f64.cos(), 0.3f64.sin());
    assert_close("polar", jac.data(), &[c, -2.0 * s, s, 2.0 * c], CLOSED);
    assert_eq!(jac.get(1, 1), Some(jac[(1, 1)]));
    assert_eq!(jac.get(2, 0), None);
    assert_eq!(jac.row(0), Some(&jac.data()[..2]));
    // ∂field/∂t alone: one column.
    let x = vec![0.3, -0.7, 1.1];
    let (_, jt) = lifted::jacobian_wrt(field::Rule, (&x, 0.5), &[1]).unwrap();
    assert_eq!(jt.shape(), (3, 1));
    let want: Vec<f64> = x.iter().map(|v| v.cos()).collect();
    assert_close("wrt t", jt.data(), &want, CLOSED);
    // A scalar result is a 1-row Jacobian, equal to the gradient.
    let (_, j) = lifted::jacobian(mixed::Rule, (&x, 0.5)).unwrap();
    let (_, g) = lifted::gradient(mixed::Rule, (&x, 0.5)).unwrap();
    assert_eq!(j.shape(), (1, 4));
    assert_bits("1-row", j.data(), &g);
    let j: Jacobian<f64> = j;
    assert_eq!(j.into_data().len(), 4);
}

// ---------------------------------------------------------------------------------
// Errors, not panics
// ---------------------------------------------------------------------------------

#[test]
fn shape_mismatches_are_errors() {
    let x = vec![0.1, 0.2, 0.3];
    // jvp: argument 0 has 3 degrees of freedom, its tangent 2.
    let err = lifted::jvp(mixed::Rule, (&x, 1.0), (&[1.0, 0.0][..], 0.0)).unwrap_err();
    assert_eq!(
        err,
        Error::TangentShape {
            function: "mixed",
            direction: 0,
            argument: 0,
            expected: 3,
            got: 2
        }
    );
    assert!(err.to_string().contains("argument 0"), "{err}");
    // jvp_many names the direction.
    let dirs = [(x.clone(), 1.0), (vec![1.0; 4], 1.0)];
    let err = lifted::jvp_many(mixed::Rule, (&x, 1.0), &dirs).unwrap_err();
    assert!(
        matches!(
            err,
            Error::TangentShape {
                direction: 1,
                expected: 3,
                got: 4,
                ..
            }
        ),
        "{err}"
    );
    // jvp_mut leaves everything as it was.
    let mut args = (vec![0.5, 0.5], vec![1.0, 1.0]);
    let mut tangents = (vec![1.0, 1.0], vec![1.0]);
    let err = lifted::jvp_mut(in_place::Rule, &mut args, &mut tangents).unwrap_err();
    assert!(
        matches!(
            err,
            Error::TangentShape {
                argument: 1,
                expected: 2,
                got: 1,
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(args, (vec![0.5, 0.5], vec![1.0, 1.0]));
    assert_eq!(tangents, (vec![1.0, 1.0], vec![1.0]));
    // gradient_into: the buffer's length.
    let err = lifted::gradient_into(mixed::Rule, (&x, 1.0), &mut [0.0; 3]).unwrap_err();
    assert_eq!(
        err,
        Error::BufferLength {
            function: "mixed",
            expected: 4,
            got: 3
        }
    );
}

#[test]
fn other_bad_inputs_are_errors() {
    let x = vec![0.1, 0.2, 0.3];
    // Width 0, asked for or a rule's default.
    let err = lifted::gradient_with_chunk(mixed::Rule, (&x, 1.0), 0).unwrap_err();
    assert!(
        matches!(err, Error::UnsupportedWidth { requested: 0, .. }),
        "{err}"
    );
    assert!(lifted::jacobian_with_chunk(field::Rule, (&x, 1.0), 0).is_err());
    assert!(
        Driver::new(field::Rule)
            .width(0)
            .jvp_many((&x, 1.0), &[])
            .is_err()
    );
    let err = lifted::gradient(ZeroChunk, 2.0).unwrap_err();
    assert!(matches!(
        err,
        Error::UnsupportedWidth {
            function: "zero_chunk",
            ..
        }
    ));
    // A gradient of a vector result.
    let err = lifted::gradient(field::Rule, (&x, 1.0)).unwrap_err();
    assert_eq!(
        err,
        Error::NotScalarOutput {
            function: "field",
            dim: 3
        }
    );
    let err = lifted::gradient(in_place::Rule, (&x, &x)).unwrap_err();
    assert!(
        matches!(err, Error::NotScalarOutput { dim: 0, .. }),
        "{err}"
    );
    // Bad selections.
    let err = lifted::gradient_wrt(mixed::Rule, (&x, 1.0), &[2]).unwrap_err();
    assert_eq!(
        err,
        Error::ArgumentOutOfRange {
            function: "mixed",
            index: 2,
            count: 2
        }
    );
    let err = lifted::jacobian_wrt(field::Rule, (&x, 1.0), &[0, 1, 0]).unwrap_err();
    assert_eq!(
        err,
        Error::DuplicateArgument {
            function: "field",
            index: 0
        }
    );
    // Every error says what went wrong and is a std error.
    let boxed: Box<dyn std::error::Error> = Box::new(err);
    assert!(boxed.to_string().contains("selected twice"));
}
