// Physics-informed networks on the device: the kernels between the GEMMs of a batched
// jet pass (see pinn.rs). `T` is the field; `SUFFIX` names the precision;
// `lifted_tanh_jet` is generated from the derivative table in front of this file.
//
// Streams are stored stream-major: stream s of point p, unit j at s*P*W + p*W + j.
// Stream 0 is the value, then one first-order stream per input coordinate (when
// `first` is set), then one pure second-order stream per coordinate in `mask`.

// Layer 0 from the coordinates: z = b + Σ_c x_c W[c][j]; its first-order coefficient
// along c is W[c][j] and its second-order ones are zero, so the jet of the activation
// needs no GEMM for the seeds.
extern "C" __global__ void lifted_pinn_input_SUFFIX(
    const T* pts, const T* w, const T* b, T* out,
    long long points, int dim, int width, int first, int mask, int activate)
{
    long long total = points * (long long)width;
    for (long long idx = blockIdx.x * (long long)blockDim.x + threadIdx.x; idx < total;
         idx += (long long)blockDim.x * gridDim.x) {
        long long p = idx / width;
        int j = (int)(idx % width);
        T z = b[j];
        for (int c = 0; c < dim; ++c) z += pts[p * dim + c] * w[c * width + j];
        T a = z, d1 = (T)1, d2 = (T)0;
        if (activate) a = lifted_tanh_jet(z, d1, d2);
        out[idx] = a;
        int s = 1;
        if (first) {
            for (int c = 0; c < dim; ++c, ++s) out[s * total + idx] = d1 * w[c * width + j];
        }
        for (int c = 0; c < dim; ++c) {
            if (mask & (1 << c)) {
                T wc = w[c * width + j];
                out[s * total + idx] = d2 * wc * wc;
                ++s;
            }
        }
    }
}

// After a hidden layer's GEMM, in place: bias on the value, then the tanh jet rule
// ȧ = f′ ż, ä = f′ z̈ + f″ ż², with a, f′ and f″ from the derivative table.
extern "C" __global__ void lifted_pinn_tanh_jet_SUFFIX(
    T* z, const T* b, long long points, int dim, int width, int first, int mask)
{
    long long total = points * (long long)width;
    for (long long idx = blockIdx.x * (long long)blockDim.x + threadIdx.x; idx < total;
         idx += (long long)blockDim.x * gridDim.x) {
        int j = (int)(idx % width);
        T d1, d2;
        T a = lifted_tanh_jet(z[idx] + b[j], d1, d2);
        z[idx] = a;
        // Second-order streams first: they read the unscaled first-order ones.
        int s = 1 + (first ? dim : 0);
        for (int c = 0; c < dim; ++c) {
            if (mask & (1 << c)) {
                T dz = z[(1 + c) * total + idx];
                z[s * total + idx] = d1 * z[s * total + idx] + d2 * dz * dz;
                ++s;
            }
        }
        if (first) {
            for (int c = 0; c < dim; ++c) z[(1 + c) * total + idx] *= d1;
        }
    }
}

// The output layer's bias on the value stream (the network's outputs).
extern "C" __global__ void lifted_pinn_bias_SUFFIX(T* z, const T* b, long long points, int width)
{
    long long total = points * (long long)width;
    for (long long idx = blockIdx.x * (long long)blockDim.x + threadIdx.x; idx < total;
         idx += (long long)blockDim.x * gridDim.x) {
        z[idx] += b[idx % width];
    }
}

// 2-D incompressible Navier–Stokes from the output streams of (t, x, y) with
// first = 1 and mask = x|y: streams 0 value, 1 t, 2 x, 3 y, 4 xx, 5 yy; outputs
// (u, v, p). r[p] = (u_x + v_y, u_t + u u_x + v u_y + p_x − ν(u_xx + u_yy), …).
extern "C" __global__ void lifted_pinn_navier_stokes_SUFFIX(
    const T* z, const T* b, T* r, long long points, T nu)
{
    long long total = points * 3;
    for (long long p = blockIdx.x * (long long)blockDim.x + threadIdx.x; p < points;
         p += (long long)blockDim.x * gridDim.x) {
        const T* at = z + p * 3;
        T u = at[0] + b[0], v = at[1] + b[1];
        T u_t = at[total], v_t = at[total + 1];
        T u_x = at[2 * total], v_x = at[2 * total + 1], p_x = at[2 * total + 2];
        T u_y = at[3 * total], v_y = at[3 * total + 1], p_y = at[3 * total + 2];
        T u_xx = at[4 * total], v_xx = at[4 * total + 1];
        T u_yy = at[5 * total], v_yy = at[5 * total + 1];
        r[p * 3] = u_x + v_y;
        r[p * 3 + 1] = u_t + u * u_x + v * u_y + p_x - nu * (u_xx + u_yy);
        r[p * 3 + 2] = v_t + u * v_x + v * v_y + p_y - nu * (v_xx + v_yy);
    }
}
