//! The device PINN pass run on the host: the kernels of `lifted::cuda::pinn`
//! compiled by the C++ compiler (one block of one thread), driven in the order and
//! stream layout of `DeviceNetwork` with a plain row-major product in place of each
//! cuBLAS call (whose operand layout `cuda::blas`'s own tests check), and compared with
//! the host's batched engine: the Navier–Stokes residuals and the network's outputs.
//!
//! Ignored (visibly) where no C++ compiler runs (`tests/build.rs`).

use lifted::cuda::kernels::Precision;
use lifted::pinn::{self, Batching, Network};
use lifted::testing::SplitMix64;

#[path = "support/cuda_shim.rs"]
mod cuda_shim;
use cuda_shim::{HOST_SHIM, build_and_run};

/// The driver: `DeviceNetwork::navier_stokes` and `forward` as sequences of kernel
/// launches and products. Reads the weights, biases and points from `argv[1]`, writes
/// the residuals then the outputs to `argv[2]`.
const DRIVER: &str = r#"
static void product(const T* a, const T* b, T* c, long long m, int k, int n) {
    for (long long r = 0; r < m; ++r)
        for (int j = 0; j < n; ++j) {
            T s = 0;
            for (int l = 0; l < k; ++l) s += a[r * k + l] * b[l * n + j];
            c[r * n + j] = s;
        }
}

// One pass over all points with `streams` streams (first-order on when streams > 1,
// second order along x and y when 6); leaves the last product in `cur`.
static std::vector<T> pass(const std::vector<std::vector<T>>& w, const std::vector<std::vector<T>>& b,
                           const int* widths, int layers, const T* pts, long long points, int streams) {
    int widest = 3;
    for (int l = 0; l <= layers; ++l) widest = widths[l] > widest ? widths[l] : widest;
    std::vector<T> cur(streams * points * widest), next(streams * points * widest);
    int first = streams > 1, mask = streams == 6 ? 6 : 0;
    lifted_pinn_input_SFX(pts, w[0].data(), b[0].data(), cur.data(), points, 3, widths[1], first, mask, layers > 1);
    for (int l = 1; l < layers; ++l) {
        product(cur.data(), w[l].data(), next.data(), streams * points, widths[l], widths[l + 1]);
        if (l != layers - 1)
            lifted_pinn_tanh_jet_SFX(next.data(), b[l].data(), points, 3, widths[l + 1], first, mask);
        cur.swap(next);
    }
    return cur;
}

int main(int, char** argv) {
    FILE* in = fopen(argv[1], "rb");
    FILE* out = fopen(argv[2], "wb");
    if (!in || !out) return 2;
    std::vector<std::vector<T>> w(LAYERS), b(LAYERS);
    for (int l = 0; l < LAYERS; ++l) {
        w[l].resize(WIDTHS[l] * WIDTHS[l + 1]);
        b[l].resize(WIDTHS[l + 1]);
        if (fread(w[l].data(), sizeof(T), w[l].size(), in) != w[l].size()) return 3;
        if (fread(b[l].data(), sizeof(T), b[l].size(), in) != b[l].size()) return 3;
    }
    std::vector<T> pts(POINTS * 3);
    if (fread(pts.data(), sizeof(T), pts.size(), in) != pts.size()) return 3;

    std::vector<T> z = pass(w, b, WIDTHS, LAYERS, pts.data(), POINTS, 6);
    std::vector<T> zero(3, 0), r(POINTS * 3, NAN);
    const T* bias = LAYERS > 1 ? b[LAYERS - 1].data() : zero.data();
    lifted_pinn_navier_stokes_SFX(z.data(), bias, r.data(), POINTS, (T)NU);
    fwrite(r.data(), sizeof(T), r.size(), out);

    std::vector<T> y = pass(w, b, WIDTHS, LAYERS, pts.data(), POINTS, 1);
    y.resize(POINTS * 3);
    if (LAYERS > 1) lifted_pinn_bias_SFX(y.data(), b[LAYERS - 1].data(), POINTS, 3);
    fwrite(y.data(), sizeof(T), y.size(), out);
    return fclose(out);
}
"#;

/// Runs the device pass on the host for `net` at `points`; returns residuals and outputs.
fn run_on_host(net: &Network, points: &[[f64; 3]], nu: f64) -> (Vec<f64>, Vec<f64>) {
    let widths: Vec<String> = std::iter::once(net.layers[0].fan_in)
        .chain(net.layers.iter().map(|l| l.fan_out))
        .map(|w| w.to_string())
        .collect();
    let program = format!(
        "{HOST_SHIM}{}\nstatic const int LAYERS = {};\nstatic const int WIDTHS[] = {{{}}};\n\
         static const long long POINTS = {};\n#define NU {nu:e}\n{}",
        lifted::cuda::pinn::source(Precision::F64),
        net.layers.len(),
        widths.join(", "),
        points.len(),
        DRIVER.replace("SFX", "f64")
    );
    let mut input: Vec<f64> = Vec::new();
    for l in &net.layers {
        input.extend(&l.weights);
        input.extend(&l.biases);
    }
    input.extend(points.as_flattened());
    let bytes: Vec<u8> = input.iter().flat_map(|x| x.to_le_bytes()).collect();
    let name = format!("pinn-host-{}", net.layers.len());
    let out: Vec<f64> = build_and_run(&name, &program, &bytes, "-O1")
        .chunks_exact(8)
        .map(|c| f64::from_le_bytes(c.try_into().expect("8 bytes")))
        .collect();
    assert_eq!(out.len(), 6 * points.len(), "residuals and outputs");
    let (r, y) = out.split_at(3 * points.len());
    (r.to_vec(), y.to_vec())
}

/// Max |got − want| over max |want|, per column of 3.
fn normwise(got: &[f64], want: &[f64]) -> f64 {
    assert_eq!(got.len(), want.len());
    (0..3)
        .map(|c| {
            let diff = got.iter().zip(want).skip(c).step_by(3);
            let d = diff.clone().map(|(g, w)| (g - w).abs()).fold(0.0, f64::max);
            let s = diff.map(|(_, w)| w.abs()).fold(0.0, f64::max);
            if d.is_nan() {
                f64::INFINITY
            } else {
                d / s.max(f64::MIN_POSITIVE)
            }
        })
        .fold(0.0, f64::max)
}

fn check(widths: &[usize]) {
    let mut rng = SplitMix64::new(17);
    let mut net = Network::from_fn(widths, |i, o| (2.0 / (i + o) as f64).sqrt() * rng.normal());
    for l in &mut net.layers {
        for b in &mut l.biases {
            *b = rng.uniform(-0.3, 0.3);
        }
    }
    let points: Vec<[f64; 3]> = (0..57)
        .map(|_| [rng.next_f64(), rng.next_f64(), rng.next_f64()])
        .collect();
    let (r, y) = run_on_host(&net, &points, 0.01);
    let want_r: Vec<f64> = pinn::navier_stokes_batched(&net, &points, 0.01, Batching::default())
        .unwrap()
        .iter()
        .flat_map(|r| [r.continuity, r.momentum_x, r.momentum_y])
        .collect();
    let want_y = pinn::forward_batched(&net, points.as_flattened(), Batching::default()).unwrap();
    let (er, ey) = (normwise(&r, &want_r), normwise(&y, &want_y));
    assert!(er <= 1e-12, "{widths:?}: residuals differ by {er:e}");
    assert!(ey <= 1e-12, "{widths:?}: outputs differ by {ey:e}");
}

#[test]
#[cfg_attr(
    not(lifted_host_cxx),
    ignore = "skipped: no C++ compiler to build the kernels for the host"
)]
fn device_pass_equals_the_host_engine() {
    check(&[3, 16, 16, 3]);
    check(&[3, 9, 3]);
}

#[test]
#[cfg_attr(
    not(lifted_host_cxx),
    ignore = "skipped: no C++ compiler to build the kernels for the host"
)]
fn one_layer_networks_add_their_bias_once() {
    check(&[3, 3]);
}
