//! The CUDA backend's host side, checked without a GPU: the generated kernel sources
//! compile with NVRTC to PTX that has an entry for every kernel (and, where `ptxas` is
//! found, assemble for sm_90) and to the CUBIN a driver too old for that PTX loads
//! instead, each cache compiles once, compile errors come back with NVRTC's log, launch
//! shapes, and the host references the device checks compare against.
//!
//! Tests that need NVRTC are ignored (visibly) where `build.rs` found none; with
//! `LIFTED_REQUIRE_NVRTC=1` (as `.ci/run` sets) they run and fail without it.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Instant;

use lifted::NDual;
use lifted::cuda::CudaError;
use lifted::cuda::kernels::{self, BLOCK, Binary, Precision, REDUCTIONS, Ternary, Unary, UnaryInt};
use lifted::cuda::launch::{LaunchShape, MAX_REDUCTION_GRID};
use lifted::cuda::nvrtc;
use lifted::cuda::reference::{self, LaneMajor, Operand};

/// The virtual architecture of the H200 machines the device checks run on.
const ARCH: &str = "compute_90";

// ---------------------------------------------------------------------------------
// Sources (no NVRTC needed)
// ---------------------------------------------------------------------------------

#[test]
fn every_op_has_one_kernel_per_precision() {
    let ops = Unary::ALL.len() + UnaryInt::ALL.len() + Binary::ALL.len() + Ternary::ALL.len();
    assert_eq!(ops, 49);
    for &p in Precision::ALL {
        let names = kernels::kernel_names(p);
        assert_eq!(names.len(), ops + REDUCTIONS.len());
        assert_eq!(
            names.iter().collect::<HashSet<_>>().len(),
            names.len(),
            "duplicate names"
        );
        let src = kernels::source(p);
        for name in &names {
            assert!(name.ends_with(p.suffix()), "{name}");
            let decl = format!("extern \"C\" __global__ void {name}(");
            assert_eq!(
                src.matches(&decl).count(),
                1,
                "{name} defined once in the {p:?} unit"
            );
        }
        assert!(
            !src.contains('@'),
            "an unexpanded placeholder is left in the {p:?} unit"
        );
        assert!(src.contains(&format!("typedef {} T;", p.c_type())));
    }
    assert_eq!(
        kernels::kernel_name("ln_1p", Precision::F32),
        "lifted_ln_1p_f32"
    );
    assert_eq!(Unary::Ln1p.name(), "ln_1p");
    assert_eq!(Precision::of::<f32>(), Precision::F32);
    assert_eq!(Precision::of::<f64>(), Precision::F64);
}

#[test]
fn single_precision_calls_the_float_functions() {
    let src = kernels::source(Precision::F32);
    assert!(src.contains("sinf(x)") && src.contains("log1pf(x)") && src.contains("powf(a, b)"));
    assert!(!src.contains(" sin(x)") && !src.contains("= exp(x)"));
    let src = kernels::source(Precision::F64);
    assert!(src.contains("sin(x)") && !src.contains("sinf("));
}

// ---------------------------------------------------------------------------------
// NVRTC
// ---------------------------------------------------------------------------------

#[test]
#[cfg_attr(not(lifted_nvrtc), ignore = "skipped: NVRTC not found (see .ci/run)")]
fn nvrtc_loads() {
    assert!(
        nvrtc::nvrtc_available(),
        "NVRTC was expected (LIFTED_REQUIRE_NVRTC=1, or found at build time) but cannot be \
         loaded: {}",
        nvrtc::compile("probe", "", ARCH).unwrap_err()
    );
}

#[test]
#[cfg_attr(not(lifted_nvrtc), ignore = "skipped: NVRTC not found (see .ci/run)")]
fn every_unit_compiles_with_an_entry_per_kernel() {
    for &p in Precision::ALL {
        let start = Instant::now();
        let ptx = nvrtc::ptx(p, ARCH).unwrap_or_else(|e| panic!("{p:?} unit: {e}"));
        println!("NVRTC: {p:?} unit to {ARCH} in {:.2?}", start.elapsed());
        assert!(
            ptx.contains(".target sm_90"),
            "{p:?}: PTX for another target"
        );
        for name in kernels::kernel_names(p) {
            assert!(
                ptx.contains(&format!(".entry {name}(")),
                "{p:?}: no .entry for {name} in the PTX"
            );
        }
        assemble("elementwise", p, &ptx);
    }
}

/// Assembles `ptx` for sm_90 with `ptxas` (register allocation, real instruction
/// selection: catches what NVRTC's front end lets through), where one is found:
/// `$LIFTED_PTXAS`, else `ptxas` on the `PATH`.
fn assemble(unit: &str, p: Precision, ptx: &str) {
    use std::process::Command;
    let ptxas = std::env::var("LIFTED_PTXAS").unwrap_or_else(|_| "ptxas".into());
    if Command::new(&ptxas).arg("--version").output().is_err() {
        assert!(
            std::env::var_os("LIFTED_PTXAS").is_none(),
            "LIFTED_PTXAS={ptxas} does not run"
        );
        println!("skipped: ptxas not found (set LIFTED_PTXAS), PTX not assembled");
        return;
    }
    // One folder per unit and precision: the tests run in parallel in one process.
    let dir = std::env::temp_dir().join(format!(
        "lifted-ptxas-{}-{unit}-{}",
        std::process::id(),
        p.suffix()
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join(format!("lifted_{}.ptx", p.suffix()));
    std::fs::write(&file, ptx).expect("write PTX");
    let start = Instant::now();
    let out = Command::new(&ptxas)
        .args(["-arch=sm_90", "-O3", "-o"])
        .arg(dir.join("out.cubin"))
        .arg(&file)
        .output()
        .expect("run ptxas");
    println!(
        "ptxas: {unit} {p:?} unit for sm_90 in {:.2?}",
        start.elapsed()
    );
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        out.status.success(),
        "ptxas rejected the {unit} {p:?} PTX:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
#[cfg_attr(not(lifted_nvrtc), ignore = "skipped: NVRTC not found (see .ci/run)")]
fn ptx_is_compiled_once_per_precision_and_arch() {
    // An architecture no other test compiles for: their compiles run concurrently.
    let first = nvrtc::ptx(Precision::F32, "compute_80").expect("compiles");
    let again = nvrtc::ptx(Precision::F32, "compute_80").expect("cached");
    assert_eq!(
        nvrtc::ptx_compiles(Precision::F32, "compute_80"),
        1,
        "compiled again"
    );
    assert!(Arc::ptr_eq(&first, &again));
    assert!(first.contains(".target sm_80"));
}

#[test]
#[cfg_attr(not(lifted_nvrtc), ignore = "skipped: NVRTC not found (see .ci/run)")]
fn broken_source_is_a_compile_error_with_the_log() {
    let src = "extern \"C\" __global__ void k(double* y) { y[0] = undeclared_name; }";
    match nvrtc::compile("broken", src, ARCH) {
        Err(CudaError::Compile { unit, log }) => {
            assert_eq!(unit, "broken");
            assert!(
                log.contains("undeclared_name"),
                "log without the error: {log}"
            );
        }
        other => panic!("expected a compile error, got {other:?}"),
    }
    let nul = nvrtc::compile("nul", "int x;\0", ARCH);
    assert!(matches!(nul, Err(CudaError::Compile { .. })), "{nul:?}");
    let arch = nvrtc::compile("arch", "int x;", "compute_1");
    assert!(matches!(arch, Err(CudaError::Compile { .. })), "{arch:?}");
}

#[test]
#[cfg_attr(
    lifted_nvrtc,
    ignore = "NVRTC is present: the missing-library path runs where it is not"
)]
fn without_nvrtc_compiling_is_an_error_not_a_panic() {
    assert!(!nvrtc::nvrtc_available());
    let missing = |r: Result<_, CudaError>| {
        matches!(
            r,
            Err(CudaError::LibraryMissing {
                library: "nvrtc",
                ..
            })
        )
    };
    assert!(missing(nvrtc::compile("probe", "", ARCH)));
    assert!(missing(
        nvrtc::compile_cubin("probe", "", "sm_90").map(|_| String::new())
    ));
    assert!(missing(
        nvrtc::ptx(Precision::F64, ARCH).map(|_| String::new())
    ));
}

// ---------------------------------------------------------------------------------
// Launch shapes
// ---------------------------------------------------------------------------------

#[test]
fn element_launch_shapes() {
    let shape = |len| LaunchShape::for_elements(len, 65_535);
    assert_eq!(
        shape(0),
        LaunchShape {
            grid: 1,
            block: BLOCK
        }
    );
    for (len, grid) in [(1, 1), (255, 1), (256, 1), (257, 2), (512, 2), (513, 3)] {
        assert_eq!(shape(len).grid, grid, "len {len}");
    }
    assert_eq!(shape(65_535 * 256).grid, 65_535);
    assert_eq!(
        shape(65_535 * 256 + 1).grid,
        65_535,
        "capped: the grid-stride loop covers it"
    );
    // Past u32::MAX elements (and past u32::MAX blocks): capped, no overflow.
    assert_eq!(shape(u32::MAX as usize + 1).grid, 65_535);
    assert_eq!(
        LaunchShape::for_elements(usize::MAX, u32::MAX).grid,
        u32::MAX
    );
    assert_eq!(LaunchShape::for_elements(1 << 40, u32::MAX).grid, u32::MAX);
}

#[test]
fn reduction_launch_shapes() {
    assert_eq!(LaunchShape::for_reduction(0).grid, 1);
    assert_eq!(LaunchShape::for_reduction(1000).grid, 4);
    assert_eq!(
        LaunchShape::for_reduction(usize::MAX).grid,
        MAX_REDUCTION_GRID
    );
    // The finish pass sums every first-pass partial in one block.
    assert_eq!(
        LaunchShape::finish(),
        LaunchShape {
            grid: 1,
            block: BLOCK
        }
    );
}

// ---------------------------------------------------------------------------------
// Host references
// ---------------------------------------------------------------------------------

/// A point inside every op's domain, with distinct lanes.
fn point(x: f64) -> NDual<f64, 2> {
    NDual::new(x, [1.0, -0.5])
}

/// Central difference of `f` along lane `k`'s direction, for the ops' smooth points.
fn central<const A: usize>(f: &impl Fn([f64; A]) -> f64, at: [f64; A], dir: [f64; A]) -> f64 {
    let h = 1e-6;
    let plus: [f64; A] = core::array::from_fn(|j| at[j] + h * dir[j]);
    let minus: [f64; A] = core::array::from_fn(|j| at[j] - h * dir[j]);
    (f(plus) - f(minus)) / (2.0 * h)
}

#[track_caller]
fn close(name: &str, got: f64, want: f64) {
    let tol = 1e-6 * (1.0 + want.abs());
    assert!((got - want).abs() <= tol, "{name}: {got} vs {want}");
}

/// Every op of every table has a reference (the matches are exhaustive), and each one
/// is the op its name says: lanes against finite differences of the `f64` method of
/// that name at a smooth point.
#[test]
fn every_reference_is_the_named_rule() {
    let primal_unary =
        |op: Unary, x: f64| reference::unary(op, NDual::<f64, 0>::constant(x)).value();
    for &op in Unary::ALL {
        let x = if matches!(op, Unary::Acosh) { 1.7 } else { 0.3 };
        let y = reference::unary(op, point(x));
        let f = |[x]: [f64; 1]| primal_unary(op, x);
        close(op.name(), y.value(), f([x]));
        for (k, &t) in [1.0, -0.5].iter().enumerate() {
            close(op.name(), y.partial(k), central(&f, [x], [t]));
        }
    }
    for &op in UnaryInt::ALL {
        for p in [-3, 0, 1, 2, 5] {
            let y = reference::unary_int(op, point(1.3), p);
            close("powi", y.value(), 1.3f64.powi(p));
            close(
                "powi",
                y.partial(1),
                -0.5 * f64::from(p) * 1.3f64.powi(p - 1),
            );
        }
    }
    let ab = (
        NDual::<f64, 2>::new(1.3, [1.0, 0.25]),
        NDual::<f64, 2>::new(0.7, [-0.5, 2.0]),
    );
    for &op in Binary::ALL {
        let y = reference::binary(op, Operand::Dual(ab.0), Operand::Dual(ab.1));
        let f = |[a, b]: [f64; 2]| {
            reference::binary::<f64, 0>(op, Operand::Constant(a), Operand::Constant(b)).value()
        };
        for k in 0..2 {
            let dir = [ab.0.partial(k), ab.1.partial(k)];
            close(op.name(), y.partial(k), central(&f, [1.3, 0.7], dir));
        }
    }
    for &op in Ternary::ALL {
        let c = NDual::<f64, 2>::new(2.1, [0.5, 1.0]);
        let y = reference::ternary(
            op,
            Operand::Dual(ab.0),
            Operand::Dual(ab.1),
            Operand::Dual(c),
        );
        let f = |[a, b, c]: [f64; 3]| {
            let k = |v| Operand::<f64, 0>::Constant(v);
            reference::ternary(op, k(a), k(b), k(c)).value()
        };
        for k in 0..2 {
            let dir = [ab.0.partial(k), ab.1.partial(k), c.partial(k)];
            close(op.name(), y.partial(k), central(&f, [1.3, 0.7, 2.1], dir));
        }
    }
}

#[test]
fn references_match_closed_forms() {
    let x = point(0.6);
    let t = reference::unary(Unary::Tanh, x);
    assert_eq!(t.partial(0), 1.0 - 0.6f64.tanh().powi(2));
    let s = reference::unary(Unary::Sqrt, NDual::<f64, 2>::new(0.0, [1.0, 0.0]));
    assert_eq!(
        *s.partials(),
        [f64::INFINITY, 0.0],
        "strong zero in the untouched lane"
    );
    let h = reference::binary(
        Binary::Hypot,
        Operand::Dual(point(3.0)),
        Operand::Constant(4.0),
    );
    assert_eq!((h.value(), h.partial(0)), (5.0, 0.6));
    let p = reference::binary(
        Binary::Powf,
        Operand::Constant(2.0),
        Operand::Dual(point(3.0)),
    );
    assert_eq!((p.value(), p.partial(0)), (8.0, 8.0 * 2f64.ln()));
    // Ties go to the first operand, as f64::min / max and the CPU rule do.
    let m = reference::binary(
        Binary::Min,
        Operand::Dual(point(1.0)),
        Operand::Dual(NDual::new(1.0, [7.0, 7.0])),
    );
    assert_eq!(m.partial(0), 1.0);
    let c = reference::ternary(
        Ternary::Clamp,
        Operand::Dual(point(5.0)),
        Operand::Constant(0.0),
        Operand::Dual(NDual::new(2.0, [3.0, 4.0])),
    );
    assert_eq!((c.value(), *c.partials()), (2.0, [3.0, 4.0]));
}

/// The lane-major evaluator broadcasts as the kernels do: a row over a matrix, a
/// scalar constant, a constant operand skipped.
#[test]
fn lane_major_reference_broadcasts() {
    // a: a 2 × 3 matrix (row-major) with 2 lanes; b: a row of 3, constant.
    let av = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
    let ad = [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 2.0, 2.0, 2.0];
    let bv = [10.0, 20.0, 30.0];
    let a = LaneMajor {
        values: &av[..],
        tangents: Some(&ad[..]),
    };
    let b = LaneMajor {
        values: &bv[..],
        tangents: None,
    };
    let (v, d) = reference::lane_major::<f64, 2, 2>([a, b], 6, |[a, b]| {
        reference::binary(Binary::Mul, a, b)
    });
    assert_eq!(v, [10.0, 40.0, 90.0, 40.0, 100.0, 180.0]);
    assert_eq!(
        d,
        [
            10.0, 20.0, 30.0, 10.0, 20.0, 30.0, 0.0, 0.0, 0.0, 20.0, 40.0, 60.0
        ]
    );
    // All constant: values, zero lanes.
    let s = LaneMajor {
        values: &[2.0][..],
        tangents: None,
    };
    let (v, d) =
        reference::lane_major::<f64, 2, 1>([s], 3, |[x]| reference::unary(Unary::Ln, x.dual()));
    assert_eq!(v, [2f64.ln(); 3]);
    assert_eq!(d, [0.0; 6]);
    // Reductions.
    let xs = [point(1.0), point(2.0)];
    assert_eq!(*reference::sum(&xs).partials(), [2.0, -1.0]);
    assert_eq!(reference::dot(&xs, &xs).value(), 5.0);
}

/// The PINN unit (`lifted::cuda::pinn`): every kernel in the PTX, and assembled.
#[test]
#[cfg_attr(not(lifted_nvrtc), ignore = "skipped: NVRTC not found (see .ci/run)")]
fn pinn_kernels_compile_and_assemble() {
    for &p in Precision::ALL {
        let unit = format!("pinn {}", p.suffix());
        let ptx = lifted::cuda::nvrtc::compile(&unit, &lifted::cuda::pinn::source(p), "compute_90")
            .unwrap_or_else(|e| panic!("{e}"));
        for name in lifted::cuda::pinn::kernel_names(p) {
            assert!(
                ptx.contains(&format!(".entry {name}(")),
                "{name} not in the PTX"
            );
        }
        assemble("pinn", p, &ptx);
    }
}

/// The fallback for a driver older than NVRTC, which cannot read its PTX: every unit
/// compiles, in both precisions and with the PTX's options, to CUBIN for sm_90 — an
/// ELF image of CUDA machine code with every kernel in it — compiled once and cached.
#[test]
#[cfg_attr(not(lifted_nvrtc), ignore = "skipped: NVRTC not found (see .ci/run)")]
fn every_unit_compiles_to_cubin_for_sm_90() {
    type Unit = (
        &'static str,
        fn(Precision) -> String,
        fn(Precision) -> Vec<String>,
    );
    let units: [Unit; 2] = [
        ("elementwise", kernels::source, kernels::kernel_names),
        (
            "pinn",
            lifted::cuda::pinn::source,
            lifted::cuda::pinn::kernel_names,
        ),
    ];
    /// `e_machine` of an ELF image for NVIDIA GPUs.
    const EM_CUDA: u16 = 190;
    for (unit, source, names) in units {
        for &p in Precision::ALL {
            let start = Instant::now();
            let cubin = nvrtc::unit_cubin(unit, source, p, "sm_90")
                .unwrap_or_else(|e| panic!("{unit} {p:?} unit: {e}"));
            println!(
                "NVRTC: {unit} {p:?} unit to sm_90 CUBIN in {:.2?}",
                start.elapsed()
            );
            assert!(
                cubin.starts_with(b"\x7fELF"),
                "{unit} {p:?}: not an ELF image: {:02x?}",
                &cubin[..cubin.len().min(16)]
            );
            let machine = cubin.get(18..20).map(|m| u16::from_le_bytes([m[0], m[1]]));
            assert_eq!(
                machine,
                Some(EM_CUDA),
                "{unit} {p:?}: not CUDA machine code"
            );
            for name in names(p) {
                assert!(
                    cubin.windows(name.len()).any(|w| w == name.as_bytes()),
                    "{unit} {p:?}: {name} not in the CUBIN"
                );
            }
            let again = nvrtc::unit_cubin(unit, source, p, "sm_90").expect("cached");
            assert!(Arc::ptr_eq(&cubin, &again), "{unit} {p:?}: not cached");
            assert_eq!(
                nvrtc::cubin_compiles(unit, p, "sm_90"),
                1,
                "{unit} {p:?}: compiled again"
            );
        }
    }
    // Machine code exists only for a real architecture.
    let virtual_arch = nvrtc::compile_cubin("virtual", "__global__ void k() {}", ARCH);
    assert!(
        matches!(virtual_arch, Err(CudaError::Compile { .. })),
        "{virtual_arch:?}"
    );
}
