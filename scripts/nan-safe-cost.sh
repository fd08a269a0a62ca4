#!/usr/bin/env bash
# What NaN-safe lanes cost on W2 (Rosenbrock gradient) and W3 (tanh chain JVP).
#
# Builds the benches twice from the same source, once as shipped and once with
# `--cfg lifted_unchecked_lanes` (every rule takes its plain products: NaN-safe lanes
# off), and prints each build's ratio tables. Each table compares lifted with the same
# baselines (the hand-written gradient, num-dual, faer's primal chain) in one run, so
# the cost is the change of those in-run ratios between the two builds:
#
#     cost = (lifted ÷ baseline, as shipped) / (lifted ÷ baseline, unchecked) − 1
#
# The unchecked build lives in its own target folder (everything is rebuilt there once,
# since RUSTFLAGS reach every crate). Usage: scripts/nan-safe-cost.sh [rounds]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-2}"
unchecked_dir="${UNCHECKED_TARGET_DIR:-target/unchecked-lanes}"

bench_binary() { # target-dir bench-name
    find "$1/release/deps" -maxdepth 1 -type f -executable -name "$2-*" | head -n 1
}

cargo bench -p lifted-benches --no-run --bench gradient --bench linalg
RUSTFLAGS="--cfg lifted_unchecked_lanes" CARGO_TARGET_DIR="$unchecked_dir" \
    cargo bench -p lifted-benches --no-run --bench gradient --bench linalg

for round in $(seq "$rounds"); do
    for build in shipped unchecked; do
        dir=target
        [ "$build" = unchecked ] && dir="$unchecked_dir"
        for bench in gradient linalg; do
            echo "=== round $round, $build, $bench"
            # A filter that matches no criterion benchmark: only the ratio tables run.
            "$(bench_binary "$dir" "$bench")" --bench no-criterion-group |
                grep -E '^(n = |\| lifted|lifted N=16|W3)'
        done
    done
done
