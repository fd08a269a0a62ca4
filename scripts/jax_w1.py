#!/usr/bin/env python3
"""Benchmark workload W1 in JAX, the forward-mode idiom: the baseline the GPU must beat.

W1 (see benchmarks/WORKLOADS.md): the 2-D incompressible Navier-Stokes residual of the
MLP 3 -> 128 -> 128 -> 128 -> 128 -> 3 (tanh hidden layers, linear output) at
collocation points (t, x, y). Weights: SplitMix64 seed 42, Glorot normal, biases zero.
Points: SplitMix64 seed 7, t, x, y uniform per point in that order; the first N points
for --points N.

The idiom is the one a JAX user writes: per point, the values and the 3 x 3 Jacobian
from `jax.jvp` over the three basis directions (vmapped), the pure second derivatives
along e_x and e_y by forward-over-forward (`jvp` of `jvp`), `jax.vmap` over the
points, `jax.jit` around it all. The primal network on all points (values only) is
timed too, as the reference a forward pass is measured against.

Timing: the inputs (points, parameters) are put on the device first; the timed unit
is one call of the jitted function, from device-resident inputs to device-resident
residuals (`block_until_ready()`), after one warm-up call, so compilation and
host <-> device transfers are excluded. The residual sums are computed afterwards in
float64 on the host.

f32 runs generate the weights and points in float64 exactly as for f64 and round them
to float32; all arithmetic is then float32, with matrix products at full float32
precision (`--matmul-precision highest`, the default; XLA may otherwise use TF32 on
the GPU).

Output: one `RESULT {json}` line per measurement:

    RESULT {"kind":"time","impl":"jax-forward","precision":"f64","points":8192,
            "ms_median":...,"ms_min":...,"reps":20,"sums":[...]}
    RESULT {"kind":"time","impl":"jax-primal",...}

and `RESULT {"kind":"info",...}` lines about the device. Without JAX, or without the
asked-for device: `RESULT {"kind":"skip","impl":"jax-forward","reason":...}`, exit 0.

    python3 scripts/jax_w1.py --points 8192 --precision f64 --reps 20 [--device gpu|cpu]
"""

import argparse
import json
import math
import statistics
import sys
import time

# --- The W1 generator (benchmarks/WORKLOADS.md), vectorised with numpy ---------------

GAMMA = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB

LAYERS = (3, 128, 128, 128, 128, 3)
WEIGHT_SEED = 42
POINT_SEED = 7
NU = 0.01
REFERENCE_8192_F64 = (329.74681203850, 1259.4034342138, 1048.6276228167)


def splitmix64(np, seed, count):
    """The first `count` outputs of SplitMix64 seeded with `seed`, as uint64.

    The k-th draw (k = 1, 2, ...) mixes the state seed + k * GAMMA (mod 2^64), so the
    draws are independent of each other and vectorise. numpy's uint64 array arithmetic
    wraps mod 2^64.
    """
    u64 = np.uint64
    k = np.arange(1, count + 1, dtype=np.uint64)
    with np.errstate(over="ignore"):
        z = u64(seed) + k * u64(GAMMA)
        z = (z ^ (z >> u64(30))) * u64(MIX1)
        z = (z ^ (z >> u64(27))) * u64(MIX2)
    return z ^ (z >> u64(31))


def uniforms(np, seed, count):
    """`count` uniforms in [0, 1): the top 53 bits of each draw times 2^-53 (exact)."""
    return (splitmix64(np, seed, count) >> np.uint64(11)).astype(np.float64) * 2.0**-53


def normals(np, seed, count):
    """`count` normals, each from two consecutive uniforms u1, u2: the cosine branch of
    Box-Muller, sqrt(-2 ln(1 - u1)) * cos(2 pi u2).

    `log` and `cos` are the C library's, one element at a time, as in the Rust
    generator: numpy's vectorised versions may differ in the last bit on some CPUs.
    """
    u = uniforms(np, seed, 2 * count).tolist()
    return np.array([
        math.sqrt(-2.0 * math.log(1.0 - u1)) * math.cos(2.0 * math.pi * u2)
        for u1, u2 in zip(u[0::2], u[1::2])
    ])


def w1_network(np):
    """[(W, b)] for the five layers, float64: W fan_in x fan_out, filled row-major from
    one generator (seed 42) in layer order; biases zero (they draw nothing)."""
    sizes = [(i, o) for i, o in zip(LAYERS[:-1], LAYERS[1:])]
    z = normals(np, WEIGHT_SEED, sum(i * o for i, o in sizes))
    layers, at = [], 0
    for fan_in, fan_out in sizes:
        scale = math.sqrt(2.0 / (fan_in + fan_out))
        w = scale * z[at : at + fan_in * fan_out].reshape(fan_in, fan_out)
        layers.append((w, np.zeros(fan_out)))
        at += fan_in * fan_out
    return layers


def w1_points(np, n):
    """The first n collocation points, n x 3, columns (t, x, y): seed 7, 3 uniforms per
    point in that order."""
    return uniforms(np, POINT_SEED, 3 * n).reshape(n, 3)


# --- Output ----------------------------------------------------------------------------


def emit(record):
    print("RESULT " + json.dumps(record, separators=(",", ":")), flush=True)


def skip(reason, args=None):
    rec = {"kind": "skip", "impl": "jax-forward"}
    if args is not None:
        rec.update(precision=args.precision, points=args.points)
    emit({**rec, "reason": reason})
    sys.exit(0)


# --- The JAX idiom ---------------------------------------------------------------------


def build(jax, jnp):
    """The jitted primal and forward-mode residual functions of (params, points)."""

    def mlp(params, z):
        h = z
        for w, b in params[:-1]:
            h = jnp.tanh(h @ w + b)
        w, b = params[-1]
        return h @ w + b

    def residual(params, z):
        f = lambda z: mlp(params, z)  # noqa: E731 (t, x, y) -> (u, v, p)
        eye = jnp.eye(3, dtype=z.dtype)
        # Values and the Jacobian: one jvp per basis direction; jac[k] = d(u,v,p)/dz_k.
        uvp, jac = jax.vmap(lambda e: jax.jvp(f, (z,), (e,)), out_axes=(None, 0))(eye)

        # Pure second derivatives along e: forward over forward.
        def d2(e):
            return jax.jvp(lambda z: jax.jvp(f, (z,), (e,))[1], (z,), (e,))[1]

        hxx, hyy = d2(eye[1]), d2(eye[2])
        u, v = uvp[0], uvp[1]
        dt, dx, dy = jac[0], jac[1], jac[2]
        lap = hxx + hyy
        r_c = dx[0] + dy[1]
        r_u = dt[0] + u * dx[0] + v * dy[0] + dx[2] - NU * lap[0]
        r_v = dt[1] + u * dx[1] + v * dy[1] + dy[2] - NU * lap[1]
        return jnp.stack([r_c, r_u, r_v])

    forward = jax.jit(jax.vmap(residual, in_axes=(None, 0)))
    primal = jax.jit(jax.vmap(mlp, in_axes=(None, 0)))
    return forward, primal


def time_it(fn, args, reps):
    """(result of the warm-up call, [ms per call] over reps calls)."""
    out = fn(*args)
    out.block_until_ready()  # compile + warm-up, excluded
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn(*args).block_until_ready()
        times.append((time.perf_counter() - t0) * 1e3)
    return out, times


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--points", type=int, default=8192)
    ap.add_argument("--precision", choices=("f32", "f64"), default="f64")
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument(
        "--device",
        choices=("gpu", "cpu", "auto"),
        default="auto",
        help="where to run (default: JAX's default backend)",
    )
    ap.add_argument(
        "--matmul-precision",
        choices=("highest", "default"),
        default="highest",
        help="jax_default_matmul_precision (default: highest, no TF32)",
    )
    args = ap.parse_args(argv)
    if args.points < 1 or args.reps < 1:
        ap.error("--points and --reps must be positive")

    try:
        import numpy as np
        import jax
    except Exception as e:  # noqa: BLE001 (any import failure means: no JAX here)
        skip(f"JAX is not importable: {type(e).__name__}: {e}", args)

    # Before any array is created.
    jax.config.update("jax_enable_x64", args.precision == "f64")
    jax.config.update("jax_default_matmul_precision", args.matmul_precision)
    import jax.numpy as jnp

    if args.device == "auto":
        device = jax.devices()[0]
    else:
        try:
            devices = jax.devices(args.device)
        except Exception as e:  # noqa: BLE001 (RuntimeError: backend not found)
            skip(f"no JAX {args.device} device: {type(e).__name__}: {e}", args)
        if not devices:
            skip(f"no JAX {args.device} device", args)
        device = devices[0]
    emit({"kind": "info", "key": "jax-version", "value": jax.__version__})
    emit({"kind": "info", "key": "jax-device", "value": f"{device.platform}: {device.device_kind}"})

    dtype = np.float64 if args.precision == "f64" else np.float32
    params = [
        (jax.device_put(w.astype(dtype), device), jax.device_put(b.astype(dtype), device))
        for w, b in w1_network(np)
    ]
    points = jax.device_put(w1_points(np, args.points).astype(dtype), device)
    forward, primal = build(jax, jnp)

    common = {"precision": args.precision, "points": args.points, "reps": args.reps}
    try:
        res, times = time_it(forward, (params, points), args.reps)
        sums = np.abs(np.asarray(res, dtype=np.float64)).sum(axis=0)
        emit(
            {
                "kind": "time",
                "impl": "jax-forward",
                **common,
                "ms_median": statistics.median(times),
                "ms_min": min(times),
                "sums": [float(s) for s in sums],
            }
        )
        _, times = time_it(primal, (params, points), args.reps)
        emit(
            {
                "kind": "time",
                "impl": "jax-primal",
                **common,
                "ms_median": statistics.median(times),
                "ms_min": min(times),
            }
        )
    except Exception as e:  # noqa: BLE001 (e.g. XlaRuntimeError: RESOURCE_EXHAUSTED)
        skip(f"{type(e).__name__}: {e}"[:2000], args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
