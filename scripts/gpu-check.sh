#!/usr/bin/env bash
# The device check of the CUDA backend: benchmark workload W1 with lifted (the
# `gpu_check` example, built beforehand on a CPU machine) and with JAX's forward-mode
# idiom (scripts/jax_w1.py), correctness on the GPU, and one table of the results.
#
#   bash scripts/gpu-check.sh [--dry-run | --list-lib-dirs] [--budget SECONDS] [BIN]
#
# BIN defaults to target/release/examples/gpu_check, built with
#   cargo build --release -p lifted --features cuda --example gpu_check
# The machine needs the NVIDIA driver and Python; no Rust toolchain, no network.
#
# Libraries. The binary loads the CUDA libraries at run time (cudarc, dynamic
# loading): libcuda.so (the driver, from the system), libcublas.so.13 +
# libcublasLt.so.13 and libnvrtc.so.13 + libnvrtc-builtins. This script finds them in
# the Python packages' nvidia/*/lib folders (pip's CUDA wheels: nvidia/cublas/lib,
# nvidia/cu13/lib, ...), in CUDA install folders and in the driver's folders. cudarc
# tries bare names (libnvrtc.so) before versioned ones, so a copy elsewhere on the
# system could win over what was found: the binary gets a folder of links under the
# names cudarc and the libraries themselves ask for, each to exactly the file found,
# first on its LD_LIBRARY_PATH, then the folders found. `gpu_check info` prints the
# versions and files it actually loaded. JAX keeps the caller's LD_LIBRARY_PATH: its
# CUDA plugin finds its own libraries.
#
# Runs, in this order: `gpu_check info`; the headline pair, W1 at 1,048,576 points in
# f64 with lifted and with JAX; each group of checks (`gpu_check list-groups`) as a
# process of its own, so that a device fault or a crash loses that group only; then
# the other W1 pairs (8192 f64, 1,048,576 f32, 8192 f32). Each run has a timeout and an
# estimate of what it needs; a run whose estimate no longer fits in what is left of the
# budget is not started and is reported as skipped, so the budget cuts whole runs from
# the end rather than killing one mid-way. The budget (--budget, else
# GPU_CHECK_BUDGET_S, else 270 s) covers the whole script, table included.
#
# Output: everything goes to ${OUT:-.}/gpu-check.log; the table (scripts/gpu_table.py,
# rewritten after every run, so an interrupted check still leaves one) to
# ${OUT:-.}/gpu-table.md. Each run ends in a `RESULT {"kind":"run",...}` line: ok,
# failed (checks failed), error (stopped on an error it reported), crashed, timed-out,
# skipped-budget or skipped. Exit status: the table's: 1 if any correctness check
# failed, none ran, a group of checks did not run to the end, or a run of lifted
# stopped on an error, crashed or timed out; else 0.
#
#   --dry-run         find the libraries and make the links, ask the binary for its
#                     groups (if it is executable), print the plan with the budget
#                     applied to the estimates, and the table of that plan; runs
#                     nothing on the device and writes nothing under OUT
#   --list-lib-dirs   print the library folders that would go on LD_LIBRARY_PATH (after
#                     the links folder), one a line, and nothing else on stdout
#   --budget SECONDS  the time budget of the whole script
#
# Environment, the last ones mostly for tests (lists are colon-separated):
#   GPU_CHECK_BUDGET_S      the budget when --budget is not given (default 270)
#   GPU_CHECK_PYTHON        the Python with JAX (and pip's CUDA wheels); default python3
#   GPU_CHECK_STEP_LIMIT_S  a cap on every run's timeout
#   GPU_CHECK_LINK_DIR      where to make the links (kept; default: a temporary folder,
#                           removed at exit)
#   GPU_CHECK_PYTHON_ROOTS  folders holding nvidia/ (default: asked from that Python)
#   GPU_CHECK_CUDA_DIRS     CUDA install library folders (default: /usr/local/cuda/lib64, ...)
#   GPU_CHECK_DRIVER_DIRS   folders searched for libcuda.so.1 (default: the system's;
#                           when set, ldconfig is not consulted)
#   GPU_CHECK_LDCONFIG      the program asked for the loader's cache (default: ldconfig)
set -euo pipefail

usage() {
    sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"
}

die() {
    printf 'gpu-check: %s\n' "$*" >&2
    exit 2
}

mode=run
bin=""
budget="${GPU_CHECK_BUDGET_S:-270}"
while (($# > 0)); do
    case "$1" in
        --dry-run) mode=dry-run ;;
        --list-lib-dirs) mode=list ;;
        --budget)
            (($# > 1)) || die "--budget needs a number of seconds"
            budget="$2"
            shift
            ;;
        --budget=*) budget="${1#--budget=}" ;;
        -h | --help)
            usage
            exit 0
            ;;
        -*) die "unknown option $1" ;;
        *)
            [[ -z "$bin" ]] || die "more than one BIN given"
            bin="$1"
            ;;
    esac
    shift
done
[[ "$budget" =~ ^[0-9]+$ ]] || die "the budget must be a whole number of seconds, not '$budget'"
python="${GPU_CHECK_PYTHON:-python3}"
step_cap="${GPU_CHECK_STEP_LIMIT_S:-0}"
[[ "$step_cap" =~ ^[0-9]+$ ]] || die "GPU_CHECK_STEP_LIMIT_S must be a whole number of seconds"

# The budget counts from here; SECONDS is bash's clock of the script.
SECONDS=0

# BIN relative to the caller's folder; then work from the repository root.
if [[ -n "$bin" && "$bin" != /* ]]; then
    bin="$PWD/$bin"
fi
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bin="${bin:-$root/target/release/examples/gpu_check}"

work="$(mktemp -d "${TMPDIR:-/tmp}/gpu-check.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# --- Library discovery ----------------------------------------------------------------

# The libraries the binary loads, as glob patterns, each with the library whose folder
# is searched first for it (a builtins or cuBLASLt of another release than its NVRTC or
# cuBLAS does not work with it). The driver comes last, so that its folder (often a
# system one) goes last on LD_LIBRARY_PATH and shadows nothing.
wanted_libs=(
    'libcublas.so.13'
    'libcublasLt.so.13'
    'libnvrtc.so.13'
    'libnvrtc-builtins.so.13*'
    'libcuda.so.1'
)
declare -A companion=(
    ['libcublasLt.so.13']='libcublas.so.13'
    ['libnvrtc-builtins.so.13*']='libnvrtc.so.13'
)
# The bare name cudarc (or the library that loads it) asks for first, per pattern.
declare -A bare_name=(
    ['libcublas.so.13']='libcublas.so'
    ['libcublasLt.so.13']='libcublasLt.so'
    ['libnvrtc.so.13']='libnvrtc.so'
    ['libnvrtc-builtins.so.13*']='libnvrtc-builtins.so'
    ['libcuda.so.1']='libcuda.so'
)

# Folders holding a Python `nvidia` package: the parents of nvidia.__path__ entries and
# every site-packages folder.
python_roots() {
    if [[ -n "${GPU_CHECK_PYTHON_ROOTS+set}" ]]; then
        tr ':' '\n' <<<"$GPU_CHECK_PYTHON_ROOTS"
        return 0
    fi
    command -v "$python" >/dev/null 2>&1 || return 0
    "$python" - <<'EOF' 2>/dev/null || true
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

# The driver the system loader resolves libcuda.so.1 to (a 64-bit entry preferred).
ldconfig_driver() {
    [[ -z "${GPU_CHECK_DRIVER_DIRS+set}" ]] || return 1
    local ldconfig="${GPU_CHECK_LDCONFIG:-ldconfig}"
    command -v "$ldconfig" >/dev/null 2>&1 || return 1
    local path
    path="$("$ldconfig" -p 2>/dev/null | awk '
        $1 == "libcuda.so.1" && $NF ~ /^\// {
            if ($2 ~ /64/) { print $NF; found = 1; exit }
            if (first == "") first = $NF
        }
        END { if (!found && first != "") print first }')" || return 1
    [[ -n "$path" && -e "$path" ]] || return 1
    printf '%s\n' "$path"
}

contains() {
    local x want="$1"
    shift
    for x in "$@"; do
        [[ "$x" == "$want" ]] && return 0
    done
    return 1
}

# Fills lib_dirs (the folders to put on LD_LIBRARY_PATH, in order), lib_report (one
# line per wanted library: where it was found, or that it was not) and found_lib (the
# file found, by pattern).
declare -A found_lib=()
discover_libs() {
    lib_dirs=()
    lib_report=()
    local -a dirs=() search
    local d pattern found
    while IFS= read -r d; do
        [[ -n "$d" && -d "$d" ]] || continue
        d="$(cd "$d" && pwd -P)"
        contains "$d" "${dirs[@]+"${dirs[@]}"}" || dirs+=("$d")
    done < <(candidate_dirs)

    for pattern in "${wanted_libs[@]}"; do
        if [[ "$pattern" == libcuda.so.1 ]] && found="$(ldconfig_driver)"; then
            found_lib[$pattern]="$found"
            lib_report+=("$pattern: $found (the system loader's, ldconfig)")
            continue
        fi
        search=()
        if [[ -n "${companion[$pattern]:-}" && -n "${found_lib[${companion[$pattern]}]:-}" ]]; then
            search+=("$(dirname "${found_lib[${companion[$pattern]}]}")")
        fi
        search+=("${dirs[@]+"${dirs[@]}"}")
        found=""
        for d in "${search[@]+"${search[@]}"}"; do
            if found="$(match_in "$pattern" "$d")"; then
                break
            fi
            found=""
        done
        if [[ -z "$found" ]]; then
            lib_report+=("$pattern: NOT FOUND")
            continue
        fi
        found_lib[$pattern]="$found"
        lib_report+=("$pattern: $found")
        d="$(dirname "$found")"
        contains "$d" "${lib_dirs[@]+"${lib_dirs[@]}"}" || lib_dirs+=("$d")
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

# The links: each found library under its bare name and under its own file name (the
# name its dependents ask for), so that whichever name is looked up, the folder's copy
# is the one found.
link_dir="${GPU_CHECK_LINK_DIR:-$work/libs}"
link_report=()
make_links() {
    mkdir -p "$link_dir" || return 1
    local pattern target name
    for pattern in "${wanted_libs[@]}"; do
        target="${found_lib[$pattern]:-}"
        [[ -n "$target" ]] || continue
        for name in "${bare_name[$pattern]}" "$(basename "$target")"; do
            ln -sfn "$target" "$link_dir/$name" || return 1
            link_report+=("$name -> $target")
        done
    done
}
if ! make_links; then
    printf 'gpu-check: could not make the links in %s; going on without them\n' "$link_dir" >&2
    link_dir=""
    link_report=()
fi

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
    dirs=(${link_dir:+"$link_dir"} "${lib_dirs[@]+"${lib_dirs[@]}"}")
    printf '%s' "${dirs[*]+"${dirs[*]}"}"
)"
[[ -n "$saved_ld" ]] && bin_ld="${bin_ld:+$bin_ld:}$saved_ld"

# --- The plan ---------------------------------------------------------------------------

out="${OUT:-.}"
log="$out/gpu-check.log"
table="$out/gpu-table.md"
small=8192
large=1048576
# Seconds kept back from the last run for the table; and how long a run that ignores
# its timeout's TERM gets before it is killed.
reserve=10
kill_grace=5

# A copy of the binary may arrive without its executable bit.
if [[ "$mode" == run && -f "$bin" && ! -x "$bin" ]]; then
    chmod +x "$bin" 2>/dev/null || true
fi

# The groups of checks, from the binary; a binary without `list-groups` (or none that
# runs) gets one run of all its checks.
groups=()
if [[ -x "$bin" ]]; then
    while IFS= read -r g; do
        [[ "$g" =~ ^[A-Za-z0-9][A-Za-z0-9._=-]*$ ]] && groups+=("$g")
    done < <(LD_LIBRARY_PATH="$bin_ld" timeout 10 "$bin" list-groups 2>/dev/null || true)
fi

# Fields: name, impl, group, precision, points, estimate (s), timeout (s), command.
# An estimate is a run's expected length with a margin: a process of lifted opens the
# device and compiles its kernels with NVRTC (about 3 s a unit on a slow CPU), one of
# JAX imports JAX and compiles with XLA before it times anything.
steps=()
add_step() {
    local IFS=$'\x1f'
    steps+=("$*")
}
w1_pair() {
    local points="$1" precision="$2" reps="$3" est_lifted="$4" est_jax="$5"
    add_step "lifted w1 $points $precision" lifted "" "$precision" "$points" "$est_lifted" 90 \
        "$bin" w1 --points "$points" --precision "$precision" --reps "$reps"
    add_step "jax w1 $points $precision" jax-forward "" "$precision" "$points" "$est_jax" 150 \
        "$python" scripts/jax_w1.py --points "$points" --precision "$precision" --reps "$reps" \
        --device gpu
}
add_step "lifted info" lifted "" "" "" 5 30 "$bin" info
w1_pair "$large" f64 10 15 60
if ((${#groups[@]} > 0)); then
    for g in "${groups[@]}"; do
        add_step "lifted check $g" lifted "$g" "" "" 15 90 "$bin" check --group "$g"
    done
else
    add_step "lifted check" lifted all "" "" 90 240 "$bin" check
fi
w1_pair "$small" f64 20 10 40
w1_pair "$large" f32 10 15 50
w1_pair "$small" f32 20 10 40

# --- Running ----------------------------------------------------------------------------

# The script's clock in seconds, into `now`; a dry run's is simulated, each run taking
# its estimate.
sim_clock=0
read_clock() {
    if [[ "$mode" == dry-run ]]; then
        now=$sim_clock
    else
        now=$SECONDS
    fi
}

json_str() {
    local s="${1//\\/\\\\}"
    s="${s//\"/\\\"}"
    s="${s//$'\t'/\\t}"
    s="${s//$'\r'/}"
    s="${s//$'\n'/ }"
    printf '"%s"' "$s"
}

results="$work/results"
: >"$results"
# Prints a line to the log of a real run; keeps a dry run's for the table of its plan.
record() {
    if [[ "$mode" == run ]]; then
        printf '%s\n' "$*" | tee -a "$log"
    else
        printf '%s\n' "$*" >>"$results"
    fi
}

# record_run NAME IMPL GROUP PRECISION POINTS STATUS EXIT SECONDS TIMEOUT DETAIL
record_run() {
    local rec
    rec="{\"kind\":\"run\",\"name\":$(json_str "$1"),\"impl\":$(json_str "$2")"
    [[ -n "$3" ]] && rec+=",\"group\":$(json_str "$3")"
    [[ -n "$4" ]] && rec+=",\"precision\":$(json_str "$4")"
    [[ -n "$5" ]] && rec+=",\"points\":$5"
    rec+=",\"status\":$(json_str "$6")"
    [[ -n "$7" ]] && rec+=",\"exit\":$7"
    [[ -n "$8" ]] && rec+=",\"seconds\":$8"
    [[ -n "$9" ]] && rec+=",\"timeout\":$9"
    [[ -n "${10}" ]] && rec+=",\"detail\":$(json_str "${10}")"
    record "RESULT $rec}"
}

# The status of a finished run from its exit status $2 (impl $1, group $3, $4 seconds
# of a $5-second timeout).
run_status() {
    local impl="$1" rc="$2" group="$3" secs="$4" limit="$5"
    if ((rc == 0)); then
        echo ok
    elif ((rc == 124)) || ((rc == 137 && secs >= limit)); then
        echo timed-out
    elif [[ "$impl" == lifted ]] && ((rc == 1)) && [[ -n "$group" ]]; then
        echo failed
    elif [[ "$impl" == lifted ]] && ((rc == 2 || rc == 64)); then
        echo error
    else
        echo crashed
    fi
}

# Why a run ended as it did, from its output $1 and exit status $2: a panic's message,
# a signal's name, else the last line of its own that is not a RESULT.
run_detail() {
    local output="$1" rc="$2" line=""
    line="$(awk '
        /panicked at/ { p = $0; getline nxt; print p " " nxt; found = 1; exit }
        /^RESULT / || /^note: / || /^[[:space:]]*$/ { next }
        { last = $0 }
        END { if (!found && last != "") print last }' "$output" 2>/dev/null)" || line=""
    if ((rc > 128 && rc < 160)) && [[ -n "$(kill -l $((rc - 128)) 2>/dev/null)" ]]; then
        line="signal SIG$(kill -l $((rc - 128)))${line:+; $line}"
    elif ((rc != 0)); then
        line="exit status $rc${line:+; $line}"
    fi
    printf '%s' "${line:0:400}"
}

write_table() {
    python3 scripts/gpu_table.py <"$log" >"$table" 2>/dev/null || true
}

# Whether the binary can run (a dry run counts on the chmod of a real one).
runnable() {
    [[ -x "$1" ]] || [[ "$mode" == dry-run && -f "$1" ]]
}

run_step() {
    local name="$1" impl="$2" group="$3" precision="$4" points="$5" est="$6" limit="$7"
    shift 7
    local -a cmd=("$@")
    local now left
    read_clock
    left=$((budget - reserve - now))
    if ((left < est)); then
        local why="needs about ${est}s, ${left}s left of the ${budget}s budget"
        [[ "$mode" == dry-run ]] && printf '   at %4ss  %-30s  skipped: %s\n' "$now" "$name" "$why"
        record_run "$name" "$impl" "$group" "$precision" "$points" skipped-budget "" "" "" "$why"
        return 0
    fi
    ((limit > left)) && limit=$left
    ((step_cap > 0 && limit > step_cap)) && limit=$step_cap
    if [[ "$impl" == lifted ]] && ! runnable "${cmd[0]}"; then
        local why="no executable at ${cmd[0]}"
        [[ "$mode" == dry-run ]] && printf '   at %4ss  %-30s  skipped: %s\n' "$now" "$name" "$why"
        record_run "$name" "$impl" "$group" "$precision" "$points" skipped "" "" "" "$why"
        return 0
    fi
    if [[ "$mode" == dry-run ]]; then
        printf '   at %4ss  %-30s  needs ~%ss, timeout %ss:' "$now" "$name" "$est" "$limit"
        printf ' %q' "${cmd[@]}"
        printf '\n'
        record_run "$name" "$impl" "$group" "$precision" "$points" planned "" "$est" "$limit" ""
        sim_clock=$((sim_clock + est))
        return 0
    fi
    record "== $name (timeout ${limit}s): ${cmd[*]}"
    local output="$work/run.out" start=$SECONDS rc secs status detail=""
    : >"$output"
    set +e
    if [[ "$impl" == lifted ]]; then
        LD_LIBRARY_PATH="$bin_ld" timeout --kill-after="$kill_grace" "$limit" "${cmd[@]}" 2>&1 |
            tee -a "$log" "$output"
    else
        timeout --kill-after="$kill_grace" "$limit" "${cmd[@]}" 2>&1 | tee -a "$log" "$output"
    fi
    rc=${PIPESTATUS[0]}
    set -e
    secs=$((SECONDS - start))
    status="$(run_status "$impl" "$rc" "$group" "$secs" "$limit")"
    [[ "$status" == ok ]] || detail="$(run_detail "$output" "$rc")"
    [[ "$status" == timed-out ]] && detail="timed out after ${limit}s${detail:+ ($detail)}"
    record_run "$name" "$impl" "$group" "$precision" "$points" "$status" "$rc" "$secs" \
        "$limit" "$detail"
    write_table
}

printf '== gpu-check  %s\n' "$(date -u '+%Y-%m-%d %H:%M:%S UTC')"
printf '== binary: %s\n' "$bin"
printf '== libraries:\n'
printf '   %s\n' "${lib_report[@]}"
if ((${#link_report[@]} > 0)); then
    printf '== links in %s:\n' "$link_dir"
    printf '   %s\n' "${link_report[@]}"
fi
printf '== LD_LIBRARY_PATH for the binary: %s\n' "${bin_ld:-(empty)}"
if ((${#groups[@]} > 0)); then
    printf '== groups of checks: %s\n' "${groups[*]}"
else
    printf '== groups of checks: none listed by the binary; one run of all checks\n'
fi

if [[ "$mode" == dry-run ]]; then
    printf '== plan (budget %ss, %ss of it kept for the table; times assume each run takes its estimate):\n' \
        "$budget" "$reserve"
    for step in "${steps[@]}"; do
        IFS=$'\x1f' read -r -a parts <<<"$step"
        run_step "${parts[@]}"
    done
    printf '\n== the table of this plan:\n'
    status=0
    python3 scripts/gpu_table.py <"$results" || status=$?
    # The plan's table always reports unrun checks; only a table that failed to be made
    # fails the dry run.
    ((status <= 1)) || exit "$status"
    exit 0
fi

mkdir -p "$out"
: >"$log"
for line in "${lib_report[@]}"; do
    printf 'RESULT {"kind":"info","key":"library found","value":%s}\n' "$(json_str "$line")" >>"$log"
done
{
    printf '== nvidia-smi\n'
    if command -v nvidia-smi >/dev/null 2>&1; then
        timeout 10 nvidia-smi -L 2>&1 || true
        timeout 10 nvidia-smi --query-gpu=name,driver_version,memory.total \
            --format=csv,noheader 2>&1 | while IFS= read -r line; do
            printf 'RESULT {"kind":"info","key":"nvidia-smi","value":%s}\n' "$(json_str "$line")"
        done || true
    else
        printf 'nvidia-smi not found\n'
    fi
} 2>&1 | tee -a "$log"

for step in "${steps[@]}"; do
    IFS=$'\x1f' read -r -a parts <<<"$step"
    run_step "${parts[@]}"
done

printf '\n== table (%s)\n' "$table"
status=0
python3 scripts/gpu_table.py <"$log" | tee "$table" || status=$?
exit "$status"
