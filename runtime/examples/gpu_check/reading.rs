//! The CUDA reading: derived rules, unchanged, on device arrays. Each check runs a rule
//! at `DeviceDual<f64, N>` on uploaded inputs and at `NDual<f64, N>` on the host, and
//! records the normwise difference; a result that left the device (a primitive that
//! fell back to the host) is a failure too.

use std::sync::Arc;

use lifted::array::ArrayView;
use lifted::autodiff;
use lifted::cuda::kernels::Precision;
use lifted::cuda::{CudaArray, CudaError, Device, DeviceDual, DeviceFloat, DeviceVec};
use lifted::elementwise::{add, mul, powi, sin, tanh};
use lifted::linalg::{Mat, dot, matmul, matvec, sum};
use lifted::testing::SplitMix64;
use lifted::{NDual, NDualArray};

use super::Report;

/// A tanh network over a batch of `n` points of 3 coordinates, layer widths `widths`,
/// parameters packed as (weights row-major, bias) per layer.
#[autodiff(forward, chunk = 3)]
fn network(
    #[constant] params: &[f64],
    #[constant] widths: &[usize],
    x: &[f64],
    n: usize,
) -> Vec<f64> {
    let (w, b) = (widths[1], widths[1] * (widths[0] + 1));
    let z: Vec<f64> = matmul(
        Mat::new(x, n, widths[0]),
        Mat::new(&params[..w * widths[0]], widths[0], w),
    );
    let mut h = tanh(&add(&z, &params[w * widths[0]..b]));
    let mut off = b;
    for l in 1..widths.len() - 1 {
        let (a, c) = (widths[l], widths[l + 1]);
        let z: Vec<f64> = matmul(
            Mat::new(&h, n, a),
            Mat::new(&params[off..off + a * c], a, c),
        );
        let bias = &params[off + a * c..off + a * c + c];
        off += a * c + c;
        h = if l + 2 < widths.len() {
            tanh(&add(&z, bias))
        } else {
            add(&z, bias)
        };
    }
    h
}

/// The first layer of `network` in `f32`: an `f32` function runs at `DeviceDual<f32, N>`.
#[autodiff(forward, chunk = 3)]
fn layer32(#[constant] w: &[f32], #[constant] b: &[f32], x: &[f32], n: usize) -> Vec<f32> {
    let z: Vec<f32> = matmul(Mat::new(x, n, 3), Mat::new(w, 3, b.len()));
    tanh(&add(&z, b))
}

/// The first layer of `network` with its weights kept on the device.
#[autodiff(forward, chunk = 3)]
fn resident_layer(
    #[constant] w: &CudaArray<f64>,
    #[constant] b: &CudaArray<f64>,
    x: &[f64],
    n: usize,
) -> Vec<f64> {
    let z: Vec<f64> = matmul(Mat::new(x, n, 3), Mat::new(w, 3, b.len()));
    tanh(&add(&z, b))
}

/// [`resident_layer`] with host weights.
#[autodiff(forward, chunk = 3)]
fn host_layer(#[constant] w: &[f64], #[constant] b: &[f64], x: &[f64], n: usize) -> Vec<f64> {
    let z: Vec<f64> = matmul(Mat::new(x, n, 3), Mat::new(w, 3, b.len()));
    tanh(&add(&z, b))
}

/// Reductions, a constant matrix times an active vector, element-wise products and
/// powers: the rest of what the reading sends to the device.
#[autodiff(forward, chunk = 3)]
fn reductions(#[constant] a: &[f64], x: &[f64]) -> f64 {
    let m = a.len() / x.len();
    let ax: Vec<f64> = matvec(Mat::new(a, m, x.len()), x);
    let p = powi(&mul(x, &sin(x)), 3);
    let copy = x.to_vec(); // a device-to-device copy
    sum(&p) + dot(&ax, &ax) + dot(&copy, x)
}

/// A product of two constants, one of them on the device: no tangents to carry, so it
/// stays with the host whichever reading the rule runs at.
#[autodiff(forward, chunk = 3)]
fn constant_product(#[constant] w: &CudaArray<f64>, #[constant] v: &[f64], x: &[f64]) -> f64 {
    let wv: Vec<f64> = matvec(Mat::new(w, x.len(), v.len()), v);
    dot(&wv, x)
}

/// Normwise difference of a device-reading result from the host reading's.
fn normwise<S: DeviceFloat, const N: usize>(
    got: &NDualArray<S, N>,
    want: &NDualArray<S, N>,
) -> f64 {
    let want: Vec<NDual<f64, N>> = want
        .iter()
        .map(|w| NDual::new(w.value().primal_f64(), w.partials().map(|p| p.primal_f64())))
        .collect();
    super::normwise(got, &want)
}

/// [`normwise`] for a result that must still be on the device (infinite if it left).
fn resident_err<S: DeviceFloat, const N: usize>(
    got: &DeviceVec<S, N>,
    want: &NDualArray<S, N>,
) -> Result<f64, CudaError> {
    if got.device_array().is_none() {
        return Ok(f64::INFINITY);
    }
    Ok(normwise(&got.to_host()?, want))
}

fn points(rng: &mut SplitMix64, n: usize) -> NDualArray<f64, 3> {
    let primal = (0..3 * n).map(|_| rng.uniform(-1.0, 1.0)).collect();
    NDualArray::from_primal_fn(primal, |i, k| f64::from(u8::from(i % 3 == k)))
}

/// Runs the reading's checks on `dev`.
pub(crate) fn check(dev: &Arc<Device>, report: &mut Report, tol: f64) -> Result<(), CudaError> {
    let mut rng = SplitMix64::new(2026);
    for (n, widths) in [
        (1, vec![3, 4, 3]),
        (4099, vec![3, 64, 64, 3]),
        (1 << 16, vec![3, 128, 128, 128, 128, 3]),
    ] {
        let count: usize = widths.windows(2).map(|w| w[0] * w[1] + w[1]).sum();
        let params: Vec<f64> = (0..count).map(|_| rng.uniform(-0.5, 0.5)).collect();
        let x = points(&mut rng, n);
        let host = network::frule::<NDual<f64, 3>>(&params, &widths, x.view(), n);
        let xd = DeviceVec::upload(dev, &x)?;
        let y = network::frule::<DeviceDual<f64, 3>>(&params, &widths, xd.view(), n);
        let err = resident_err(&y, &host)?;
        report.record("reading: tanh network", Precision::F64, 3, n, err, tol);
    }
    for n in [7, 100_000] {
        let k = 64;
        let w: Vec<f32> = (0..3 * k).map(|_| rng.uniform(-1.0, 1.0) as f32).collect();
        let b: Vec<f32> = (0..k).map(|_| rng.uniform(-1.0, 1.0) as f32).collect();
        let primal = (0..3 * n).map(|_| rng.uniform(-1.0, 1.0) as f32).collect();
        let x =
            NDualArray::<f32, 3>::from_primal_fn(primal, |i, c| f32::from(u8::from(i % 3 == c)));
        let host = layer32::frule::<NDual<f32, 3>>(&w, &b, x.view(), n);
        let xd = DeviceVec::upload(dev, &x)?;
        let y = layer32::frule::<DeviceDual<f32, 3>>(&w, &b, xd.view(), n);
        let err = resident_err(&y, &host)?;
        report.record("reading: f32 tanh layer", Precision::F32, 3, n, err, 1e-5);
    }
    for n in [5, 200_000] {
        let k = 64;
        let w: Vec<f64> = (0..3 * k).map(|_| rng.uniform(-1.0, 1.0)).collect();
        let b: Vec<f64> = (0..k).map(|_| rng.uniform(-1.0, 1.0)).collect();
        let x = points(&mut rng, n);
        let (wd, bd) = (
            CudaArray::new(dev, &w, &[3, k])?,
            CudaArray::from_slice(dev, &b)?,
        );
        let xd = DeviceVec::upload(dev, &x)?;
        let host_weights = host_layer::frule::<DeviceDual<f64, 3>>(&w, &b, xd.view(), n);
        let resident = resident_layer::frule::<DeviceDual<f64, 3>>(&wd, &bd, xd.view(), n);
        // The same device calls with the weights uploaded or resident: equal bits.
        let want = host_weights.to_host()?;
        let err = resident_err(&resident, &want)?;
        report.record(
            "reading: device-resident weights",
            Precision::F64,
            3,
            n,
            if err == 0.0 { 0.0 } else { f64::INFINITY },
            tol,
        );
        // A host-held input next to device weights is uploaded by the first device
        // operation and keeps that upload: same bits, and a device copy afterwards.
        let held = DeviceVec::from_host(x.clone());
        let from_held = resident_layer::frule::<DeviceDual<f64, 3>>(&wd, &bd, held.view(), n);
        let kept = held.device_array().is_some();
        let err = resident_err(&from_held, &want)?;
        report.record(
            "reading: host-held input keeps its upload",
            Precision::F64,
            3,
            n,
            if kept && err == 0.0 {
                0.0
            } else {
                f64::INFINITY
            },
            tol,
        );
        // The primal function with device weights runs on the host (weights downloaded once).
        let primal = resident_layer(&wd, &bd, x.as_primal_slice(), n);
        let value_err = primal
            .iter()
            .zip(want.as_primal_slice())
            .map(|(a, b)| (a - b).abs() / b.abs().max(1.0))
            .fold(0.0, f64::max);
        report.record(
            "reading: primal with device weights",
            Precision::F64,
            0,
            n,
            value_err,
            tol,
        );
    }
    for len in [1, 300, 100_003] {
        let a: Vec<f64> = (0..4 * len).map(|_| rng.uniform(-1.0, 1.0)).collect();
        let primal = (0..len).map(|_| rng.uniform(-2.0, 2.0)).collect();
        let x = NDualArray::<f64, 3>::from_primal_fn(primal, lane_seed);
        let host = reductions::frule::<NDual<f64, 3>>(&a, x.view());
        let xd = DeviceVec::upload(dev, &x)?;
        let s = reductions::frule::<DeviceDual<f64, 3>>(&a, xd.view());
        let got = NDualArray::from_elem(s.0, 1);
        let want = NDualArray::from_elem(host, 1);
        report.record(
            "reading: reductions and matvec",
            Precision::F64,
            3,
            len,
            normwise(&got, &want),
            tol,
        );
        let wd = CudaArray::new(dev, &a, &[len, 4])?;
        let v: Vec<f64> = (0..4).map(|_| rng.uniform(-1.0, 1.0)).collect();
        let host = constant_product::frule::<NDual<f64, 3>>(&wd, &v, x.view());
        let s = constant_product::frule::<DeviceDual<f64, 3>>(&wd, &v, xd.view());
        report.record(
            "reading: product of constants",
            Precision::F64,
            3,
            len,
            normwise(
                &NDualArray::from_elem(s.0, 1),
                &NDualArray::from_elem(host, 1),
            ),
            tol,
        );
    }
    let failure = dev.take_failure();
    if let Some(e) = &failure {
        eprintln!("gpu_check: the CUDA reading failed on the device: {e}");
    }
    let err = if failure.is_some() {
        f64::INFINITY
    } else {
        0.0
    };
    report.record("reading: no device failure", Precision::F64, 0, 0, err, tol);
    Ok(())
}

/// Tangent directions with every lane distinct.
fn lane_seed(i: usize, k: usize) -> f64 {
    ((i * 7 + k * 3) % 11) as f64 / 11.0 - 0.5
}
