//! The derived rule against the same function written by hand over `NDual` and against
//! `num-dual`, for W2's Rosenbrock and Ackley at n = 256 and a scalar chain at x = 0.7.
//!
//! The timed unit is one directional derivative of width N: seeding the dual inputs
//! from the point and N tangent directions (one row each), then the value and the N
//! directional derivatives. N = 1 compares with `num_dual::Dual64`, N = 8 with
//! `num_dual::DualSVec64<8>`; the plain `f64` function is timed as the reference.
//!
//! Every implementation of a function runs in the same criterion group. After
//! criterion, a post-pass times all of them again in interleaved rounds (each round
//! runs every implementation once, in rotating order, so drift on a shared machine hits
//! them alike) and prints, for each ratio, its median over the rounds (each round's
//! ratio taken between timings a few hundred microseconds apart) with the quartiles:
//! derived ÷ hand-written (target ≤ 1.10), derived ÷ num-dual (target ≤ 1.0) and
//! derived ÷ primal, next to the median times.
//!
//! Before anything is timed, the three implementations are checked to agree on the
//! value and every directional derivative to 1e-12 relative.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion};
use lifted::NDual;
use lifted_benches::interleave::{Batch, ROUNDS, batch, benchmarking, median, ratio, rounds, show};
use lifted_benches::jvp::{
    self, SCALAR_POINT, SIZE, ackley, hand, rosenbrock, scalar_chain, seed_array, seed_duals,
};
use lifted_benches::w2;
use num_dual::{Derivative, Dual64, DualNum, DualSVec64};

/// Target of derived ÷ hand-written.
const TARGET_HAND: f64 = 1.10;
/// Target of derived ÷ num-dual.
const TARGET_NUM_DUAL: f64 = 1.0;

// ---------------------------------------------------------------------------------
// num-dual: the same functions over `DualNum`.

/// The three functions over `num_dual::DualNum`, written with num-dual's idioms: a
/// constant on the left becomes a right operand (`-x + 1.0`), `c / x` a reciprocal,
/// and the power with a dual exponent `powd`.
mod nd {
    use num_dual::DualNum;

    /// Rosenbrock over num-dual.
    pub fn rosenbrock<D: DualNum<Primitive = f64> + Copy>(x: &[D]) -> D {
        let mut s = D::from(0.0);
        for i in 0..x.len() - 1 {
            s += (-x[i] + 1.0).powi(2) + (x[i + 1] - x[i] * x[i]).powi(2) * 100.0;
        }
        s
    }

    /// Ackley over num-dual.
    pub fn ackley<D: DualNum<Primitive = f64> + Copy>(x: &[D]) -> D {
        let (a, b, c) = (20.0, 0.2, 2.0 * std::f64::consts::PI);
        let n = x.len() as f64;
        let mut s1 = D::from(0.0);
        let mut s2 = D::from(0.0);
        for &v in x {
            s1 += v * v;
            s2 += (v * c).cos();
        }
        -((s1 / n).sqrt() * -b).exp() * a - (s2 / n).exp() + a + std::f64::consts::E
    }

    /// The scalar chain over num-dual.
    pub fn scalar_chain<D: DualNum<Primitive = f64> + Copy>(x: D) -> D {
        x.sin().powi(2) / x.cos().powi(2)
            + (x * x * x).sqrt()
            + D::from(10.31).powd(x * 2.0)
            + ((-x).exp() + 1.0).recip()
    }
}

/// A num-dual type carrying N directions: seeding from a value and N partials, and
/// reading them back.
trait NumDual<const N: usize>: DualNum<Primitive = f64> + Copy {
    /// The type's name in the report.
    const NAME: &'static str;
    /// `value` with the given partials.
    fn seed(value: f64, partials: &[f64; N]) -> Self;
    /// The value and the partials.
    fn parts(&self) -> (f64, [f64; N]);
}

impl NumDual<1> for Dual64 {
    const NAME: &'static str = "Dual64";
    #[inline]
    fn seed(value: f64, partials: &[f64; 1]) -> Self {
        Dual64::new(value, partials[0])
    }
    fn parts(&self) -> (f64, [f64; 1]) {
        (self.re, [self.eps])
    }
}

impl<const N: usize> NumDual<N> for DualSVec64<N> {
    const NAME: &'static str = "DualSVec64";
    #[inline]
    fn seed(value: f64, partials: &[f64; N]) -> Self {
        DualSVec64::new(value, Derivative::some((*partials).into()))
    }
    fn parts(&self) -> (f64, [f64; N]) {
        (self.re, self.eps.0.map_or([0.0; N], Into::into))
    }
}

/// num-dual's seeding of an array argument from the point and N row-major directions
/// (as [`seed_duals`] does for the hand-written functions).
fn seed_num_dual<const N: usize, D: NumDual<N>>(x: &[f64], tangents: &[f64]) -> Vec<D> {
    let lanes = jvp::lanes::<N>(tangents, x.len());
    x.iter()
        .enumerate()
        .map(|(i, &v)| D::seed(v, &std::array::from_fn(|k| lanes[k][i])))
        .collect()
}

// ---------------------------------------------------------------------------------
// The implementations, as timed batches.

/// The implementations of one function at width N.
struct Width {
    n: usize,
    num_dual: &'static str,
    derived: Batch,
    hand: Batch,
    num_dual_run: Batch,
}

/// One function: its primal and its implementations at each width.
struct Function {
    name: &'static str,
    primal: Batch,
    widths: Vec<Width>,
}

/// The value and partials of an `NDual`.
fn ndual_parts<const N: usize>(d: NDual<f64, N>) -> (f64, [f64; N]) {
    (d.value(), *d.partials())
}

/// Panics unless `a` and `b` agree to 1e-12 relative in the value and every partial.
#[track_caller]
fn check<const N: usize>(what: &str, a: (f64, [f64; N]), b: (f64, [f64; N])) {
    let close = |p: f64, q: f64| p == q || (p - q).abs() <= 1e-12 * p.abs().max(q.abs());
    assert!(
        close(a.0, b.0) && a.1.iter().zip(&b.1).all(|(&p, &q)| close(p, q)),
        "{what}: the derived rule gives {a:?}, the other implementation {b:?}"
    );
}

/// The implementations at width N of a function at the point `x`, each a timed unit
/// `(point, N row-major directions) -> value and N directional derivatives`. Checks
/// that they agree before returning them.
fn width<const N: usize, D: NumDual<N>>(
    function: &str,
    x: &[f64],
    derived: impl Fn(&[f64], &[f64]) -> NDual<f64, N> + 'static,
    hand: impl Fn(&[f64], &[f64]) -> NDual<f64, N> + 'static,
    num_dual: impl Fn(&[f64], &[f64]) -> D + 'static,
) -> Width {
    let t = jvp::tangents(x.len(), N);
    let reference = ndual_parts(derived(x, &t));
    check(
        &format!("{function}, N = {N}, hand-written"),
        reference,
        ndual_parts(hand(x, &t)),
    );
    check(
        &format!("{function}, N = {N}, {}", D::NAME),
        reference,
        num_dual(x, &t).parts(),
    );
    let (x1, t1) = (x.to_vec(), t.clone());
    let (x2, t2) = (x.to_vec(), t.clone());
    let (x3, t3) = (x.to_vec(), t);
    Width {
        n: N,
        num_dual: D::NAME,
        derived: batch(move || derived(black_box(&x1), black_box(&t1))),
        hand: batch(move || hand(black_box(&x2), black_box(&t2))),
        num_dual_run: batch(move || num_dual(black_box(&x3), black_box(&t3))),
    }
}

/// The N tangents of a scalar (its N directions of one value each).
fn scalar_tangents<const N: usize>(t: &[f64]) -> [f64; N] {
    *t.first_chunk::<N>().expect("N directions")
}

/// Rosenbrock or Ackley: an `&[f64] -> f64` function of `jvp`, at W2's point.
macro_rules! array_function {
    ($f:ident, $name:literal) => {{
        let x = w2::input(SIZE);
        Function {
            name: $name,
            primal: {
                let x = x.clone();
                batch(move || $f(black_box(&x)))
            },
            widths: vec![
                array_function!(@width $f, $name, &x, 1, Dual64),
                array_function!(@width $f, $name, &x, 8, DualSVec64<8>),
            ],
        }
    }};
    (@width $f:ident, $name:literal, $x:expr, $n:literal, $D:ty) => {
        width::<$n, $D>(
            $name,
            $x,
            |x, t| $f::frule::<NDual<f64, $n>>(seed_array::<$n>(x, t).view()),
            |x, t| hand::$f(&seed_duals::<$n>(x, t)),
            |x, t| nd::$f(&seed_num_dual::<$n, $D>(x, t)),
        )
    };
}

/// The scalar chain at [`SCALAR_POINT`].
macro_rules! scalar_width {
    ($n:literal, $D:ty) => {
        width::<$n, $D>(
            "scalar_chain",
            &[SCALAR_POINT],
            |x, t| scalar_chain::frule(NDual::<f64, $n>::new(x[0], scalar_tangents(t))),
            |x, t| hand::scalar_chain(NDual::<f64, $n>::new(x[0], scalar_tangents(t))),
            |x, t| nd::scalar_chain(<$D>::seed(x[0], &scalar_tangents(t))),
        )
    };
}

/// All functions of the benchmark, checked.
fn functions() -> Vec<Function> {
    vec![
        array_function!(rosenbrock, "rosenbrock_256"),
        array_function!(ackley, "ackley_256"),
        Function {
            name: "scalar_chain",
            primal: batch(|| scalar_chain(black_box(SCALAR_POINT))),
            widths: vec![scalar_width!(1, Dual64), scalar_width!(8, DualSVec64<8>)],
        },
    ]
}

// ---------------------------------------------------------------------------------
// criterion, then the ratio post-pass.

/// One criterion group per function: the primal, then derived, hand-written and
/// num-dual at each width.
fn criterion_groups(c: &mut Criterion, functions: &mut [Function]) {
    for f in functions {
        let mut group = c.benchmark_group(format!("derived/{}", f.name));
        group.bench_function("primal", |b| b.iter_custom(&mut f.primal));
        for w in &mut f.widths {
            group.bench_function(BenchmarkId::new("derived", w.n), |b| {
                b.iter_custom(&mut w.derived)
            });
            group.bench_function(BenchmarkId::new("hand_written", w.n), |b| {
                b.iter_custom(&mut w.hand)
            });
            group.bench_function(
                BenchmarkId::new(format!("num_dual_{}", w.num_dual), w.n),
                |b| b.iter_custom(&mut w.num_dual_run),
            );
        }
        group.finish();
    }
}

/// Times every implementation again in interleaved rounds and prints the ratios.
fn ratio_table(functions: &mut [Function]) {
    println!();
    println!(
        "Ratios: median (quartiles) over {ROUNDS} interleaved rounds of the ratio within \
         a round; times: medians, ns per timed unit (seeding included); ✗: target missed."
    );
    println!();
    println!(
        "| function | N | derived ÷ hand-written (≤ {TARGET_HAND:.2}) | derived ÷ num-dual (≤ {TARGET_NUM_DUAL:.2}) | derived ÷ primal | primal | derived | hand-written | num-dual |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for f in functions {
        let mut batches: Vec<&mut Batch> = vec![&mut f.primal];
        for w in &mut f.widths {
            batches.extend([&mut w.derived, &mut w.hand, &mut w.num_dual_run]);
        }
        let samples = rounds(&mut batches);
        let primal = &samples[0];
        for (w, s) in f.widths.iter().zip(samples[1..].chunks_exact(3)) {
            let (derived, hand, num_dual) = (&s[0], &s[1], &s[2]);
            println!(
                "| {} | {} | {} | {} | {} | {:.1} | {:.1} | {:.1} | {:.1} ({}) |",
                f.name,
                w.n,
                show(ratio(derived, hand), Some(TARGET_HAND)),
                show(ratio(derived, num_dual), Some(TARGET_NUM_DUAL)),
                show(ratio(derived, primal), None),
                median(primal),
                median(derived),
                median(hand),
                median(num_dual),
                w.num_dual,
            );
        }
    }
    println!();
}

fn main() {
    let mut functions = functions();
    let mut criterion = Criterion::default().configure_from_args();
    criterion_groups(&mut criterion, &mut functions);
    criterion.final_summary();

    // Only when benchmarking (`cargo bench`): `cargo test --benches` runs each
    // benchmark once as a test, and `--list` lists them.
    if benchmarking() {
        ratio_table(&mut functions);
    }
}
