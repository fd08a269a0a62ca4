//! The CUDA kernels run on the host: each precision unit of
//! [`lifted::cuda::kernels`] compiled by the C++ compiler behind a small shim (one
//! block of one thread), every kernel run on the special points of its op (signed
//! zeros, ±1, a subnormal, huge values, infinities, NaN) in every operand
//! configuration (dual, constant, scalar and row broadcasts), and every output
//! compared with the CPU `NDual` rule through [`lifted::cuda::reference`].
//!
//! Host and CPU call the same C library for the transcendentals, so the comparison is
//! exact: it checks the transcription of every formula, branch and strong zero without
//! a GPU. Allowed differences, all documented in `lifted::cuda::kernels`: the sign of a
//! zero; a few ulps where Rust's primal is not the C library's (`asinh`, `acosh`,
//! `atanh`, `cbrt`); a number where the CPU multiplies a lifted constant's zero lane by
//! infinity (`mul_add`, `rem_euclid`). On the GPU only CUDA's own math library differs.
//!
//! Ignored (visibly) where no C++ compiler runs (`tests/build.rs`).

use std::time::Instant;

use lifted::NDual;
use lifted::cuda::kernels::{self, Binary, Precision, Ternary, Unary, UnaryInt};
use lifted::cuda::reference::{self, LaneMajor, Operand};

#[path = "support/cuda_shim.rs"]
mod cuda_shim;
use cuda_shim::{HOST_SHIM, build_and_run};

/// A kernel operand on the host: values, and lane-major tangents unless constant.
type Arg<'a, S> = (&'a [S], Option<&'a [S]>);

/// Lanes of every host job.
const LANES: usize = 3;

/// Inputs and expected outputs of the host runs, with the C++ calls that produce them.
struct HostRun<S> {
    /// Every input array, concatenated (the program reads it as one file).
    pool: Vec<S>,
    /// C++ blocks, one per job, each writing its outputs.
    calls: String,
    /// What each job must write.
    jobs: Vec<HostJob<S>>,
}

/// Which outputs of a job may differ by a few ulps from the CPU: those that depend
/// on a primal whose Rust implementation is not the C library's (`asinh`, `acosh`,
/// `atanh` are written in Rust; `cbrt` is the correctly rounded one of Rust's libm).
#[derive(Clone, Copy)]
enum Loose {
    No,
    Values,
    All,
}

/// The expected outputs of one host job.
struct HostJob<S> {
    label: String,
    want: Vec<S>,
    /// The first `loose` outputs may differ by a few ulps ([`Loose`]).
    loose: usize,
    /// A constant operand's term is skipped where the CPU multiplies its zero lanes
    /// (`mul_add`, `rem_euclid`): at infinite values the CPU's NaN may be a number.
    nan_may_be_finite: bool,
}

impl<S: lifted::Scalar + lifted::Real> HostRun<S>
where
    NDual<S, LANES>: lifted::Reading<S>,
{
    /// Adds `xs` to the pool; the C++ pointer expression to it.
    fn put(&mut self, xs: &[S]) -> String {
        let at = format!("P + {}", self.pool.len());
        self.pool.extend_from_slice(xs);
        at
    }

    /// An element-wise job: `args` are the kernel's operand arguments (each `(values,
    /// tangents)`), `extra` a trailing `int` argument, `f` the reference.
    fn elementwise<const A: usize>(
        &mut self,
        label: String,
        kernel: &str,
        operands: [Arg<'_, S>; A],
        extra: Option<i32>,
        loose: Loose,
        f: impl Fn([Operand<S, LANES>; A]) -> NDual<S, LANES>,
    ) {
        let len = operands.iter().map(|o| o.0.len()).max().unwrap_or(0);
        let mut args = Vec::new();
        for (v, d) in operands {
            args.push(self.put(v));
            args.push(d.map_or_else(|| "nullptr".into(), |d| self.put(d)));
            if A > 1 {
                args.push(v.len().to_string());
            }
        }
        let extra = extra.map_or_else(String::new, |p| format!(", {p}"));
        self.calls += &format!(
            "{{ std::vector<T> yv({len}, NAN), yd({len} * {LANES}, NAN);\n  {kernel}({}, yv.data(), \
             yd.data(), {len}, {LANES}{extra});\n  fwrite(yv.data(), sizeof(T), yv.size(), out); \
             fwrite(yd.data(), sizeof(T), yd.size(), out); }}\n",
            args.join(", ")
        );
        let constant = operands.iter().any(|o| o.1.is_none());
        let views = operands.map(|(values, tangents)| LaneMajor { values, tangents });
        let (mut want, d) = reference::lane_major(views, len, f);
        want.extend(d);
        let skips = kernel.contains("mul_add") || kernel.contains("rem_euclid");
        self.jobs.push(HostJob {
            label,
            want,
            loose: match loose {
                Loose::No => 0,
                Loose::Values => len,
                Loose::All => usize::MAX,
            },
            nan_may_be_finite: constant && skips,
        });
    }

    /// A reduction job: pass 1 over `blocks` blocks (run one after the other), then
    /// the finish pass.
    fn reduction(&mut self, label: String, blocks: usize, pass1: String, want: NDual<S, LANES>) {
        self.calls += &format!(
            "{{ std::vector<T> part({blocks} * (1 + {LANES}), NAN), y(1 + {LANES}, NAN);\n  \
             gridDim.x = {blocks};\n  \
             for (blockIdx.x = 0; blockIdx.x < {blocks}; ++blockIdx.x) {{ {pass1}; }}\n  \
             gridDim.x = 1; blockIdx.x = 0;\n  \
             lifted_reduce_finish_@SFX(part.data(), {blocks}, y.data(), {LANES});\n  \
             fwrite(y.data(), sizeof(T), y.size(), out); }}\n"
        );
        let mut v = vec![want.value()];
        v.extend(want.partials());
        self.jobs.push(HostJob {
            label,
            want: v,
            loose: 0,
            nan_may_be_finite: false,
        });
    }
}

/// Every op's special points: zeros of both signs, ±1, a subnormal, huge values,
/// infinities, NaN.
const SPECIAL: &[f64] = &[
    0.0,
    -0.0,
    0.3,
    -0.3,
    0.5,
    -0.5,
    1.0,
    -1.0,
    1.5,
    2.5,
    -2.5,
    3.7,
    10.0,
    1e-310,
    1e300,
    -1e300,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::NAN,
];

/// The values binary and ternary ops are tried on, all pairs.
const PAIRS: &[f64] = &[
    0.0,
    -0.0,
    0.5,
    -1.5,
    1.0,
    2.5,
    -3.0,
    1e-310,
    1e300,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::NAN,
];

/// `x` rounded to `S`.
fn sc<S: lifted::Scalar>(x: f64) -> S {
    <S as lifted::Scalar>::from_f64(x)
}

/// `n` elements of lane-major tangents, lane `k` of element `i` being `lane(k, i)`.
fn tangents<S: lifted::Scalar>(n: usize, lane: impl Fn(usize, usize) -> f64) -> Vec<S> {
    (0..LANES * n)
        .map(|j| sc::<S>(lane(j / n, j % n)))
        .collect()
}

/// Every kernel of the unit on the host, on the special points, in every operand
/// configuration (dual, constant, scalar and row broadcasts).
fn host_jobs<S>(p: Precision) -> HostRun<S>
where
    S: lifted::Scalar + lifted::Real,
    NDual<S, LANES>: lifted::Reading<S>,
{
    let mut run = HostRun {
        pool: Vec::new(),
        calls: String::new(),
        jobs: Vec::new(),
    };
    let k = |op: &str| kernels::kernel_name(op, p);
    let cast = |xs: &[f64]| xs.iter().map(|&v| sc::<S>(v)).collect::<Vec<S>>();

    let x = cast(SPECIAL);
    let xd = tangents::<S>(x.len(), |k, i| [1.0, 0.0, -0.75 + 0.25 * i as f64][k]);
    for &op in Unary::ALL {
        let loose = match op {
            Unary::Asinh | Unary::Acosh | Unary::Atanh => Loose::Values,
            Unary::Cbrt => Loose::All,
            _ => Loose::No,
        };
        let f = |[x]: [Operand<S, LANES>; 1]| reference::unary(op, x.dual());
        for (what, d) in [("dual", Some(&xd[..])), ("constant", None)] {
            let label = format!("{} {what}", op.name());
            run.elementwise(label, &k(op.name()), [(&x, d)], None, loose, f);
        }
    }
    for e in [-3, -1, 0, 1, 2, 3, 7] {
        let f = |[x]: [Operand<S, LANES>; 1]| reference::unary_int(UnaryInt::Powi, x.dual(), e);
        run.elementwise(
            format!("powi {e}"),
            &k("powi"),
            [(&x, Some(&xd))],
            Some(e),
            Loose::No,
            f,
        );
    }

    let m = PAIRS.len();
    let a: Vec<S> = (0..m * m).map(|i| sc::<S>(PAIRS[i / m])).collect();
    let b: Vec<S> = (0..m * m).map(|i| sc::<S>(PAIRS[i % m])).collect();
    // Every fifth element of `a` has all lanes zero (powf's constant-base branch).
    let ad = tangents::<S>(
        m * m,
        |k, i| if i % 5 == 0 { 0.0 } else { [1.0, 0.0, -0.5][k] },
    );
    let bd = tangents::<S>(m * m, |k, _| [0.0, 2.0, 0.25][k]);
    let (row, row_d) = (cast(PAIRS), tangents::<S>(m, |k, _| [0.0, 2.0, 0.25][k]));
    let (scalar, scalar_d) = (cast(&[2.5]), cast(&[0.0, 2.0, 0.25]));
    for &op in Binary::ALL {
        let f = |[a, b]: [Operand<S, LANES>; 2]| reference::binary(op, a, b);
        let configs: [(&str, Arg<'_, S>, Arg<'_, S>); 5] = [
            ("dual, dual", (&a, Some(&ad)), (&b, Some(&bd))),
            ("dual, constant", (&a, Some(&ad)), (&b, None)),
            ("constant, dual", (&a, None), (&b, Some(&bd))),
            ("dual, scalar", (&a, Some(&ad)), (&scalar, Some(&scalar_d))),
            ("dual, row", (&a, Some(&ad)), (&row, Some(&row_d))),
        ];
        for (what, x, y) in configs {
            let label = format!("{} {what}", op.name());
            run.elementwise(label, &k(op.name()), [x, y], None, Loose::No, f);
        }
    }

    // mul_add over PAIRS × 4 × 3; clamp over PAIRS × 5 ordered bounds.
    let (mb, mc) = ([0.5, -2.0, f64::INFINITY, 0.0], [1.0, -0.0, f64::NAN]);
    let bounds = [
        (-1.0, 0.5),
        (0.0, 2.0),
        (0.5, 0.5),
        (f64::NEG_INFINITY, 0.0),
        (1.0, f64::INFINITY),
    ];
    let mul_add = [
        (0..m * 12).map(|i| PAIRS[i / 12]).collect::<Vec<_>>(),
        (0..m * 12).map(|i| mb[i % 12 / 3]).collect(),
        (0..m * 12).map(|i| mc[i % 3]).collect(),
    ];
    let clamp = [
        (0..m * 5).map(|i| PAIRS[i / 5]).collect::<Vec<_>>(),
        (0..m * 5).map(|i| bounds[i % 5].0).collect(),
        (0..m * 5).map(|i| bounds[i % 5].1).collect(),
    ];
    for &op in Ternary::ALL {
        let values = match op {
            Ternary::MulAdd => mul_add.clone().map(|v| cast(&v)),
            Ternary::Clamp => clamp.clone().map(|v| cast(&v)),
        };
        let n = values[0].len();
        let lanes = [[1.0, 0.0, -0.5], [0.0, 2.0, 0.25], [0.5, 0.0, 3.0]];
        let d = lanes.map(|l| tangents::<S>(n, |k, _| l[k]));
        let f = |[a, b, c]: [Operand<S, LANES>; 3]| reference::ternary(op, a, b, c);
        for constant in [None, Some(0), Some(1), Some(2)] {
            let operands: [Arg<'_, S>; 3] = core::array::from_fn(|j| {
                (&values[j][..], (constant != Some(j)).then_some(&d[j][..]))
            });
            let label = format!("{} constant operand {constant:?}", op.name());
            run.elementwise(label, &k(op.name()), operands, None, Loose::No, f);
        }
    }

    reductions(&mut run, 1, |i, k| {
        (((i * (k + 1)) as f64) * 0.7).sin() * 10.0
    });
    // Dyadic values with small numerators: every partial sum is exact, so a split over
    // several blocks must give the CPU's sequential sums bit for bit.
    reductions(&mut run, 7, |i, k| ((i * (k + 2)) % 17) as f64 * 0.25 - 2.0);
    run
}

/// `sum` and `dot` jobs over 1000 elements, stream `k` (0 the value, 1 + l lane l) of
/// the first operand `value(i, k)`, of the second `value(i + 3, k + 1)`, the first
/// pass split over `blocks` blocks.
fn reductions<S>(run: &mut HostRun<S>, blocks: usize, value: impl Fn(usize, usize) -> f64)
where
    S: lifted::Scalar + lifted::Real,
    NDual<S, LANES>: lifted::Reading<S>,
{
    let n = 1000;
    let xv: Vec<S> = (0..n).map(|i| sc::<S>(value(i, 0))).collect();
    let xd = tangents::<S>(n, |k, i| value(i, k + 1));
    let yv: Vec<S> = (0..n).map(|i| sc::<S>(value(i + 3, 1))).collect();
    let yd = tangents::<S>(n, |k, i| value(i + 3, k + 2));
    let duals = |v: &[S], d: Option<&[S]>| -> Vec<NDual<S, LANES>> {
        (0..n)
            .map(|i| {
                let lane = |k| d.map_or(S::zero(), |d: &[S]| d[k * n + i]);
                NDual::new(v[i], core::array::from_fn(lane))
            })
            .collect()
    };
    let mut arg = |v: &[S], d: Option<&[S]>| {
        let v = run.put(v);
        let d = d.map_or_else(|| "nullptr".into(), |d| run.put(d));
        format!("{v}, {d}")
    };
    let mut jobs = Vec::new();
    for d in [Some(&xd[..]), None] {
        let pass1 = format!(
            "lifted_sum_@SFX({}, part.data(), {n}, {LANES})",
            arg(&xv, d)
        );
        let label = format!("sum over {blocks} blocks, lanes {}", d.is_some());
        jobs.push((label, pass1, reference::sum(&duals(&xv, d))));
    }
    let (x, y) = (Some(&xd[..]), Some(&yd[..]));
    for (da, db) in [(x, y), (None, y), (x, None)] {
        let (a, b) = (arg(&xv, da), arg(&yv, db));
        let pass1 = format!("lifted_dot_@SFX({a}, {b}, part.data(), {n}, {LANES})");
        let label = format!(
            "dot over {blocks} blocks, lanes {} {}",
            da.is_some(),
            db.is_some()
        );
        jobs.push((
            label,
            pass1,
            reference::dot(&duals(&xv, da), &duals(&yv, db)),
        ));
    }
    for (label, pass1, want) in jobs {
        run.reduction(label, blocks, pass1, want);
    }
}

/// Whether `got` is what the CPU rule gives (`want`): equal, both NaN, or both zero
/// (the sign of a zero lane may differ where a constant's term is skipped).
fn matches<S: lifted::Scalar>(got: S, want: S, loose: bool, nan_may_be_finite: bool) -> bool {
    if want.is_nan() {
        return got.is_nan() || nan_may_be_finite;
    }
    got == want || loose && (got - want).abs() <= want.abs() * sc::<S>(4.0 * S::EPS)
}

/// Builds the unit for the host with the C++ compiler, runs every job and compares
/// each output with the CPU rule's.
fn run_on_host<S>(p: Precision)
where
    S: lifted::Scalar + lifted::Real,
    NDual<S, LANES>: lifted::Reading<S>,
{
    let run = host_jobs::<S>(p);
    let program = format!(
        "{HOST_SHIM}{}\nint main(int, char** argv) {{\n  FILE* in = fopen(argv[1], \"rb\");\n  \
         FILE* out = fopen(argv[2], \"wb\");\n  std::vector<T> pool({});\n  \
         if (!in || !out || fread(pool.data(), sizeof(T), pool.size(), in) != pool.size()) return 2;\n  \
         const T* P = pool.data();\n{}  return fclose(out);\n}}\n",
        kernels::source(p),
        run.pool.len(),
        run.calls.replace("@SFX", p.suffix())
    );
    let bytes = S::BITS as usize / 8;
    let input: Vec<u8> = run
        .pool
        .iter()
        .flat_map(|x| x.to_bits_u64().to_le_bytes()[..bytes].to_vec())
        .collect();
    let start = Instant::now();
    // No contraction into FMAs, and -O0 so nothing is constant-folded with another
    // libm than the one the CPU rules call.
    let out = build_and_run(&format!("host-{}", p.suffix()), &program, &input, "-O0");
    println!(
        "host {p:?} unit: {} jobs built and run in {:.2?}",
        run.jobs.len(),
        start.elapsed()
    );
    let mut got = out.chunks_exact(bytes).map(|c| {
        let mut b = [0u8; 8];
        b[..bytes].copy_from_slice(c);
        let u = u64::from_le_bytes(b);
        if bytes == 8 {
            sc::<S>(f64::from_bits(u))
        } else {
            sc::<S>(f64::from(f32::from_bits(u as u32)))
        }
    });
    let mut wrong = Vec::new();
    for job in &run.jobs {
        for (j, &want) in job.want.iter().enumerate() {
            let g = got.next().expect("fewer outputs than expected");
            if !matches(g, want, j < job.loose, job.nan_may_be_finite) {
                wrong.push(format!(
                    "{}: output {j}: kernel {g:?}, CPU {want:?}",
                    job.label
                ));
            }
        }
    }
    assert!(got.next().is_none(), "more outputs than expected");
    assert!(
        wrong.is_empty(),
        "{p:?}: {} outputs differ from the CPU rules:\n{}",
        wrong.len(),
        wrong[..wrong.len().min(40)].join("\n")
    );
}

#[test]
#[cfg_attr(
    not(lifted_host_cxx),
    ignore = "skipped: no C++ compiler to build the kernels for the host"
)]
fn f64_kernels_on_the_host_are_the_cpu_rules() {
    run_on_host::<f64>(Precision::F64);
}

#[test]
#[cfg_attr(
    not(lifted_host_cxx),
    ignore = "skipped: no C++ compiler to build the kernels for the host"
)]
fn f32_kernels_on_the_host_are_the_cpu_rules() {
    run_on_host::<f32>(Precision::F32);
}
