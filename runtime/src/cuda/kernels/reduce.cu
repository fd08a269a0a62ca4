// Deterministic two-pass reductions over 1 + lanes streams (value, then each lane):
// no atomics, so a given launch shape always adds in the same order. Blocks of up to
// LIFTED_BLOCK threads (the shared buffer's size; more traps); the finish pass runs
// as one block over the first pass's per-block partials.

// Tree-sums this block's `acc` values; every thread gets the total. -0.0 is the
// additive identity (x + -0.0 == x for every x, +0.0 included), as the CPU's `Sum`
// starts from. Strided so any block size up to LIFTED_BLOCK gives the same tree.
__device__ __forceinline__ T lifted_block_sum(T* sh, T acc) {
    if (blockDim.x > LIFTED_BLOCK) __trap();
    for (int j = threadIdx.x; j < LIFTED_BLOCK; j += blockDim.x) {
        sh[j] = j == (int)threadIdx.x ? acc : T(-0.0);
    }
    __syncthreads();
    for (int w = LIFTED_BLOCK / 2; w > 0; w >>= 1) {
        for (int j = threadIdx.x; j < w; j += blockDim.x) sh[j] += sh[j + w];
        __syncthreads();
    }
    const T total = sh[0];
    __syncthreads();
    return total;
}

extern "C" __global__ void lifted_sum_@SFX(const T* xv, const T* xd, T* partial,
                                           long long len, int lanes) {
    __shared__ T sh[LIFTED_BLOCK];
    for (int s = 0; s <= lanes; ++s) {
        const T* src = s == 0 ? xv : (xd == nullptr ? nullptr : xd + (long long)(s - 1) * len);
        T acc = T(-0.0);
        if (src != nullptr) {
            LIFTED_FOR(i) acc += src[i];
        }
        const T total = lifted_block_sum(sh, acc);
        if (threadIdx.x == 0) partial[(long long)blockIdx.x * (1 + lanes) + s] = total;
    }
}

extern "C" __global__ void lifted_dot_@SFX(const T* av, const T* ad, const T* bv,
                                           const T* bd, T* partial, long long len,
                                           int lanes) {
    __shared__ T sh[LIFTED_BLOCK];
    for (int s = 0; s <= lanes; ++s) {
        T acc = T(-0.0);
        if (s == 0) {
            LIFTED_FOR(i) acc += av[i] * bv[i];
        } else {
            const long long o = (long long)(s - 1) * len;
            // A constant operand (null tangent) contributes no term at all.
            if (ad != nullptr && bd != nullptr) {
                LIFTED_FOR(i) acc += ad[o + i] * bv[i] + av[i] * bd[o + i];
            } else if (ad != nullptr) {
                LIFTED_FOR(i) acc += ad[o + i] * bv[i];
            } else if (bd != nullptr) {
                LIFTED_FOR(i) acc += av[i] * bd[o + i];
            }
        }
        const T total = lifted_block_sum(sh, acc);
        if (threadIdx.x == 0) partial[(long long)blockIdx.x * (1 + lanes) + s] = total;
    }
}

extern "C" __global__ void lifted_reduce_finish_@SFX(const T* partial, int blocks, T* out,
                                                     int lanes) {
    __shared__ T sh[LIFTED_BLOCK];
    for (int s = 0; s <= lanes; ++s) {
        T acc = T(-0.0);
        for (int b = threadIdx.x; b < blocks; b += blockDim.x) {
            acc += partial[(long long)b * (1 + lanes) + s];
        }
        const T total = lifted_block_sum(sh, acc);
        if (threadIdx.x == 0) out[s] = total;
    }
}
