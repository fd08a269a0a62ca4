//! The CUDA backend's host side: layout conversion for every shape and width, errors
//! on machines without a driver, the PINN kernel unit's text; and the device
//! paths themselves where a GPU is present (ignored elsewhere, never counted as
//! passes: `scripts/gpu-check.sh` runs the full device check).

use lifted::cuda::{
    CudaError, CudaNDualArray, Device, DeviceNetwork, element_to_lane_major, lane_to_element_major,
};
use lifted::testing::SplitMix64;
use lifted::{NDual, NDualArray};

/// The element-major block of `len` elements × `lanes` with distinct entries.
fn block(len: usize, lanes: usize) -> Vec<f64> {
    (0..len * lanes).map(|i| i as f64 + 0.5).collect()
}

#[test]
fn lane_major_conversion_matches_its_definition_for_every_shape() {
    let lens = (0..70).chain([255, 256, 257, 1000, 4099]);
    for len in lens {
        for lanes in (1..=20).chain([32, 33, 64]) {
            let src = block(len, lanes);
            let mut lane_major = vec![f64::NAN; len * lanes];
            element_to_lane_major(&src, len, lanes, &mut lane_major).unwrap();
            for i in 0..len {
                for k in 0..lanes {
                    assert_eq!(
                        lane_major[k * len + i],
                        src[i * lanes + k],
                        "len {len} lanes {lanes} element {i} lane {k}"
                    );
                }
            }
            let mut back = vec![f64::NAN; len * lanes];
            lane_to_element_major(&lane_major, len, lanes, &mut back).unwrap();
            assert_eq!(back, src, "round trip, len {len} lanes {lanes}");
        }
    }
}

#[test]
fn lane_major_conversion_works_for_f32() {
    let src: Vec<f32> = (0..12).map(|i| i as f32).collect();
    let mut out = [0.0f32; 12];
    element_to_lane_major(&src, 4, 3, &mut out).unwrap();
    assert_eq!(out, [0., 3., 6., 9., 1., 4., 7., 10., 2., 5., 8., 11.]);
}

#[test]
fn lane_major_conversion_rejects_wrong_lengths() {
    let mut out = vec![0.0; 6];
    let err = element_to_lane_major(&block(2, 3), 3, 3, &mut out).unwrap_err();
    assert!(matches!(err, CudaError::Shape { .. }), "{err}");
    assert!(
        err.to_string().contains("len 3 × lanes 3 needs 9 values"),
        "{err}"
    );
    let err = lane_to_element_major(&block(2, 3), 2, 3, &mut out[..5]).unwrap_err();
    assert!(matches!(err, CudaError::Shape { .. }), "{err}");
    let err = element_to_lane_major::<f64>(&[], usize::MAX, 2, &mut []).unwrap_err();
    assert!(err.to_string().contains("overflows"), "{err}");
}

/// Without a driver every entry point is an error naming the driver; with one, an
/// ordinal past the last device is `NoDevice`. Neither panics.
#[test]
fn opening_a_device_is_an_error_not_a_panic() {
    match Device::count() {
        Err(e) => {
            assert!(
                matches!(
                    e,
                    CudaError::LibraryMissing {
                        library: "driver",
                        ..
                    }
                ),
                "{e}"
            );
            let again = Device::new(0).unwrap_err();
            assert_eq!(again, e);
            assert!(again.to_string().contains("libcuda.so"), "{again}");
        }
        Ok(count) => {
            let err = Device::new(count).unwrap_err();
            assert_eq!(
                err,
                CudaError::NoDevice {
                    ordinal: count,
                    count
                }
            );
        }
    }
}

#[test]
fn errors_say_what_went_wrong() {
    let cases = [
        (
            CudaError::NoDevice {
                ordinal: 2,
                count: 1,
            },
            "no CUDA device 2",
        ),
        (
            CudaError::Compile {
                unit: "pinn f64".into(),
                log: "error: expected a ';'".into(),
            },
            "expected a ';'",
        ),
        (
            CudaError::OutOfMemory { bytes: 1 << 30 },
            "1073741824 bytes",
        ),
        (
            CudaError::Shape {
                op: "matmul",
                detail: "inner dimensions differ".into(),
            },
            "shape mismatch in matmul",
        ),
    ];
    for (err, needle) in cases {
        assert!(err.to_string().contains(needle), "{err}");
    }
}

#[test]
fn pinn_kernels_are_a_complete_unit() {
    use lifted::cuda::kernels::Precision;
    for &p in Precision::ALL {
        let src = lifted::cuda::pinn::source(p);
        assert!(src.starts_with(&format!("typedef {} T;", p.c_type())));
        for name in lifted::cuda::pinn::kernel_names(p) {
            assert!(src.contains(&format!("void {name}(")), "{name} missing");
        }
        assert!(!src.contains("SUFFIX"));
    }
}

/// Device 0, or the reason there is none.
fn device() -> std::sync::Arc<Device> {
    Device::new(0).unwrap_or_else(|e| panic!("skipped: no CUDA device: {e}"))
}

#[test]
#[ignore = "skipped: no CUDA device (scripts/gpu-check.sh runs the device checks)"]
fn device_tanh_matches_the_host_rule() {
    let dev = device();
    let mut rng = SplitMix64::new(5);
    let x = NDualArray::<f64, 3>::from_primal_fn(
        (0..1000).map(|_| rng.uniform(-2.0, 2.0)).collect(),
        |i, k| ((i + k) % 5) as f64 - 2.0,
    );
    let y = CudaNDualArray::from_host(&dev, &x)
        .unwrap()
        .tanh()
        .unwrap()
        .to_host()
        .unwrap();
    for i in 0..x.len() {
        let want: NDual<f64, 3> = lifted::Real::tanh(x.get(i));
        let got = y.get(i);
        assert!((got.value() - want.value()).abs() <= 1e-15);
        for k in 0..3 {
            assert!((got.partial(k) - want.partial(k)).abs() <= 1e-14);
        }
    }
}

#[test]
#[ignore = "skipped: no CUDA device (scripts/gpu-check.sh runs the device checks)"]
fn device_residual_matches_the_host_engine() {
    use lifted::pinn::{self, Batching, Network};
    let dev = device();
    let mut rng = SplitMix64::new(42);
    let net = Network::from_fn(&[3, 32, 32, 3], |i, o| {
        (2.0 / (i + o) as f64).sqrt() * rng.normal()
    });
    let points: Vec<[f64; 3]> = (0..300)
        .map(|_| [rng.next_f64(), rng.next_f64(), rng.next_f64()])
        .collect();
    let host = pinn::navier_stokes_batched(&net, &points, 0.01, Batching::default()).unwrap();
    let gpu = lifted::cuda::pinn::navier_stokes(&dev, &net, &points, 0.01).unwrap();
    for (h, g) in host.iter().zip(&gpu) {
        assert!((h.momentum_x - g.momentum_x).abs() <= 1e-12 * (1.0 + h.momentum_x.abs()));
        assert!((h.continuity - g.continuity).abs() <= 1e-12 * (1.0 + h.continuity.abs()));
    }
    let _ = DeviceNetwork::<f32>::new(&dev, &net).unwrap();
}
