//! The device check: every kernel and rule of `lifted::cuda` against the CPU
//! implementation, and the W1 Navier–Stokes residual timed on the GPU.
//!
//! Built on a CPU machine (`cargo build --release -p lifted --features cuda --example
//! gpu_check`) and run by `scripts/gpu-check.sh` on a machine with a GPU. Prints one
//! `RESULT {json}` line per check, timing or fact (the script turns them into a table):
//!
//! - `gpu_check info`: the versions of the CUDA driver, NVRTC and cuBLAS this process
//!   loads, the files they were loaded from, the device, and whether the driver loads a
//!   probe kernel compiled by NVRTC to PTX (the backend's form: JIT-compiled by the
//!   driver, which must be at least as new as NVRTC) and to CUBIN (machine code for the
//!   device, which needs no JIT).
//! - `gpu_check list-groups`: the names of the groups of checks, one a line, in the
//!   order `check` runs them; needs no GPU.
//! - `gpu_check check [--group NAME]...`: the named groups, or all of them: element-wise
//!   kernels (every op, f32 and f64, 1 / 3 / 16 lanes, same-shape, constant, scalar and
//!   row operands), reductions, products, transfers, the batched residual, and derived
//!   rules at the CUDA reading (`reading.rs`); result buffers are NaN-poisoned, so an
//!   element a kernel does not write fails. Relative error bounds: f64 1e-12, f32 1e-5,
//!   each element's error relative to its largest component (reductions and products
//!   normwise over the array). Exit status 1 if any check fails.
//! - `gpu_check w1 --points N --precision f32|f64 [--reps R]`: the W1 residual (values,
//!   3 × 3 Jacobian, four pure second derivatives, one pass) and the primal network on
//!   N points, timed with CUDA events after warm-up.
//!
//! A `CudaError` or a panic inside a group of checks fails that group (one failed check
//! naming it) and the other groups still run; a fault that kills the process (or leaves
//! the context unusable) is why the script runs each group in a process of its own. Any
//! other error (no driver, no device, …) is printed and the exit status is 2; a bad
//! command line is status 64. Every command that touched the device ends by naming the
//! library files it loaded.

mod libraries;
mod reading;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::process::ExitCode;
use std::sync::Arc;

use lifted::cuda::kernels::{Binary, Precision, Ternary, Unary, UnaryInt};
use lifted::cuda::reference::{self, Operand as Ref};
use lifted::cuda::{
    self, CudaArray, CudaError, CudaNDualArray, Device, DeviceFloat, DeviceNetwork,
};
use lifted::pinn::{self, Batching, Network};
use lifted::testing::SplitMix64;
use lifted::{NDual, NDualArray, Reading, Scalar};

/// W1's network widths, seeds and viscosity.
const WIDTHS: [usize; 6] = [3, 128, 128, 128, 128, 3];
const NU: f64 = 0.01;

/// The command line's synopsis.
const USAGE: &str = "usage: gpu_check info | gpu_check list-groups \
                     | gpu_check check [--group NAME]... \
                     | gpu_check w1 --points N --precision f32|f64 [--reps R]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("list-groups") => {
            for g in GROUPS {
                println!("{}", g.name);
            }
            return ExitCode::SUCCESS;
        }
        Some("info") => info().map(|()| 0),
        Some("check") => match selected_groups(&args[1..]) {
            Ok(groups) => check(&groups).map(|failed| u8::from(failed > 0)),
            Err(message) => return usage_error(&message),
        },
        Some("w1") => w1(&args[1..]).map(|()| 0),
        _ => return usage_error("no command"),
    };
    libraries::print_loaded();
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            println!(
                "RESULT {{\"kind\":\"error\",\"message\":{}}}",
                json(&e.to_string())
            );
            eprintln!("gpu_check: {e}");
            ExitCode::from(2)
        }
    }
}

fn usage_error(message: &str) -> ExitCode {
    eprintln!("gpu_check: {message}\n{USAGE}");
    ExitCode::from(64)
}

/// A JSON string literal.
fn json(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A JSON number (non-finite errors are reported as a large number that fails).
fn num(x: f64) -> String {
    if x.is_finite() {
        format!("{x:e}")
    } else {
        "1e308".into()
    }
}

/// Prints one `info` line.
fn info_line(key: &str, value: &str) {
    println!(
        "RESULT {{\"kind\":\"info\",\"key\":{},\"value\":{}}}",
        json(key),
        json(value)
    );
}

/// The message of a caught panic.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_owned())
}

/// Opens device 0 and prints what it is.
fn open() -> Result<Arc<Device>, CudaError> {
    let dev = Device::new(0)?;
    info_line("device", dev.name());
    info_line("arch", dev.arch());
    Ok(dev)
}

/// `gpu_check info`. The versions come first: they need no device, and they are what
/// explains a device that does not open.
fn info() -> Result<(), CudaError> {
    libraries::print_versions();
    let dev = open()?;
    libraries::print_kernel_images(&dev);
    Ok(())
}

/// Counts and prints check results.
struct Report {
    failed: usize,
    passed: usize,
    /// The group whose checks are running, named in each line.
    group: &'static str,
}

impl Report {
    fn record(
        &mut self,
        name: &str,
        precision: Precision,
        lanes: usize,
        len: usize,
        err: f64,
        tol: f64,
    ) {
        let pass = err <= tol;
        if pass {
            self.passed += 1;
        } else {
            self.failed += 1;
        }
        println!(
            "RESULT {{\"kind\":\"check\",\"group\":{},\"name\":{},\"precision\":\"{}\",\"lanes\":{lanes},\"len\":{len},\"max_rel_err\":{},\"tol\":{},\"pass\":{pass}}}",
            json(self.group),
            json(name),
            precision.suffix(),
            num(err),
            num(tol)
        );
    }
}

/// Difference of one component: 0 when both are the same non-finite value, infinite
/// when only one is finite or NaN.
fn diff(gpu: f64, cpu: f64) -> f64 {
    if gpu == cpu || (gpu.is_nan() && cpu.is_nan()) {
        return 0.0;
    }
    let d = (gpu - cpu).abs();
    if d.is_finite() { d } else { f64::INFINITY }
}

/// The input range of a unary op (inside its domain, away from its singularities).
fn unary_domain(op: Unary) -> (f64, f64) {
    match op {
        Unary::Asin | Unary::Acos | Unary::Atanh => (-0.95, 0.95),
        Unary::Acosh => (1.05, 4.0),
        Unary::Ln | Unary::Log2 | Unary::Log10 => (0.05, 4.0),
        Unary::Ln1p => (-0.9, 3.0),
        Unary::Tan => (-1.2, 1.2),
        Unary::Exp | Unary::Exp2 | Unary::ExpM1 | Unary::Sinh | Unary::Cosh => (-5.0, 5.0),
        Unary::Sqrt | Unary::Recip => (0.05, 4.0),
        _ => (-3.0, 3.0),
    }
}

/// Input ranges of a binary op's operands.
fn binary_domain(op: Binary) -> ((f64, f64), (f64, f64)) {
    match op {
        Binary::Div | Binary::Rem | Binary::RemEuclid | Binary::DivEuclid => {
            ((-3.0, 3.0), (0.5, 3.0))
        }
        Binary::Log => ((0.1, 4.0), (1.5, 4.0)),
        Binary::Powf => ((0.1, 3.0), (-2.0, 2.0)),
        Binary::Atan2 => ((-3.0, 3.0), (0.1, 3.0)),
        _ => ((-3.0, 3.0), (-3.0, 3.0)),
    }
}

/// `len` random duals in `[lo, hi)` with tangents in `[-1, 1)`; every seventh element
/// has all lanes exactly zero, so the strong-zero paths run too.
fn duals<S: DeviceFloat, const N: usize>(
    rng: &mut SplitMix64,
    len: usize,
    (lo, hi): (f64, f64),
) -> Vec<NDual<S, N>> {
    (0..len)
        .map(|i| {
            let v = S::cst(rng.uniform(lo, hi));
            let p = core::array::from_fn(|_| {
                let t = rng.uniform(-1.0, 1.0);
                S::cst(if i % 7 == 0 { 0.0 } else { t })
            });
            NDual::new(v, p)
        })
        .collect()
}

/// The host array of `xs`.
fn host<S: DeviceFloat, const N: usize>(xs: &[NDual<S, N>]) -> NDualArray<S, N> {
    let primal = xs.iter().map(|x| x.value()).collect();
    let block = xs.iter().flat_map(|x| *x.partials()).collect();
    NDualArray::from_parts(primal, block).expect("len × N partials")
}

/// Worst difference between a device result and host references, each element's
/// relative to its largest component (value or lane). Not each component relative to
/// itself: a lane that is a sum of two terms (`atan2`, `log`, `powf`, `hypot`) loses
/// the digits it cancels, so the few ulps CUDA's math library may differ from the
/// host's in each term would count many times over.
fn compare<S: DeviceFloat, const N: usize>(
    gpu: &CudaNDualArray<S, N>,
    cpu: &[NDual<S, N>],
) -> Result<f64, CudaError> {
    let got = gpu.to_host()?;
    if got.len() != cpu.len() {
        return Ok(f64::INFINITY);
    }
    let mut worst = 0.0f64;
    for (i, r) in cpu.iter().enumerate() {
        let g = got.get(i);
        let pairs = core::iter::once((g.value(), r.value()))
            .chain((0..N).map(|k| (g.partial(k), r.partial(k))))
            .map(|(g, r)| (g.primal_f64(), r.primal_f64()));
        let (mut most, mut scale) = (0.0f64, 0.0f64);
        for (g, r) in pairs {
            most = most.max(diff(g, r));
            if r.is_finite() {
                scale = scale.max(r.abs());
            }
        }
        worst = worst.max(most / scale.max(f64::MIN_POSITIVE));
    }
    Ok(worst)
}

/// Normwise relative difference: max |g − r| / max |r| over values and lanes.
fn normwise<S: DeviceFloat, const N: usize>(got: &NDualArray<S, N>, cpu: &[NDual<f64, N>]) -> f64 {
    let (mut diff, mut scale) = (0.0f64, 0.0f64);
    if got.len() != cpu.len() {
        return f64::INFINITY;
    }
    for (i, r) in cpu.iter().enumerate() {
        let g = got.get(i);
        let pairs = core::iter::once((g.value().primal_f64(), r.value()))
            .chain((0..N).map(|k| (g.partial(k).primal_f64(), r.partial(k))));
        for (a, b) in pairs {
            diff = diff.max(if a.is_nan() {
                f64::INFINITY
            } else {
                (a - b).abs()
            });
            scale = scale.max(b.abs());
        }
    }
    diff / scale.max(f64::MIN_POSITIVE)
}

/// Every check at precision `S` and width `N`.
fn check_width<S, const N: usize>(
    dev: &Arc<Device>,
    report: &mut Report,
    tol: f64,
) -> Result<(), CudaError>
where
    S: DeviceFloat + Scalar,
    NDual<S, N>: Reading<S>,
{
    let p = S::PRECISION;
    let mut rng = SplitMix64::new(2024 + N as u64);
    let len = 100_003;

    for &op in Unary::ALL {
        let xs = duals::<S, N>(&mut rng, len, unary_domain(op));
        let y = cuda::unary(op, &CudaNDualArray::from_host(dev, &host(&xs))?)?;
        let cpu: Vec<_> = xs.iter().map(|&x| reference::unary(op, x)).collect();
        report.record(op.name(), p, N, len, compare(&y, &cpu)?, tol);
    }
    for &op in UnaryInt::ALL {
        let xs = duals::<S, N>(&mut rng, len, (0.1, 2.0));
        let x = CudaNDualArray::from_host(dev, &host(&xs))?;
        for e in [-3, 0, 1, 5] {
            let y = cuda::powi(&x, e)?;
            let cpu: Vec<_> = xs.iter().map(|&x| reference::unary_int(op, x, e)).collect();
            report.record(
                &format!("{}({e})", op.name()),
                p,
                N,
                len,
                compare(&y, &cpu)?,
                tol,
            );
        }
    }

    let (rows, cols) = (331, 302); // len = 99_962 elements, rows broadcast over 302 columns
    for &op in Binary::ALL {
        let (da, db) = binary_domain(op);
        let a = duals::<S, N>(&mut rng, rows * cols, da);
        let b = duals::<S, N>(&mut rng, rows * cols, db);
        let row: Vec<S> = (0..cols).map(|_| S::cst(rng.uniform(db.0, db.1))).collect();
        let scalar = S::cst(rng.uniform(db.0, db.1));
        let shape = [rows, cols];
        let ga = CudaNDualArray::from_host_shaped(dev, &host(&a), &shape)?;
        let gb = CudaNDualArray::from_host_shaped(dev, &host(&b), &shape)?;
        let b_const: Vec<S> = b.iter().map(|x| x.value()).collect();
        let gb_const = CudaArray::new(dev, &b_const, &shape)?;
        let g_row = CudaArray::from_slice(dev, &row)?;

        let y = cuda::binary(op, &ga, &gb)?;
        let cpu: Vec<_> = a
            .iter()
            .zip(&b)
            .map(|(&x, &z)| reference::binary(op, Ref::Dual(x), Ref::Dual(z)))
            .collect();
        report.record(
            &format!("{} active·active", op.name()),
            p,
            N,
            a.len(),
            compare(&y, &cpu)?,
            tol,
        );

        let y = cuda::binary(op, &ga, &gb_const)?;
        let cpu: Vec<_> = a
            .iter()
            .zip(&b_const)
            .map(|(&x, &c)| reference::binary(op, Ref::Dual(x), Ref::Constant(c)))
            .collect();
        report.record(
            &format!("{} active·constant", op.name()),
            p,
            N,
            a.len(),
            compare(&y, &cpu)?,
            tol,
        );

        let y = cuda::binary::<S, N>(op, cuda::Operand::Scalar(scalar), &ga)?;
        let cpu: Vec<_> = a
            .iter()
            .map(|&x| reference::binary(op, Ref::Constant(scalar), Ref::Dual(x)))
            .collect();
        report.record(
            &format!("{} scalar·active", op.name()),
            p,
            N,
            a.len(),
            compare(&y, &cpu)?,
            tol,
        );

        let y = cuda::binary(op, &ga, &g_row)?;
        let cpu: Vec<_> = a
            .iter()
            .enumerate()
            .map(|(i, &x)| reference::binary(op, Ref::Dual(x), Ref::Constant(row[i % cols])))
            .collect();
        report.record(
            &format!("{} active·row", op.name()),
            p,
            N,
            a.len(),
            compare(&y, &cpu)?,
            tol,
        );
    }

    for &op in Ternary::ALL {
        let (lo_r, hi_r) = if op == Ternary::Clamp {
            ((-1.0, -0.1), (0.1, 1.0))
        } else {
            ((-3.0, 3.0), (-3.0, 3.0))
        };
        let a = duals::<S, N>(&mut rng, len, (-2.0, 2.0));
        let b = duals::<S, N>(&mut rng, len, lo_r);
        let c = duals::<S, N>(&mut rng, len, hi_r);
        let (ga, gb, gc) = (
            CudaNDualArray::from_host(dev, &host(&a))?,
            CudaNDualArray::from_host(dev, &host(&b))?,
            CudaNDualArray::from_host(dev, &host(&c))?,
        );
        let y = cuda::ternary(op, &ga, &gb, &gc)?;
        let cpu: Vec<_> = (0..len)
            .map(|i| reference::ternary(op, Ref::Dual(a[i]), Ref::Dual(b[i]), Ref::Dual(c[i])))
            .collect();
        report.record(op.name(), p, N, len, compare(&y, &cpu)?, tol);
    }

    // Reductions: error relative to Σ|terms| (the order of summation differs).
    let a = duals::<S, N>(&mut rng, len, (-1.0, 1.0));
    let b = duals::<S, N>(&mut rng, len, (-1.0, 1.0));
    let (ga, gb) = (
        CudaNDualArray::from_host(dev, &host(&a))?,
        CudaNDualArray::from_host(dev, &host(&b))?,
    );
    let scale = |f: &dyn Fn(usize) -> NDual<S, N>| -> (NDual<f64, N>, [f64; 2]) {
        let mut exact = NDual::<f64, N>::constant(0.0);
        let mut mags = [0.0; 2];
        for i in 0..len {
            let t = f(i);
            let t64 = NDual::new(
                t.value().primal_f64(),
                core::array::from_fn(|k| t.partial(k).primal_f64()),
            );
            exact += t64;
            mags[0] += t64.value().abs();
            mags[1] += t64.partials().iter().map(|x| x.abs()).sum::<f64>();
        }
        (exact, mags)
    };
    let reduction_err = |got: NDual<S, N>, (exact, mags): (NDual<f64, N>, [f64; 2])| {
        let mut e =
            (got.value().primal_f64() - exact.value()).abs() / mags[0].max(f64::MIN_POSITIVE);
        for k in 0..N {
            e = e.max(
                (got.partial(k).primal_f64() - exact.partial(k)).abs()
                    / mags[1].max(f64::MIN_POSITIVE),
            );
        }
        e
    };
    let s = cuda::sum(&ga)?;
    report.record("sum", p, N, len, reduction_err(s, scale(&|i| a[i])), tol);
    let d = cuda::dot(&ga, &gb)?;
    report.record(
        "dot active·active",
        p,
        N,
        len,
        reduction_err(d, scale(&|i| a[i] * b[i])),
        tol,
    );
    let b_const: Vec<S> = b.iter().map(|x| x.value()).collect();
    let gbc = CudaArray::from_slice(dev, &b_const)?;
    let d = cuda::dot(&ga, &gbc)?;
    report.record(
        "dot active·constant",
        p,
        N,
        len,
        reduction_err(d, scale(&|i| a[i] * b_const[i])),
        tol,
    );

    check_products::<S, N>(dev, report, &mut rng, tol)?;

    // Transfers: element-major → lane-major → element-major, bit for bit.
    for n in [0, 1, 7, 1000, 4099] {
        let xs = duals::<S, N>(&mut rng, n, (-1.0, 1.0));
        let back = CudaNDualArray::from_host(dev, &host(&xs))?.to_host()?;
        let same = back.len() == n
            && (0..n).all(|i| {
                let g = back.get(i);
                g.value().primal_f64().to_bits() == xs[i].value().primal_f64().to_bits()
                    && (0..N).all(|k| {
                        g.partial(k).primal_f64().to_bits()
                            == xs[i].partial(k).primal_f64().to_bits()
                    })
            });
        report.record(
            "transfer round trip",
            p,
            N,
            n,
            if same { 0.0 } else { f64::INFINITY },
            0.0,
        );
    }
    Ok(())
}

/// Host product `a b` of row-major duals (a: m × k, b: k × n), in f64.
fn host_matmul<S: DeviceFloat, const N: usize>(
    a: &[NDual<S, N>],
    b: &[NDual<S, N>],
    m: usize,
    k: usize,
    n: usize,
) -> Vec<NDual<f64, N>> {
    let up = |x: NDual<S, N>| {
        NDual::<f64, N>::new(
            x.value().primal_f64(),
            core::array::from_fn(|l| x.partial(l).primal_f64()),
        )
    };
    let mut c = vec![NDual::<f64, N>::constant(0.0); m * n];
    for i in 0..m {
        for j in 0..n {
            let mut acc = NDual::<f64, N>::constant(0.0);
            for t in 0..k {
                acc += up(a[i * k + t]) * up(b[t * n + j]);
            }
            c[i * n + j] = acc;
        }
    }
    c
}

/// The four operand kinds of `matmul` against the host product.
fn check_products<S: DeviceFloat, const N: usize>(
    dev: &Arc<Device>,
    report: &mut Report,
    rng: &mut SplitMix64,
    tol: f64,
) -> Result<(), CudaError> {
    let p = S::PRECISION;
    let constant = |xs: &[NDual<S, N>]| -> Vec<NDual<S, N>> {
        xs.iter().map(|x| NDual::constant(x.value())).collect()
    };
    let values = |xs: &[NDual<S, N>]| -> Vec<S> { xs.iter().map(|x| x.value()).collect() };
    let (m, k, n) = (257, 64, 33);
    let a = duals::<S, N>(rng, m * k, (-1.0, 1.0));
    let b = duals::<S, N>(rng, k * n, (-1.0, 1.0));
    let v = duals::<S, N>(rng, k, (-1.0, 1.0));
    let ga = CudaNDualArray::from_host_shaped(dev, &host(&a), &[m, k])?;
    let gb = CudaNDualArray::from_host_shaped(dev, &host(&b), &[k, n])?;
    let gv = CudaNDualArray::from_host(dev, &host(&v))?;
    let ca = CudaArray::new(dev, &values(&a), &[m, k])?;
    let cb = CudaArray::new(dev, &values(&b), &[k, n])?;

    let y = cuda::matmul(&ga, &cb)?.to_host()?;
    report.record(
        "matmul active·constant",
        p,
        N,
        m * n,
        normwise(&y, &host_matmul(&a, &constant(&b), m, k, n)),
        tol,
    );
    let y = cuda::matmul(&ca, &gb)?.to_host()?;
    report.record(
        "matmul constant·active",
        p,
        N,
        m * n,
        normwise(&y, &host_matmul(&constant(&a), &b, m, k, n)),
        tol,
    );
    let y = cuda::matmul(&ca, &gv)?.to_host()?;
    report.record(
        "matvec constant·active",
        p,
        N,
        m,
        normwise(&y, &host_matmul(&constant(&a), &v, m, k, 1)),
        tol,
    );
    let y = cuda::matmul(&ga, &gb)?.to_host()?;
    report.record(
        "matmul active·active",
        p,
        N,
        m * n,
        normwise(&y, &host_matmul(&a, &b, m, k, n)),
        tol,
    );
    Ok(())
}

/// W1's network and its first `count` points.
fn workload(count: usize) -> (Network, Vec<[f64; 3]>) {
    let mut rng = SplitMix64::new(42);
    let net = Network::from_fn(&WIDTHS, |i, o| (2.0 / (i + o) as f64).sqrt() * rng.normal());
    let mut rng = SplitMix64::new(7);
    let points = (0..count)
        .map(|_| [rng.next_f64(), rng.next_f64(), rng.next_f64()])
        .collect();
    (net, points)
}

/// The batched residual and network on the device against the host's batched engine.
fn check_pinn<S: DeviceFloat>(
    dev: &Arc<Device>,
    report: &mut Report,
    tol: f64,
) -> Result<(), CudaError> {
    let (net, points) = workload(8192);
    let host_r =
        pinn::navier_stokes_batched(&net, &points, NU, Batching::default()).expect("W1 network");
    let host_y = pinn::forward_batched(&net, points.as_flattened(), Batching::default())
        .expect("W1 network");
    let gpu = DeviceNetwork::<S>::new(dev, &net)?;
    let pts: Vec<S> = points.as_flattened().iter().map(|&x| S::cst(x)).collect();
    let pts = CudaArray::new(dev, &pts, &[points.len(), 3])?;
    let r = gpu.navier_stokes(&pts, S::cst(NU))?.to_vec()?;
    let want: Vec<f64> = host_r
        .iter()
        .flat_map(|r| [r.continuity, r.momentum_x, r.momentum_y])
        .collect();
    report.record(
        "pinn navier_stokes (vs f64 host)",
        S::PRECISION,
        6,
        points.len(),
        normwise_flat(&r, &want),
        tol,
    );
    let y = gpu.forward(&pts)?.to_vec()?;
    report.record(
        "pinn forward (vs f64 host)",
        S::PRECISION,
        0,
        points.len(),
        normwise_flat(&y, &host_y),
        tol,
    );
    Ok(())
}

/// Normwise relative difference of flat arrays, per column of 3.
fn normwise_flat<S: DeviceFloat>(got: &[S], want: &[f64]) -> f64 {
    if got.len() != want.len() {
        return f64::INFINITY;
    }
    (0..3)
        .map(|c| {
            let (mut diff, mut scale) = (0.0f64, 0.0f64);
            for (g, w) in got.iter().zip(want).skip(c).step_by(3) {
                let g = g.primal_f64();
                diff = diff.max(if g.is_nan() {
                    f64::INFINITY
                } else {
                    (g - w).abs()
                });
                scale = scale.max(w.abs());
            }
            diff / scale.max(f64::MIN_POSITIVE)
        })
        .fold(0.0, f64::max)
}

/// A group of checks: the unit `gpu_check check --group` runs.
struct Group {
    name: &'static str,
    run: fn(&Arc<Device>, &mut Report) -> Result<(), CudaError>,
}

/// Every group, in the order `gpu_check check` runs them.
const GROUPS: &[Group] = &[
    Group {
        name: "kernels-f64-n1",
        run: |dev, r| check_width::<f64, 1>(dev, r, 1e-12),
    },
    Group {
        name: "kernels-f64-n3",
        run: |dev, r| check_width::<f64, 3>(dev, r, 1e-12),
    },
    Group {
        name: "kernels-f64-n16",
        run: |dev, r| check_width::<f64, 16>(dev, r, 1e-12),
    },
    Group {
        name: "kernels-f32-n1",
        run: |dev, r| check_width::<f32, 1>(dev, r, 1e-5),
    },
    Group {
        name: "kernels-f32-n3",
        run: |dev, r| check_width::<f32, 3>(dev, r, 1e-5),
    },
    Group {
        name: "kernels-f32-n16",
        run: |dev, r| check_width::<f32, 16>(dev, r, 1e-5),
    },
    Group {
        name: "residual-f64",
        run: |dev, r| check_pinn::<f64>(dev, r, 1e-12),
    },
    // An f32 pass against the f64 host: the bound is f32's accumulated rounding over
    // five layers, not a rule's.
    Group {
        name: "residual-f32",
        run: |dev, r| check_pinn::<f32>(dev, r, 1e-4),
    },
    Group {
        name: "reading",
        run: |dev, r| reading::check(dev, r, 1e-12),
    },
];

/// The groups named by `--group NAME` options, in the order given; all of them when
/// none is named.
fn selected_groups(args: &[String]) -> Result<Vec<&'static Group>, String> {
    let mut groups = Vec::new();
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        if arg != "--group" {
            return Err(format!("check: unexpected argument {arg}"));
        }
        let name = rest.next().ok_or("check: --group needs a name")?;
        let group = GROUPS.iter().find(|g| g.name == name).ok_or_else(|| {
            let known: Vec<_> = GROUPS.iter().map(|g| g.name).collect();
            format!(
                "check: no group {name} (gpu_check list-groups: {})",
                known.join(", ")
            )
        })?;
        groups.push(group);
    }
    if groups.is_empty() {
        groups.extend(GROUPS);
    }
    Ok(groups)
}

/// `gpu_check check`: runs `groups` and returns the number of failed checks.
fn check(groups: &[&Group]) -> Result<usize, CudaError> {
    let dev = open()?;
    dev.set_poison(true);
    let mut report = Report {
        failed: 0,
        passed: 0,
        group: "",
    };
    for g in groups {
        report.group = g.name;
        run_group(&dev, &mut report, g);
    }
    dev.set_poison(false);
    eprintln!(
        "gpu_check: {} passed, {} failed",
        report.passed, report.failed
    );
    Ok(report.failed)
}

/// Runs one group of checks; a device error or a panic stops that group only, as a
/// failed check naming it, so one run still reports on every other group.
fn run_group(dev: &Arc<Device>, report: &mut Report, group: &Group) {
    let outcome = catch_unwind(AssertUnwindSafe(|| (group.run)(dev, report)));
    let stopped = match outcome {
        Ok(Ok(())) => return,
        Ok(Err(e)) => e.to_string(),
        Err(payload) => format!("panicked: {}", panic_message(&*payload)),
    };
    eprintln!("gpu_check: {} stopped: {stopped}", group.name);
    let name = format!("{} ran to the end ({stopped})", group.name);
    report.record(&name, Precision::F64, 0, 0, f64::INFINITY, 0.0);
}

/// Parses `--name value` options.
fn option(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .cloned()
}

/// `gpu_check w1 …`.
fn w1(args: &[String]) -> Result<(), CudaError> {
    let bad = |d: String| CudaError::Shape {
        op: "gpu_check w1",
        detail: d,
    };
    let points: usize = option(args, "--points")
        .unwrap_or_else(|| "8192".into())
        .parse()
        .map_err(|e| bad(format!("--points: {e}")))?;
    let reps: usize = option(args, "--reps")
        .unwrap_or_else(|| "20".into())
        .parse()
        .map_err(|e| bad(format!("--reps: {e}")))?;
    let dev = open()?;
    match option(args, "--precision").as_deref().unwrap_or("f64") {
        "f64" => time_w1::<f64>(&dev, points, reps.max(1)),
        "f32" => time_w1::<f32>(&dev, points, reps.max(1)),
        other => Err(bad(format!("--precision {other}: f32 or f64"))),
    }
}

/// Median and minimum of `times`.
fn stats(mut times: Vec<f32>) -> (f64, f64) {
    times.sort_by(f32::total_cmp);
    (f64::from(times[times.len() / 2]), f64::from(times[0]))
}

fn time_w1<S: DeviceFloat>(dev: &Arc<Device>, count: usize, reps: usize) -> Result<(), CudaError> {
    let (net, points) = workload(count);
    let gpu = DeviceNetwork::<S>::new(dev, &net)?;
    let pts: Vec<S> = points.as_flattened().iter().map(|&x| S::cst(x)).collect();
    let pts = CudaArray::new(dev, &pts, &[count, 3])?;
    let nu = S::cst(NU);
    let p = S::PRECISION.suffix();

    for _ in 0..3 {
        gpu.navier_stokes(&pts, nu)?;
        gpu.forward(&pts)?;
    }
    dev.synchronize()?;
    let mut times = Vec::with_capacity(reps);
    let mut last = None;
    for _ in 0..reps {
        let (r, ms) = dev.time_ms(|| gpu.navier_stokes(&pts, nu))?;
        times.push(ms);
        last = Some(r);
    }
    let r = last.map(|r| r.to_vec()).transpose()?.unwrap_or_default();
    let mut sums = [0.0f64; 3];
    for c in r.chunks_exact(3) {
        for (s, v) in sums.iter_mut().zip(c) {
            *s += v.primal_f64().abs();
        }
    }
    let (median, min) = stats(times);
    println!(
        "RESULT {{\"kind\":\"time\",\"impl\":\"lifted\",\"precision\":\"{p}\",\"points\":{count},\"ms_median\":{},\"ms_min\":{},\"reps\":{reps},\"sums\":[{},{},{}]}}",
        num(median),
        num(min),
        num(sums[0]),
        num(sums[1]),
        num(sums[2])
    );

    let mut times = Vec::with_capacity(reps);
    for _ in 0..reps {
        times.push(dev.time_ms(|| gpu.forward(&pts))?.1);
    }
    let (median, min) = stats(times);
    println!(
        "RESULT {{\"kind\":\"time\",\"impl\":\"lifted-primal\",\"precision\":\"{p}\",\"points\":{count},\"ms_median\":{},\"ms_min\":{},\"reps\":{reps}}}",
        num(median),
        num(min)
    );
    Ok(())
}
