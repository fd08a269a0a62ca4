// powi: the CPU rule's four cases on the runtime exponent p (see `NDual::powi`).
extern "C" __global__ void lifted_powi_@SFX(const T* xv, const T* xd, T* yv, T* yd,
                                            long long len, int lanes, int p) {
    LIFTED_FOR(i) {
        const T x = xv[i];
        const T v = lifted_powi(x, p);
        yv[i] = v;
        if (yd == nullptr) continue;
        if (xd == nullptr) {
            for (int k = 0; k < lanes; ++k) yd[(long long)k * len + i] = T(0);
            continue;
        }
        // Squares: the product rule of x * x, exactly 2 x ẋ (NaN-safe at x = ±∞).
        if (p == 2) {
            for (int k = 0; k < lanes; ++k) {
                const T tx = xd[(long long)k * len + i];
                yd[(long long)k * len + i] = isfinite(x) ? tx * x + x * tx : lifted_sz(tx, x + x);
            }
            continue;
        }
        // The derivative table's n x^(n-1), finite wherever x is for p >= 1; p <= 0
        // needs strong zero.
        const T d = p == 0 ? T(0) : lifted_powi_d1(x, p);
        for (int k = 0; k < lanes; ++k) {
            const T tx = xd[(long long)k * len + i];
            yd[(long long)k * len + i] = p >= 1 ? lifted_safe(tx, d) : lifted_sz(tx, d);
        }
    }
}
