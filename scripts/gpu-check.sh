#!/usr/bin/env bash
# The device check of the CUDA backend: correctness on the GPU, then benchmark workload
# W1 with lifted (the `gpu_check` example, built beforehand on a CPU machine) and with
# JAX's forward-mode idiom (scripts/jax_w1.py), and one table of the results.
#
#   bash scripts/gpu-check.sh [--dry-run | --list-lib-dirs] [BIN]
#
# BIN defaults to target/release/examples/gpu_check, built with
#   cargo build --release -p lifted --features cuda --example gpu_check
# The machine needs the NVIDIA driver and Python; no Rust toolchain, no network.
#
# The binary loads the CUDA libraries at run time (cudarc, dynamic loading): libcuda.so
# (the driver, from the system), libcublas.so.13 + libcublasLt.so.13 and
# libnvrtc.so.13 + libnvrtc-builtins. This script finds them in the Python packages'
# nvidia/*/lib folders (pip's CUDA wheels: nvidia/cublas/lib, nvidia/cu13/lib, ...) and
# in CUDA install folders, and puts those folders on LD_LIBRARY_PATH for the binary.
# JAX keeps the caller's LD_LIBRARY_PATH: its CUDA plugin finds its own libraries.
#
# Every step runs under `timeout`, within one overall budget (GPU_CHECK_BUDGET_S,
# default 270 s), so the script ends in under 5 minutes. All output goes to
# ${OUT:-.}/gpu-check.log; the table (scripts/gpu_table.py) to ${OUT:-.}/gpu-table.md.
# Exit status: the table's: 1 if any correctness check failed, none ran, or a run
# stopped on an error (a `check` run that does not finish counts as a failed check);
# else 0.
#
#   --dry-run        find the libraries, print the plan, run nothing
#   --list-lib-dirs  print the library folders that would go on LD_LIBRARY_PATH, one a
#                    line, and nothing else on stdout
#
# For tests, the search roots can be replaced (colon-separated lists):
#   GPU_CHECK_PYTHON_ROOTS  folders holding nvidia/ (default: asked from python3)
#   GPU_CHECK_CUDA_DIRS     CUDA install library folders (default: /usr/local/cuda/lib64, ...)
#   GPU_CHECK_DRIVER_DIRS   folders searched for libcuda.so (default: the system's; when
#                           set, ldconfig is not consulted)
set -euo pipefail

usage() {
    sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"
}

mode=run
bin=""
while (($# > 0)); do
    case "$1" in
        --dry-run) mode=dry-run ;;
        --list-lib-dirs) mode=list ;;
        -h | --help)
            usage
            exit 0
            ;;
        -*)
            printf 'gpu-check: unknown option %s\n' "$1" >&2
            exit 2
            ;;
        *)
            if [[ -n "$bin" ]]; then
                printf 'gpu-check: more than one BIN given\n' >&2
                exit 2
            fi
            bin="$1"
            ;;
    esac
    shift
done

# BIN relative to the caller's folder; then work from the repository root.
if [[ -n "$bin" && "$bin" != /* ]]; then
    bin="$PWD/$bin"
fi
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bin="${bin:-$root/target/release/examples/gpu_check}"

# --- Library discovery ----------------------------------------------------------------

# The libraries the binary loads, as glob patterns. The driver comes last, so that its
# folder (often a system one) goes last on LD_LIBRARY_PATH and shadows nothing.
wanted_libs=(
    'libcublas.so.13'
    'libcublasLt.so.13'
    'libnvrtc.so.13'
    'libnvrtc-builtins.so.13*'
    'libcuda.so.1'
)

# Folders holding a Python `nvidia` package: the parents of nvidia.__path__ entries and
# every site-packages folder.
python_roots() {
    if [[ -n "${GPU_CHECK_PYTHON_ROOTS+set}" ]]; then
        tr ':' '\n' <<<"$GPU_CHECK_PYTHON_ROOTS"
        return 0
    fi
    command -v python3 >/dev/null 2>&1 || return 0
    python3 - <<'EOF' 2>/dev/null || true
import os, site, sys
roots = []
try:
    import nvidia
    roots += [os.path.dirname(os.path.abspath(p)) for p in nvidia.__path__]
except Exception:
    pass
try:
    roots += site.getsitepackages()
except Exception:
    pass
try:
    roots.append(site.getusersitepackages())
except Exception:
    pass
roots += [p for p in sys.path if p.endswith(("site-packages", "dist-packages"))]
seen = set()
for r in roots:
    if r and r not in seen and os.path.isdir(os.path.join(r, "nvidia")):
        seen.add(r)
        print(r)
EOF
}

cuda_dirs() {
    if [[ -n "${GPU_CHECK_CUDA_DIRS+set}" ]]; then
        tr ':' '\n' <<<"$GPU_CHECK_CUDA_DIRS"
        return 0
    fi
    local d nvcc_path
    for d in "${CUDA_HOME:-}" "${CUDA_PATH:-}"; do
        [[ -n "$d" ]] && printf '%s\n%s\n' "$d/lib64" "$d/targets/x86_64-linux/lib"
    done
    if nvcc_path="$(command -v nvcc 2>/dev/null)"; then
        d="$(dirname "$(dirname "$nvcc_path")")"
        printf '%s\n%s\n' "$d/lib64" "$d/targets/x86_64-linux/lib"
    fi
    printf '%s\n' /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib
    for d in /usr/local/cuda-13*; do
        [[ -d "$d" ]] && printf '%s\n' "$d/lib64"
    done
    return 0
}

driver_dirs() {
    if [[ -n "${GPU_CHECK_DRIVER_DIRS+set}" ]]; then
        tr ':' '\n' <<<"$GPU_CHECK_DRIVER_DIRS"
        return 0
    fi
    printf '%s\n' /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/lib /usr/local/nvidia/lib64 \
        /usr/local/nvidia/lib /usr/lib/wsl/lib
}

# Candidate folders in priority order: pip's nvidia/*/lib, CUDA installs, the driver's.
# (Never the toolkit's lib64/stubs: its libcuda.so is a link-time stub.)
candidate_dirs() {
    local r d
    while IFS= read -r r; do
        [[ -n "$r" ]] || continue
        for d in "$r"/nvidia/*/lib "$r"/nvidia/*/lib64; do
            [[ -d "$d" ]] && printf '%s\n' "$d"
        done
    done < <(python_roots)
    cuda_dirs
    driver_dirs
}

# The first file matching pattern $1 in folder $2, if any.
match_in() {
    local f
    for f in "$2"/$1; do
        [[ -e "$f" ]] && {
            printf '%s\n' "$f"
            return 0
        }
    done
    return 1
}

# Fills lib_dirs (the folders to put on LD_LIBRARY_PATH, in order) and lib_report
# (one line per wanted library: where it was found, or that it was not).
discover_libs() {
    lib_dirs=()
    lib_report=()
    local -a dirs=()
    local d x pattern found seen
    while IFS= read -r d; do
        [[ -n "$d" && -d "$d" ]] || continue
        d="$(cd "$d" && pwd -P)"
        seen=0
        for found in "${dirs[@]+"${dirs[@]}"}"; do
            [[ "$found" == "$d" ]] && seen=1
        done
        ((seen)) || dirs+=("$d")
    done < <(candidate_dirs)

    for pattern in "${wanted_libs[@]}"; do
        # The driver: the system loader's own, when it has one.
        if [[ "$pattern" == libcuda.so.1 && -z "${GPU_CHECK_DRIVER_DIRS+set}" ]] &&
            command -v ldconfig >/dev/null 2>&1 &&
            ldconfig -p 2>/dev/null | grep 'libcuda\.so\.1 ' >/dev/null; then
            lib_report+=("$pattern: on the system loader's path (ldconfig)")
            continue
        fi
        found=""
        for d in "${dirs[@]+"${dirs[@]}"}"; do
            if found="$(match_in "$pattern" "$d")"; then
                break
            fi
            found=""
        done
        if [[ -z "$found" ]]; then
            lib_report+=("$pattern: NOT FOUND")
            continue
        fi
        lib_report+=("$pattern: $found")
        d="$(dirname "$found")"
        seen=0
        for x in "${lib_dirs[@]+"${lib_dirs[@]}"}"; do
            [[ "$x" == "$d" ]] && seen=1
        done
        ((seen)) || lib_dirs+=("$d")
    done
}

discover_libs

if [[ "$mode" == list ]]; then
    for d in "${lib_dirs[@]+"${lib_dirs[@]}"}"; do
        printf '%s\n' "$d"
    done
    for line in "${lib_report[@]}"; do
        printf '  %s\n' "$line" >&2
    done
    exit 0
fi

# --- The plan ---------------------------------------------------------------------------

out="${OUT:-.}"
mkdir -p "$out"
log="$out/gpu-check.log"
table="$out/gpu-table.md"
budget="${GPU_CHECK_BUDGET_S:-270}"
small=8192
large=1048576

# name, per-step limit in seconds, command: the checks first, then each W1 configuration
# with lifted and JAX side by side, so that a budget running out leaves whole pairs.
steps=()
add_step() {
    local IFS=$'\x1f'
    steps+=("$*")
}
add_step "lifted check" 90 "$bin" check
for config in "$small f64 20" "$small f32 20" "$large f64 10" "$large f32 10"; do
    read -r points precision reps <<<"$config"
    add_step "lifted w1 $points $precision" 60 \
        "$bin" w1 --points "$points" --precision "$precision" --reps "$reps"
    add_step "jax w1 $points $precision" 90 \
        python3 scripts/jax_w1.py --points "$points" --precision "$precision" --reps "$reps" \
        --device gpu
done

# A toolkit's stub libcuda.so (in a `stubs` folder) on the inherited path would shadow
# the driver's and fail at initialisation.
saved_ld="$(
    IFS=:
    kept=()
    for d in ${LD_LIBRARY_PATH:-}; do
        [[ -n "$d" && "$d" != */stubs && "$d" != */stubs/ ]] && kept+=("$d")
    done
    printf '%s' "${kept[*]+"${kept[*]}"}"
)"
bin_ld="$(
    IFS=:
    printf '%s' "${lib_dirs[*]+"${lib_dirs[*]}"}"
)"
[[ -n "$saved_ld" ]] && bin_ld="${bin_ld:+$bin_ld:}$saved_ld"

printf '== gpu-check  %s\n' "$(date -u '+%Y-%m-%d %H:%M:%S UTC')"
printf '== binary: %s\n' "$bin"
printf '== libraries:\n'
printf '   %s\n' "${lib_report[@]}"
printf '== LD_LIBRARY_PATH for the binary: %s\n' "${bin_ld:-(empty)}"

if [[ "$mode" == dry-run ]]; then
    printf '== plan (budget %ss, log %s):\n' "$budget" "$log"
    for step in "${steps[@]}"; do
        IFS=$'\x1f' read -r -a parts <<<"$step"
        printf '   [%ss] %s:' "${parts[1]}" "${parts[0]}"
        printf ' %q' "${parts[@]:2}"
        printf '\n'
    done
    exit 0
fi

: >"$log"
deadline=$(($(date +%s) + budget))
json_str() {
    local s="${1//\\/\\\\}"
    s="${s//\"/\\\"}"
    s="${s//$'\n'/ }"
    printf '"%s"' "$s"
}
record() { printf '%s\n' "$*" | tee -a "$log"; }

{
    printf '== nvidia-smi -L\n'
    if command -v nvidia-smi >/dev/null 2>&1; then
        timeout 20 nvidia-smi -L 2>&1 || true
        timeout 20 nvidia-smi --query-gpu=name,driver_version,memory.total \
            --format=csv,noheader 2>&1 | while IFS= read -r line; do
            printf 'RESULT {"kind":"info","key":"nvidia-smi","value":%s}\n' "$(json_str "$line")"
        done || true
    else
        printf 'nvidia-smi not found\n'
    fi
    for line in "${lib_report[@]}"; do
        printf 'RESULT {"kind":"info","key":"library","value":%s}\n' "$(json_str "$line")"
    done
} 2>&1 | tee -a "$log"

for step in "${steps[@]}"; do
    IFS=$'\x1f' read -r -a parts <<<"$step"
    name="${parts[0]}"
    limit="${parts[1]}"
    cmd=("${parts[@]:2}")
    impl="${name%% *}"
    [[ "$impl" == jax ]] && impl=jax-forward
    left=$((deadline - $(date +%s)))
    ((limit > left)) && limit=$left
    if ((limit < 5)); then
        record "RESULT {\"kind\":\"skip\",\"impl\":\"$impl\",\"reason\":$(json_str "$name: not run, the ${budget}s budget is spent")}"
        continue
    fi
    record "== $name (timeout ${limit}s): ${cmd[*]}"
    # A copy of the binary may arrive without its executable bit.
    if [[ "$impl" == lifted && -f "${cmd[0]}" && ! -x "${cmd[0]}" ]]; then
        chmod +x "${cmd[0]}" 2>/dev/null || true
    fi
    if [[ "$impl" == lifted && ! -x "${cmd[0]}" ]]; then
        record "RESULT {\"kind\":\"skip\",\"impl\":\"lifted\",\"reason\":$(json_str "$name: no executable at ${cmd[0]}")}"
        continue
    fi
    rc=0
    if [[ "$impl" == lifted ]]; then
        LD_LIBRARY_PATH="$bin_ld" timeout --kill-after=10 "$limit" "${cmd[@]}" 2>&1 |
            tee -a "$log" || rc=$?
    else
        timeout --kill-after=10 "$limit" "${cmd[@]}" 2>&1 | tee -a "$log" || rc=$?
    fi
    # A check run that stopped early (error, crash, timeout) leaves checks unrun: that
    # is a failure even if every line it printed passed.
    if [[ "$name" == "lifted check" ]] && ((rc != 0 && rc != 1)); then
        record "RESULT {\"kind\":\"check\",\"name\":$(json_str "gpu_check check ran to the end (exit status $rc)"),\"precision\":\"-\",\"pass\":false}"
    fi
    # A timing run of ours that died without its own error line (exit status 2) —
    # a panic, a crash, a timeout — is an error too, not just a missing row.
    if [[ "$impl" == lifted && "$name" != "lifted check" ]] && ((rc != 0 && rc != 2)); then
        record "RESULT {\"kind\":\"error\",\"message\":$(json_str "$name: exit status $rc")}"
    fi
    if ((rc == 124 || rc == 137)); then
        record "RESULT {\"kind\":\"skip\",\"impl\":\"$impl\",\"reason\":$(json_str "$name: timed out after ${limit}s")}"
    elif ((rc != 0)); then
        record "RESULT {\"kind\":\"skip\",\"impl\":\"$impl\",\"reason\":$(json_str "$name: exit status $rc")}"
    fi
done

printf '\n== table (%s)\n' "$table"
status=0
python3 scripts/gpu_table.py <"$log" | tee "$table" || status=$?
exit "$status"
