//! The CUDA reading (`DeviceDual`, `DeviceVec`): derived rules instantiated at it with no
//! change to the generated code. Without a device every array stays on the host and
//! the rule must equal the `NDual` reading bit for bit (the same scalar rules, the same
//! host primitives); with a device (ignored elsewhere, never counted as passes) the
//! whole-array operations run as kernels and cuBLAS calls and must agree with the host
//! to rounding.

use lifted::array::{ArrayOwned, ArrayRead, ArrayView, ArrayViewMut};
use lifted::autodiff;
use lifted::cuda::{CudaError, Device, DeviceDual, DeviceVec};
use lifted::elementwise::{add, mul, powi, tanh};
use lifted::linalg::{Mat, dot, matmul, matvec, sum};
use lifted::testing::SplitMix64;
use lifted::{NDual, NDualArray};

/// A two-layer network over a batch of `n` points of 3 coordinates, written with
/// whole-array operations only.
#[autodiff(forward, chunk = 3)]
fn mlp(
    #[constant] w0: &[f64],
    #[constant] b0: &[f64],
    #[constant] w1: &[f64],
    #[constant] b1: &[f64],
    x: &[f64],
    n: usize,
) -> Vec<f64> {
    let k = b0.len();
    let z: Vec<f64> = matmul(Mat::new(x, n, 3), Mat::new(w0, 3, k));
    let h = tanh(&add(&z, b0));
    let y: Vec<f64> = matmul(Mat::new(&h, n, k), Mat::new(w1, k, b1.len()));
    add(&y, b1)
}

/// Reductions, products with a constant vector, element loops and in-place writes: the
/// constructs that take the host path of a device array.
#[autodiff(forward, chunk = 3)]
fn mixed(#[constant] a: &[f64], x: &[f64], out: &mut [f64]) -> f64 {
    let ax: Vec<f64> = matvec(Mat::new(a, 2, x.len()), x);
    let sq = powi(&mul(x, x), 2);
    let mut s = sum(&sq) + dot(&ax, &ax[..]);
    for i in 0..out.len() {
        out[i] = x[i] * ax[i % 2];
        s += out[i].sin();
    }
    s
}

struct Net {
    w0: Vec<f64>,
    b0: Vec<f64>,
    w1: Vec<f64>,
    b1: Vec<f64>,
}

fn net(rng: &mut SplitMix64, k: usize) -> Net {
    let mut v = |len: usize| (0..len).map(|_| rng.uniform(-1.0, 1.0)).collect::<Vec<_>>();
    Net {
        w0: v(3 * k),
        b0: v(k),
        w1: v(k * 2),
        b1: v(2),
    }
}

/// `n` points, each seeded along its three coordinates.
fn points<const N: usize>(rng: &mut SplitMix64, n: usize) -> NDualArray<f64, N> {
    let primal = (0..3 * n).map(|_| rng.uniform(-1.0, 1.0)).collect();
    NDualArray::from_primal_fn(primal, |i, k| f64::from(u8::from(i % 3 == k)))
}

fn assert_bitwise<const N: usize>(a: &NDualArray<f64, N>, b: &NDualArray<f64, N>) {
    assert_eq!(a.len(), b.len());
    for i in 0..a.len() {
        let (x, y) = (a.get(i), b.get(i));
        assert_eq!(x.value().to_bits(), y.value().to_bits(), "value {i}");
        for k in 0..N {
            assert_eq!(
                x.partials()[k].to_bits(),
                y.partials()[k].to_bits(),
                "{i}, lane {k}"
            );
        }
    }
}

#[test]
fn the_network_rule_on_host_held_device_arrays_equals_the_ndual_reading() {
    let mut rng = SplitMix64::new(7);
    for (n, k) in [(1, 1), (5, 4), (33, 16)] {
        let net = net(&mut rng, k);
        let x = points::<3>(&mut rng, n);
        let host = mlp::frule::<NDual<f64, 3>>(&net.w0, &net.b0, &net.w1, &net.b1, x.view(), n);
        let xd = DeviceVec::from_host(x.clone());
        let dev =
            mlp::frule::<DeviceDual<f64, 3>>(&net.w0, &net.b0, &net.w1, &net.b1, xd.view(), n);
        assert!(dev.device_array().is_none(), "no operand was on a device");
        assert_bitwise(&dev.to_host().unwrap(), &host);
        // And the primal: the values are the primal function's.
        let primal_x: Vec<f64> = x.as_primal_slice().to_vec();
        let y = mlp(&net.w0, &net.b0, &net.w1, &net.b1, &primal_x, n);
        assert_eq!(host.as_primal_slice(), y.as_slice());
    }
}

/// Runs `mixed` at width `N` on the NDual reading and on host-held device arrays.
fn mixed_agrees<const N: usize>() {
    let mut rng = SplitMix64::new(N as u64);
    let len = 6;
    let a: Vec<f64> = (0..2 * len).map(|_| rng.uniform(-1.0, 1.0)).collect();
    let primal: Vec<f64> = (0..len).map(|_| rng.uniform(-1.0, 1.0)).collect();
    let x = NDualArray::<f64, N>::from_primal_fn(primal, |i, k| {
        f64::from(u8::from(i % N == k)) + 0.25 * k as f64
    });
    let mut out_h = NDualArray::<f64, N>::from_elem(NDual::constant(0.0), 4);
    let s_h = mixed::frule::<NDual<f64, N>>(&a, x.view(), out_h.view_mut());

    let xd = DeviceVec::from_host(x.clone());
    let mut out_d = DeviceVec::<f64, N>::from_elem(DeviceDual(NDual::constant(0.0)), 4);
    let s_d = mixed::frule::<DeviceDual<f64, N>>(&a, xd.view(), out_d.view_mut());
    assert_eq!(s_d.value().to_bits(), s_h.value().to_bits());
    for k in 0..N {
        assert_eq!(s_d.partials()[k].to_bits(), s_h.partials()[k].to_bits());
    }
    assert_bitwise(&out_d.to_host().unwrap(), &out_h);
}

#[test]
fn reductions_element_loops_and_in_place_writes_agree_at_every_width() {
    mixed_agrees::<1>();
    mixed_agrees::<2>();
    mixed_agrees::<3>();
    mixed_agrees::<16>();
}

/// An `f32` layer: the reading of a function written in `f32` is `DeviceDual<f32, N>`.
#[autodiff(forward, chunk = 2)]
fn layer32(#[constant] w: &[f32], #[constant] b: &[f32], x: &[f32], n: usize) -> Vec<f32> {
    let z: Vec<f32> = matmul(Mat::new(x, n, 2), Mat::new(w, 2, b.len()));
    tanh(&add(&z, b))
}

#[test]
fn an_f32_rule_at_the_f32_device_reading_equals_ndual_f32() {
    let mut rng = SplitMix64::new(3);
    let (n, k) = (9, 5);
    let w: Vec<f32> = (0..2 * k).map(|_| rng.uniform(-1.0, 1.0) as f32).collect();
    let b: Vec<f32> = (0..k).map(|_| rng.uniform(-1.0, 1.0) as f32).collect();
    let primal: Vec<f32> = (0..2 * n).map(|_| rng.uniform(-1.0, 1.0) as f32).collect();
    let x = NDualArray::<f32, 2>::from_primal_fn(primal, |i, c| f32::from(u8::from(i % 2 == c)));
    let host = layer32::frule::<NDual<f32, 2>>(&w, &b, x.view(), n);
    let xd = DeviceVec::from_host(x.clone());
    let dev = layer32::frule::<DeviceDual<f32, 2>>(&w, &b, xd.view(), n);
    let dev = dev.to_host().unwrap();
    assert_eq!(dev.as_primal_slice(), host.as_primal_slice());
    assert_eq!(dev.partials_block(), host.partials_block());
    // The derivative itself, against the closed form of one element:
    // d tanh(x0 w0j + x1 w1j + bj) / d x0 = (1 − tanh²) w0j.
    let (x0, x1) = (x.get(0).value(), x.get(1).value());
    let t = (x0 * w[0] + x1 * w[k] + b[0]).tanh();
    let want = (1.0 - t * t) * w[0];
    assert!(
        (dev.get(0).partials()[0] - want).abs() <= 1e-6,
        "{} vs {want}",
        dev.get(0).partials()[0]
    );
}

#[test]
fn device_vec_behaves_as_an_owned_array() {
    let mut v = DeviceVec::<f64, 2>::default();
    assert!(v.is_empty());
    v.push(DeviceDual(NDual::new(1.0, [2.0, 3.0])));
    v.push(DeviceDual(NDual::new(4.0, [5.0, 6.0])));
    v.insert(0, DeviceDual(NDual::constant(-1.0)));
    assert_eq!(ArrayRead::len(&v), 3);
    assert_eq!(ArrayRead::get(&v, 2).partials(), &[5.0, 6.0]);
    *v.elem_mut(1) += DeviceDual(NDual::new(1.0, [1.0, 1.0]));
    assert_eq!(ArrayRead::get(&v, 1).value(), 2.0);
    assert_eq!(ArrayRead::get(&v, 1).partials(), &[3.0, 4.0]);
    let values: Vec<f64> = v.iter().map(|x| x.value()).collect();
    assert_eq!(values, vec![-1.0, 2.0, 4.0]);
    let w: DeviceVec<f64, 2> = v.clone().into_iter().rev().collect();
    assert_eq!(ArrayRead::get(&w, 0).value(), 4.0);
    assert_eq!(v.remove(0).value(), -1.0);
    assert_eq!(v.to_host().unwrap().as_primal_slice(), &[2.0, 4.0]);
    let tail = lifted::array::ArrayRef::into_slice(v.view(), 1..);
    assert_eq!(ArrayRead::len(&tail), 1);
}

#[test]
fn uploading_without_a_driver_is_an_error_not_a_panic() {
    if Device::count().is_ok() {
        return; // a driver is present: the device tests below cover this machine
    }
    let err = Device::new(0).unwrap_err();
    assert!(
        matches!(
            err,
            CudaError::LibraryMissing { .. } | CudaError::NoDevice { .. }
        ),
        "{err}"
    );
}

fn device() -> std::sync::Arc<Device> {
    Device::new(0).unwrap_or_else(|e| panic!("skipped: no CUDA device: {e}"))
}

/// Largest |a − b| relative to max(1, |b|) over values and lanes.
fn rel_err<const N: usize>(a: &NDualArray<f64, N>, b: &NDualArray<f64, N>) -> f64 {
    assert_eq!(a.len(), b.len());
    let mut worst = 0.0f64;
    for i in 0..a.len() {
        let (x, y) = (a.get(i), b.get(i));
        let d = (x.value() - y.value()).abs() / y.value().abs().max(1.0);
        worst = worst.max(d);
        for k in 0..N {
            let d = (x.partials()[k] - y.partials()[k]).abs() / y.partials()[k].abs().max(1.0);
            worst = worst.max(d);
        }
    }
    worst
}

#[test]
#[ignore = "skipped: no CUDA device (scripts/gpu-check.sh runs the device checks)"]
fn the_network_rule_runs_on_the_device_and_matches_the_host() {
    let dev = device();
    let mut rng = SplitMix64::new(11);
    let (n, k) = (1000, 32);
    let net = net(&mut rng, k);
    let x = points::<3>(&mut rng, n);
    let host = mlp::frule::<NDual<f64, 3>>(&net.w0, &net.b0, &net.w1, &net.b1, x.view(), n);
    let xd = DeviceVec::upload(&dev, &x).unwrap();
    let y = mlp::frule::<DeviceDual<f64, 3>>(&net.w0, &net.b0, &net.w1, &net.b1, xd.view(), n);
    assert!(
        y.device_array().is_some(),
        "the result stayed on the device"
    );
    let err = rel_err(&y.to_host().unwrap(), &host);
    assert!(err <= 1e-12, "relative error {err:e}");
}

/// A layer whose weights stay on the device (`#[constant]` device arrays).
#[autodiff(forward, chunk = 3)]
fn resident_layer(
    #[constant] w: &lifted::cuda::CudaArray<f64>,
    #[constant] b: &lifted::cuda::CudaArray<f64>,
    x: &[f64],
    n: usize,
) -> Vec<f64> {
    let z: Vec<f64> = matmul(Mat::new(x, n, 3), Mat::new(w, 3, b.len()));
    tanh(&add(&z, b))
}

#[test]
#[ignore = "skipped: no CUDA device (scripts/gpu-check.sh runs the device checks)"]
fn device_resident_weights_give_the_bits_of_uploaded_ones() {
    use lifted::cuda::CudaArray;
    let dev = device();
    let mut rng = SplitMix64::new(13);
    let (n, k) = (500, 16);
    let net = net(&mut rng, k);
    let x = points::<3>(&mut rng, n);
    let wd = CudaArray::new(&dev, &net.w0, &[3, k]).unwrap();
    let bd = CudaArray::from_slice(&dev, &net.b0).unwrap();
    let xd = DeviceVec::upload(&dev, &x).unwrap();
    let y = resident_layer::frule::<DeviceDual<f64, 3>>(&wd, &bd, xd.view(), n);
    let host = resident_layer::frule::<NDual<f64, 3>>(&wd, &bd, x.view(), n);
    assert!(y.device_array().is_some());
    let err = rel_err(&y.to_host().unwrap(), &host);
    assert!(err <= 1e-12, "relative error {err:e}");
    // The primal function reads the device weights through a host copy.
    let primal = resident_layer(&wd, &bd, x.as_primal_slice(), n);
    assert_eq!(primal.as_slice(), host.as_primal_slice());
}
