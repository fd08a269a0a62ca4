#!/usr/bin/env bash
# Compile time of gradient call sites: a crate of 20 annotated functions, built with
# and without one `gradient` call per function, and the same crate written for
# num-dual (generic functions, `num_dual::gradient` calls). Prints the time of
# rebuilding each crate alone (dependencies built first), release and debug, and the
# cost per call site.
#
#   scripts/compile-time.sh            # writes the crates under target/compile-time
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root="$PWD"
work="$root/target/compile-time"
rm -rf "$work"
mkdir -p "$work"
# One target folder: the crates share their dependencies' builds.
export CARGO_TARGET_DIR="$work/target"
functions=20

# The bodies: ordinary numerical code, one per function, different enough that no two
# instantiations are the same.
body() {
    local k=$1
    case $((k % 4)) in
    0) echo "let mut s = 0.0; for i in 0..x.len() - 1 { s += (1.0 - x[i]).powi(2) + ${k}.0 * (x[i + 1] - x[i] * x[i]).powi(2); } s" ;;
    1) echo "x.iter().map(|v| (v * ${k}.0).sin() * v.exp()).sum()" ;;
    2) echo "let n = x.len() as f64; let m = x.iter().sum::<f64>() / n; x.iter().map(|v| (v - m).powi(2)).sum::<f64>() / n + ${k}.0" ;;
    3) echo "let mut a = 1.0; for v in x { a = a * (v + ${k}.0).ln() + v.tanh(); } a" ;;
    esac
}

# The same bodies over a generic num-dual number, in num-dual's idioms (constants on
# the right of an operator, folds instead of `sum`).
body_num_dual() {
    local k=$1
    case $((k % 4)) in
    0) echo "let mut s = D::from(0.0); for i in 0..x.len() - 1 { s += (-x[i] + 1.0).powi(2) + (x[i + 1] - x[i] * x[i]).powi(2) * ${k}.0; } s" ;;
    1) echo "x.iter().fold(D::from(0.0), |s, &v| s + (v * ${k}.0).sin() * v.exp())" ;;
    2) echo "let n = x.len() as f64; let m = x.iter().fold(D::from(0.0), |a, &b| a + b) / n; x.iter().fold(D::from(0.0), |a, &v| a + (v - m).powi(2)) / n + ${k}.0" ;;
    3) echo "let mut a = D::from(1.0); for &v in x { a = a * (v + ${k}.0).ln() + v.tanh(); } a" ;;
    esac
}

write_lifted() {
    local dir=$1 calls=$2
    mkdir -p "$dir/src"
    cat > "$dir/Cargo.toml" <<TOML
[package]
name = "$(basename "$dir")"
version = "0.1.0"
edition = "2024"
publish = false

[dependencies]
lifted = { path = "$root/runtime" }

[workspace]
TOML
    {
        echo "use lifted::autodiff;"
        for k in $(seq 1 $functions); do
            echo "#[autodiff(forward)]"
            echo "pub fn f$k(x: &[f64]) -> f64 { $(body "$k") }"
        done
        echo "fn main() {"
        echo "    let x: Vec<f64> = (0..40).map(|i| 0.5 + i as f64 * 0.01).collect();"
        echo "    let mut total = 0.0;"
        for k in $(seq 1 $functions); do
            if [ "$calls" = yes ]; then
                echo "    total += lifted::gradient(f$k::Rule, &x).unwrap().1[0];"
            else
                echo "    total += f$k(&x);"
            fi
        done
        echo "    println!(\"{total}\");"
        echo "}"
    } > "$dir/src/main.rs"
    cp "$root/Cargo.lock" "$dir/Cargo.lock"
}

write_num_dual() {
    local dir=$1
    mkdir -p "$dir/src"
    local version nalgebra
    version=$(awk '/^name = "num-dual"/ { getline; gsub(/"/, "", $3); print $3 }' "$root/Cargo.lock")
    nalgebra=$(awk '/^name = "nalgebra"/ { getline; gsub(/"/, "", $3); print $3 }' "$root/Cargo.lock")
    cat > "$dir/Cargo.toml" <<TOML
[package]
name = "$(basename "$dir")"
version = "0.1.0"
edition = "2024"
publish = false

[dependencies]
num-dual = "=$version"
nalgebra = "$nalgebra"

[workspace]
TOML
    {
        echo "use num_dual::{DualNum, DualSVec64};"
        echo "use nalgebra::SVector;"
        for k in $(seq 1 $functions); do
            echo "pub fn f$k<D: DualNum<Primitive = f64> + Copy>(x: &[D]) -> D {"
            echo "    $(body_num_dual "$k")"
            echo "}"
        done
        echo "fn main() {"
        echo "    let x = SVector::<f64, 40>::from_fn(|i, _| 0.5 + i as f64 * 0.01);"
        echo "    let mut total = 0.0;"
        for k in $(seq 1 $functions); do
            echo "    total += num_dual::gradient(|v: SVector<DualSVec64<40>, 40>| f$k(v.as_slice()), &x).1[0];"
        done
        echo "    println!(\"{total}\");"
        echo "}"
    } > "$dir/src/main.rs"
    cp "$root/Cargo.lock" "$dir/Cargo.lock"
}

write_lifted "$work/lifted_calls" yes
write_lifted "$work/lifted_no_calls" no
write_num_dual "$work/num_dual_calls"

# Seconds to rebuild the crate alone: the fastest of three rebuilds (the machine's
# other load only ever adds time).
rebuild() {
    local dir=$1 profile=$2
    local flag=()
    [ "$profile" = release ] && flag=(--release)
    (cd "$dir" && cargo build --quiet --offline "${flag[@]}" >/dev/null 2>&1 || cargo build "${flag[@]}")
    local best=""
    for _ in 1 2 3; do
        touch "$dir/src/main.rs"
        local start end t
        start=$(date +%s.%N)
        (cd "$dir" && cargo build --quiet --offline "${flag[@]}")
        end=$(date +%s.%N)
        t=$(echo "$end - $start" | bc)
        if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then best=$t; fi
    done
    echo "$best"
}

printf '| crate (%s functions) | release (s) | debug (s) |\n|---|---|---|\n' "$functions"
declare -A time
for crate in lifted_no_calls lifted_calls num_dual_calls; do
    r=$(rebuild "$work/$crate" release)
    d=$(rebuild "$work/$crate" debug)
    time[$crate.release]=$r
    time[$crate.debug]=$d
    printf '| %s | %.2f | %.2f |\n' "$crate" "$r" "$d"
done
for profile in release debug; do
    per=$(echo "(${time[lifted_calls.$profile]} - ${time[lifted_no_calls.$profile]}) / $functions" | bc -l)
    printf 'lifted, %s: %.3f s per gradient call site\n' "$profile" "$per"
done
