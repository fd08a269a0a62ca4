#!/usr/bin/env python3
"""Host-side tests of the device-check scripts; no GPU, no JAX, no Rust needed.

    python3 -m unittest discover -s scripts -p 'test_*.py'

* gpu_table.py on synthetic RESULT lines: counts, failed rows, exit status, ratios,
  sums agreement, the W1 reference note, unreadable lines, runs of groups of checks
  that did not finish, timing cells that say why a run has no timing.
* jax_w1.py: its vectorised SplitMix64 against a plain one (needs numpy, else skipped),
  and the skip line when JAX is not importable.
* gpu-check.sh: library discovery on a fake directory tree (pip's nvidia/*/lib and
  nvidia/cu13/lib layouts, a CUDA install with a stub libcuda, a driver folder, the
  loader's cache), the folder of links to what was found, the plan of a dry run and
  its budget, and whole runs with a fake binary: LD_LIBRARY_PATH reaches it, each group
  of checks runs in its own process, a group that crashes, panics, stops on an error
  or hangs is reported as such and the next one still runs, runs that do not fit in
  the budget are skipped, the table's exit status is the script's.
"""

import io
import json
import os
import re
import subprocess
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import gpu_table  # noqa: E402


def result(**rec):
    return "RESULT " + json.dumps(rec)


def check(name="tanh", precision="f64", err=1e-16, tol=1e-12, ok=True, group=None):
    rec = dict(kind="check", name=name, precision=precision, lanes=16, len=100003,
               max_rel_err=err, tol=tol, **{"pass": ok})
    if group:
        rec["group"] = group
    return result(**rec)


def time_line(impl, precision, points, ms, sums=None):
    rec = dict(kind="time", impl=impl, precision=precision, points=points,
               ms_median=ms, ms_min=ms * 0.9, reps=20)
    if sums is not None:
        rec["sums"] = sums
    return result(**rec)


REF = [329.74681203850, 1259.4034342138, 1048.6276228167]


def run_table(lines):
    records, problems = gpu_table.parse(io.StringIO("\n".join(lines) + "\n"))
    out = io.StringIO()
    status = gpu_table.report(records, problems, out)
    return status, out.getvalue()


class GpuTable(unittest.TestCase):
    def test_all_passing_with_timings(self):
        status, text = run_table([
            "some log line",
            result(kind="info", key="device", value="NVIDIA H200"),
            check("tanh"), check("gemm", "f32", 2e-7, 1e-5),
            time_line("lifted", "f64", 8192, 2.0, REF),
            time_line("lifted-primal", "f64", 8192, 0.5),
            time_line("jax-forward", "f64", 8192, 8.0, [s * (1 + 1e-14) for s in REF]),
            time_line("jax-primal", "f64", 8192, 1.0),
            time_line("lifted", "f32", 1048576, 10.0, [1.0, 2.0, 3.0]),
            time_line("jax-forward", "f32", 1048576, 25.0, [1.0, 2.0, 3.1]),
        ])
        self.assertEqual(status, 0)
        self.assertIn("- device: NVIDIA H200", text)
        self.assertIn("2 passed, 0 failed", text)
        self.assertIn("| f64 | 8192 | 2.00 | 0.500 | 8.00 | 1.00 | 4.00 | 4.00 | yes (1e-14) |", text)
        self.assertIn("| f32 | 1048576 | 10.0 | – | 25.0 | – | – | 2.50 | NO (0.03) |", text)
        self.assertIn("lifted reproduces W1's reference sums at 8192 points, f64", text)
        self.assertIn("jax-forward reproduces", text)
        # f32 rows sort before f64 rows.
        self.assertLess(text.index("| f32 | 1048576"), text.index("| f64 | 8192"))

    def test_failed_check_is_listed_and_fails(self):
        bad = check("exp", "f32", 3e-3, 1e-5, False)
        status, text = run_table([check(), bad])
        self.assertEqual(status, 1)
        self.assertIn("1 passed, 1 failed", text)
        self.assertIn('FAILED: {"kind":"check","name":"exp"', text)
        self.assertIn("| f32 | 1 | 0.003 | exp (lanes 16, len 100003) | 1e-05 |", text)

    def test_pass_claimed_over_tolerance_fails(self):
        status, text = run_table([check(err=1e-6, tol=1e-12, ok=True)])
        self.assertEqual(status, 1)
        self.assertIn("0 passed, 1 failed", text)

    def test_error_line_fails(self):
        status, text = run_table([check(), result(kind="error", message="no CUDA device 0")])
        self.assertEqual(status, 1)
        self.assertIn("- ERROR: no CUDA device 0", text)

    def test_no_check_lines_fails(self):
        status, text = run_table([time_line("lifted", "f64", 8192, 1.0, REF)])
        self.assertEqual(status, 1)
        self.assertIn("no check lines", text)

    def test_skips_and_garbage_are_reported(self):
        status, text = run_table([
            check(),
            result(kind="skip", impl="jax-forward", reason="no JAX gpu device"),
            "RESULT {not json",
            time_line("lifted", "f64", 8192, 1.0, [s * 1.001 for s in REF]),
        ])
        self.assertEqual(status, 0)
        self.assertIn("- skip jax-forward: no JAX gpu device", text)
        self.assertIn("not JSON", text)
        self.assertIn("lifted DOES NOT reproduce", text)

    def test_command_line(self):
        proc = subprocess.run(
            [sys.executable, os.path.join(HERE, "gpu_table.py")],
            input=check() + "\n", capture_output=True, text=True, check=False,
        )
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("1 passed, 0 failed", proc.stdout)


def run_rec(name, status, group=None, **extra):
    rec = dict(kind="run", name=name, impl=extra.pop("impl", "lifted"), status=status)
    if group:
        rec["group"] = group
    rec.update(extra)
    return result(**rec)


class GpuTableRuns(unittest.TestCase):
    def test_groups_that_ran_to_the_end_pass(self):
        status, text = run_table([
            check("tanh", group="alpha"), check("exp", group="beta"),
            run_rec("lifted check alpha", "ok", "alpha", seconds=3, timeout=90),
            run_rec("lifted check beta", "ok", "beta", seconds=4, timeout=90),
        ])
        self.assertEqual(status, 0, text)
        self.assertIn("2 of 2 groups of checks ran to the end", text)
        self.assertIn("| alpha | 1 | 0 | ok |", text)
        self.assertIn("| lifted check beta | ok | 4 | 90 |  |", text)

    def test_a_group_that_did_not_finish_fails(self):
        for bad in ("crashed", "timed-out", "error", "skipped-budget", "skipped"):
            status, text = run_table([
                check("tanh", group="alpha"),
                run_rec("lifted check alpha", "ok", "alpha"),
                run_rec("lifted check beta", bad, "beta", detail="signal SIGSEGV"),
            ])
            self.assertEqual(status, 1, bad)
            self.assertIn("1 of 2 groups of checks ran to the end", text)
            self.assertIn(f"- NOT RUN TO THE END: beta ({bad}): signal SIGSEGV", text)
            self.assertIn(f"| beta | 0 | 0 | {bad} |", text)

    def test_a_group_with_failed_checks_ran_to_the_end(self):
        status, text = run_table([
            check("tanh", group="alpha", ok=False, err=1.0),
            run_rec("lifted check alpha", "failed", "alpha"),
        ])
        self.assertEqual(status, 1)
        self.assertIn("1 of 1 groups of checks ran to the end", text)
        self.assertIn("| alpha | 1 | 1 | failed |", text)

    def test_timing_cells_say_why_there_is_no_time(self):
        status, text = run_table([
            check(),
            time_line("lifted", "f64", 1048576, 20.0, [1.0, 2.0, 3.0]),
            time_line("lifted-primal", "f64", 1048576, 5.0),
            run_rec("jax w1 1048576 f64", "skipped-budget", impl="jax-forward",
                    precision="f64", points=1048576),
            run_rec("lifted w1 8192 f32", "skipped-budget", precision="f32", points=8192),
            result(kind="skip", impl="jax-forward", precision="f32", points=8192,
                   reason="no JAX gpu device"),
        ])
        # Timing runs cut by the budget are reported, not failures.
        self.assertEqual(status, 0, text)
        self.assertIn("| f64 | 1048576 | 20.0 | 5.00 | skipped-budget | skipped-budget "
                      "| 4.00 | – | – |", text)
        self.assertIn("| f32 | 8192 | skipped-budget | skipped-budget | skip | skip |", text)

    def test_a_lifted_timing_run_that_crashed_or_timed_out_fails(self):
        for bad in ("crashed", "timed-out"):
            status, text = run_table([
                check(),
                run_rec("lifted w1 8192 f64", bad, precision="f64", points=8192),
            ])
            self.assertEqual(status, 1, bad)
            self.assertIn(f"| f64 | 8192 | {bad} | {bad} |", text)
        # JAX's troubles are reported only.
        status, _ = run_table([
            check(),
            run_rec("jax w1 8192 f64", "crashed", impl="jax-forward", precision="f64",
                    points=8192),
        ])
        self.assertEqual(status, 0)

    def test_cells_keep_the_table_shape(self):
        _, text = run_table([
            check(),
            run_rec("lifted info", "crashed", detail="a | b\nc"),
        ])
        self.assertIn("| lifted info | crashed | – | – | a \\| b c |", text)


class JaxW1(unittest.TestCase):
    def test_splitmix_matches_a_plain_generator(self):
        try:
            import numpy as np
        except ImportError:
            self.skipTest("numpy is not installed")
        import jax_w1

        def plain(seed, n):
            s, out = seed, []
            for _ in range(n):
                s = (s + 0x9E3779B97F4A7C15) % 2**64
                z = s
                z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % 2**64
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2**64
                out.append(z ^ (z >> 31))
            return out

        for seed in (0, 7, 42, 2**64 - 1):
            self.assertEqual([int(v) for v in jax_w1.splitmix64(np, seed, 50)], plain(seed, 50))
        u = jax_w1.uniforms(np, 7, 9)
        self.assertEqual(list(u), [(v >> 11) * 2.0**-53 for v in plain(7, 9)])
        layers = jax_w1.w1_network(np)
        self.assertEqual([w.shape for w, _ in layers],
                         [(3, 128), (128, 128), (128, 128), (128, 128), (128, 3)])
        self.assertEqual(sum(w.size for w, _ in layers), 49920)
        pts = jax_w1.w1_points(np, 4)
        self.assertEqual(pts.shape, (4, 3))
        self.assertEqual(list(jax_w1.w1_points(np, 2).ravel()), list(pts[:2].ravel()))

    def test_skip_without_jax(self):
        # -S: no site-packages, so neither numpy nor jax is importable.
        env = dict(os.environ, PYTHONPATH="")
        proc = subprocess.run(
            [sys.executable, "-S", os.path.join(HERE, "jax_w1.py"), "--points", "4"],
            capture_output=True, text=True, env=env, check=False,
        )
        self.assertEqual(proc.returncode, 0, proc.stderr)
        line = proc.stdout.strip().splitlines()[-1]
        rec = json.loads(line[len("RESULT "):])
        self.assertEqual((rec["kind"], rec["impl"]), ("skip", "jax-forward"))


def touch(path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w"):
        pass


def executable(path, text):
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, 0o755)
    return path


# A stand-in for gpu_check: list-groups, info, check --group NAME, w1. The FAKE_*
# variables choose what goes wrong, per group where it names one.
FAKE_BIN = textwrap.dedent("""\
    #!/usr/bin/env bash
    has() { [[ -n "$2" && " $1 " == *" $2 "* ]]; }
    case "$1" in
        list-groups)
            printf '%s\\n' ${FAKE_GROUPS:-alpha beta gamma}
            exit 0 ;;
        info)
            printf 'RESULT {"kind":"info","key":"ld","value":"%s"}\\n' "$LD_LIBRARY_PATH"
            echo 'RESULT {"kind":"info","key":"nvrtc","value":"13.0"}' ;;
        check)
            group="$3"
            echo "$group" >>"$FAKE_TRACE"
            if has "${FAKE_HANG:-}" "$group"; then sleep 30; fi
            if has "${FAKE_CRASH:-}" "$group"; then kill -SEGV $$; fi
            if has "${FAKE_PANIC:-}" "$group"; then
                echo "thread 'main' panicked at src/main.rs:1:2:" >&2
                echo "Missing symbol cuFake" >&2
                echo "note: run with RUST_BACKTRACE=1 for a backtrace" >&2
                exit 101
            fi
            echo 'RESULT {"kind":"check","group":"'"$group"'","name":"tanh","precision":"f64","lanes":4,"len":7,"max_rel_err":0,"tol":1e-12,"pass":'"${FAKE_PASS:-true}"'}'
            if has "${FAKE_ERROR:-}" "$group"; then
                echo 'RESULT {"kind":"error","message":"the device is out of memory"}'
                echo "gpu_check: the device is out of memory" >&2
                exit 2
            fi
            [[ "${FAKE_PASS:-true}" == true ]] || exit 1 ;;
        w1)
            sleep "${FAKE_SLEEP:-0}"
            echo 'RESULT {"kind":"time","impl":"lifted","precision":"'"$5"'","points":'"$3"',"ms_median":1,"ms_min":1,"reps":1,"sums":[1,2,3]}' ;;
        *) exit 64 ;;
    esac
    """)


# A stand-in for the Python that runs scripts/jax_w1.py: JAX's timing lines, or a crash
# for the configurations FAKE_JAX_CRASH names ("PRECISION:POINTS").
FAKE_JAX = textwrap.dedent("""\
    #!/usr/bin/env bash
    # $1 is the script; then --points N --precision P ...
    points="$3" precision="$5"
    if [[ " ${FAKE_JAX_CRASH:-} " == *" $precision:$points "* ]]; then
        echo "Traceback (most recent call last):" >&2
        echo "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: the fake failed" >&2
        exit 1
    fi
    for impl in jax-forward jax-primal; do
        echo 'RESULT {"kind":"time","impl":"'"$impl"'","precision":"'"$precision"'","points":'"$points"',"ms_median":4,"ms_min":4,"reps":1,"sums":[1,2,3]}'
    done
    """)


def records(text, kind):
    out = []
    for line in text.splitlines():
        if line.startswith("RESULT "):
            rec = json.loads(line[len("RESULT "):])
            if rec.get("kind") == kind:
                out.append(rec)
    return out


class GpuCheckCase(unittest.TestCase):
    """A fake tree of CUDA libraries and the script's environment pointing at it."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        t = self.tmp.name
        # pip layouts: per-library folders (CUDA 12 style) and one cu13 folder.
        self.site = os.path.join(t, "site")
        touch(os.path.join(self.site, "nvidia/cublas/lib/libcublas.so.13"))
        touch(os.path.join(self.site, "nvidia/cublas/lib/libcublasLt.so.13"))
        touch(os.path.join(self.site, "nvidia/cuda_nvrtc/lib/libnvrtc.so.12"))  # wrong major
        # A builtins of another release, in a folder searched before NVRTC's own.
        touch(os.path.join(self.site, "nvidia/cuda_nvrtc/lib/libnvrtc-builtins.so.13.1"))
        self.site2 = os.path.join(t, "site2")
        touch(os.path.join(self.site2, "nvidia/cu13/lib/libnvrtc.so.13"))
        touch(os.path.join(self.site2, "nvidia/cu13/lib/libnvrtc-builtins.so.13.0"))
        touch(os.path.join(self.site2, "nvidia/cu13/lib/libcublasLt.so.13"))  # not cuBLAS's
        # A CUDA install with only a link stub of the driver, and a driver folder.
        self.cuda = os.path.join(t, "cuda/lib64")
        touch(os.path.join(self.cuda, "stubs/libcuda.so"))
        touch(os.path.join(self.cuda, "libcublas.so.13"))  # shadowed by pip's
        self.driver = os.path.join(t, "driver")
        touch(os.path.join(self.driver, "libcuda.so.1"))
        self.links = os.path.join(t, "links")
        self.env = dict(
            os.environ,
            GPU_CHECK_PYTHON_ROOTS=f"{self.site}:{self.site2}:{os.path.join(t, 'nowhere')}",
            GPU_CHECK_CUDA_DIRS=self.cuda,
            GPU_CHECK_DRIVER_DIRS=self.driver,
            GPU_CHECK_LINK_DIR=self.links,
            OUT=os.path.join(t, "out"),
        )

    def tearDown(self):
        self.tmp.cleanup()

    def script(self, *args, env=None):
        return subprocess.run(
            ["bash", os.path.join(HERE, "gpu-check.sh"), *args],
            capture_output=True, text=True, env=env or self.env, check=False, cwd=self.tmp.name,
        )

    def lib(self, *parts):
        return os.path.realpath(os.path.join(*parts))


class GpuCheckLibraries(GpuCheckCase):
    def test_library_dirs_from_a_fake_tree(self):
        proc = self.script("--list-lib-dirs")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(proc.stdout.splitlines(), [
            self.lib(self.site, "nvidia/cublas/lib"),
            self.lib(self.site2, "nvidia/cu13/lib"),
            self.lib(self.driver),
        ])
        self.assertNotIn("stubs", proc.stdout + proc.stderr)

    def test_missing_libraries_are_reported(self):
        env = dict(self.env, GPU_CHECK_PYTHON_ROOTS="", GPU_CHECK_CUDA_DIRS="",
                   GPU_CHECK_DRIVER_DIRS="")
        proc = self.script("--list-lib-dirs", env=env)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(proc.stdout, "")
        self.assertIn("libcublas.so.13: NOT FOUND", proc.stderr)

    def test_links_name_exactly_the_libraries_found(self):
        proc = self.script("--dry-run", "absent")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        cublas = self.lib(self.site, "nvidia/cublas/lib")
        nvrtc = self.lib(self.site2, "nvidia/cu13/lib")
        want = {
            "libcublas.so": f"{cublas}/libcublas.so.13",
            "libcublas.so.13": f"{cublas}/libcublas.so.13",
            # cuBLAS's own cuBLASLt, not the one in a folder searched first.
            "libcublasLt.so": f"{cublas}/libcublasLt.so.13",
            "libcublasLt.so.13": f"{cublas}/libcublasLt.so.13",
            "libnvrtc.so": f"{nvrtc}/libnvrtc.so.13",
            "libnvrtc.so.13": f"{nvrtc}/libnvrtc.so.13",
            # NVRTC's own builtins, not the other release's found earlier.
            "libnvrtc-builtins.so": f"{nvrtc}/libnvrtc-builtins.so.13.0",
            "libnvrtc-builtins.so.13.0": f"{nvrtc}/libnvrtc-builtins.so.13.0",
            "libcuda.so": f"{self.lib(self.driver)}/libcuda.so.1",
            "libcuda.so.1": f"{self.lib(self.driver)}/libcuda.so.1",
        }
        self.assertEqual({n: os.readlink(os.path.join(self.links, n))
                          for n in os.listdir(self.links)}, want)
        self.assertIn(f"== LD_LIBRARY_PATH for the binary: {self.links}:{cublas}:", proc.stdout)

    def test_the_driver_from_the_loaders_cache(self):
        system = os.path.join(self.tmp.name, "system")
        touch(os.path.join(system, "lib64/libcuda.so.1"))
        touch(os.path.join(system, "lib32/libcuda.so.1"))
        fake = executable(os.path.join(self.tmp.name, "ldconfig"), textwrap.dedent(f"""\
            #!/bin/sh
            echo '3 libs found in cache `/etc/ld.so.cache'"'"
            printf '\\tlibcuda.so.1 (libc6) => {system}/lib32/libcuda.so.1\\n'
            printf '\\tlibcuda.so.1 (libc6,x86-64) => {system}/lib64/libcuda.so.1\\n'
            printf '\\tlibcuda.so (libc6,x86-64) => {system}/lib64/libcuda.so\\n'
            """))
        env = dict(self.env, GPU_CHECK_LDCONFIG=fake)
        del env["GPU_CHECK_DRIVER_DIRS"]
        proc = self.script("--dry-run", "absent", env=env)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(os.readlink(os.path.join(self.links, "libcuda.so")),
                         f"{system}/lib64/libcuda.so.1")
        self.assertIn("(the system loader's, ldconfig)", proc.stdout)


class GpuCheckRuns(GpuCheckCase):
    def setUp(self):
        super().setUp()
        self.trace = os.path.join(self.tmp.name, "trace")
        self.env.update(FAKE_TRACE=self.trace, GPU_CHECK_BUDGET_S="600")
        self.bin = executable(os.path.join(self.tmp.name, "gpu_check"), FAKE_BIN)

    def run_script(self, *args, **env):
        proc = self.script(*args, self.bin, env=dict(self.env, **env))
        log_path = os.path.join(self.env["OUT"], "gpu-check.log")
        log = ""
        if os.path.exists(log_path):
            with open(log_path) as f:
                log = f.read()
        return proc, log

    def runs(self, log):
        return {r["name"]: r for r in records(log, "run")}

    def groups_run(self):
        with open(self.trace) as f:
            return f.read().split()

    def test_dry_run_prints_the_plan_in_order(self):
        proc = self.script("--dry-run", "bin/fake")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("skipped: no executable at " + os.path.join(self.tmp.name, "bin/fake"),
                      proc.stdout)
        self.assertFalse(os.path.exists(os.path.join(self.env["OUT"], "gpu-check.log")))
        proc = self.script("--dry-run", self.bin)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("== groups of checks: alpha beta gamma", proc.stdout)
        order = [
            f"{self.bin} info",
            f"{self.bin} w1 --points 1048576 --precision f64",
            "scripts/jax_w1.py --points 1048576 --precision f64",
            f"{self.bin} check --group alpha",
            f"{self.bin} check --group beta",
            f"{self.bin} check --group gamma",
            f"{self.bin} w1 --points 8192 --precision f64",
            "scripts/jax_w1.py --points 8192 --precision f64",
            f"{self.bin} w1 --points 1048576 --precision f32",
            "scripts/jax_w1.py --points 1048576 --precision f32",
            f"{self.bin} w1 --points 8192 --precision f32",
            "scripts/jax_w1.py --points 8192 --precision f32",
        ]
        at = [proc.stdout.index(step) for step in order]
        self.assertEqual(at, sorted(at))
        self.assertNotIn("skipped", proc.stdout.split("== the table")[0])
        # The table of the plan, made by gpu_table.py.
        self.assertIn("| lifted check beta | planned |", proc.stdout)
        self.assertIn("| f64 | 1048576 | planned | planned | planned | planned |", proc.stdout)
        self.assertFalse(os.path.exists(self.trace))  # nothing ran

    def test_dry_run_applies_the_budget_to_the_estimates(self):
        def plan(*args, **env):
            proc = self.script("--dry-run", *args, self.bin, env=dict(self.env, **env))
            self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
            rows = [re.match(r"   at +\d+s  (\S.*?) {2,}(skipped|needs)", r)
                    for r in proc.stdout.splitlines() if r.startswith("   at ")]
            return {m[1]: m[2] == "needs" for m in rows}, proc.stdout

        # info 5 s + the headline pair 15 + 60 s leave 10 s of 100 after the table's 10.
        runs, text = plan("--budget", "100")
        self.assertTrue(runs["lifted info"] and runs["lifted w1 1048576 f64"]
                        and runs["jax w1 1048576 f64"])
        self.assertFalse(runs["lifted check alpha"])
        self.assertIn("needs about 15s, 10s left of the 100s budget", text)
        self.assertTrue(runs["lifted w1 8192 f64"])  # 10 s: fits exactly
        self.assertFalse(runs["jax w1 8192 f64"])
        # The environment gives the budget when the flag does not; the flag wins.
        runs, _ = plan(GPU_CHECK_BUDGET_S="40")
        self.assertFalse(runs["jax w1 1048576 f64"])
        runs, _ = plan("--budget=1000", GPU_CHECK_BUDGET_S="40")
        self.assertTrue(all(runs.values()))

    def test_bad_budget_is_refused(self):
        for args in (["--budget", "soon"], ["--budget"], ["--budget=-3"]):
            proc = self.script("--dry-run", *args)
            self.assertEqual(proc.returncode, 2, args)

    def test_whole_run_with_a_fake_binary(self):
        stubs = os.path.join(self.tmp.name, "cuda/lib64/stubs")
        proc, log = self.run_script(LD_LIBRARY_PATH=f"{stubs}:/opt/kept")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        # Each group in a process of its own, in the binary's order.
        self.assertEqual(self.groups_run(), ["alpha", "beta", "gamma"])
        runs = self.runs(log)
        self.assertEqual(runs["lifted check beta"]["status"], "ok")
        self.assertEqual(runs["lifted w1 1048576 f64"]["status"], "ok")
        # The binary's path starts with the links, keeps the caller's, drops stubs.
        ld = [r["value"] for r in records(log, "info") if r["key"] == "ld"][0]
        self.assertTrue(ld.startswith(self.links + ":"), ld)
        self.assertIn("/opt/kept", ld)
        self.assertNotIn("stubs", ld)
        self.assertIn("3 of 3 groups of checks ran to the end", proc.stdout)
        self.assertIn("| f64 | 1048576 | 1.00 |", proc.stdout)
        with open(os.path.join(self.env["OUT"], "gpu-table.md")) as f:
            self.assertIn("3 passed, 0 failed", f.read())

    def test_groups_that_crash_hang_or_panic_do_not_stop_the_others(self):
        proc, log = self.run_script(FAKE_GROUPS="alpha beta gamma delta", FAKE_HANG="alpha",
                                    FAKE_CRASH="beta", FAKE_PANIC="gamma",
                                    GPU_CHECK_STEP_LIMIT_S="2")
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertEqual(self.groups_run(), ["alpha", "beta", "gamma", "delta"])
        runs = self.runs(log)
        self.assertEqual(runs["lifted check alpha"]["status"], "timed-out")
        self.assertIn("timed out after 2s", runs["lifted check alpha"]["detail"])
        self.assertEqual(runs["lifted check beta"]["status"], "crashed")
        self.assertIn("signal SIGSEGV", runs["lifted check beta"]["detail"])
        self.assertEqual(runs["lifted check gamma"]["status"], "crashed")
        self.assertIn("panicked at src/main.rs:1:2: Missing symbol cuFake",
                      runs["lifted check gamma"]["detail"])
        self.assertEqual(runs["lifted check delta"]["status"], "ok")
        self.assertEqual(runs["lifted w1 8192 f32"]["status"], "ok")
        self.assertIn("1 of 4 groups of checks ran to the end", proc.stdout)
        self.assertIn("- NOT RUN TO THE END: beta (crashed): signal SIGSEGV", proc.stdout)

    def test_jax_runs_with_the_python_given(self):
        python = executable(os.path.join(self.tmp.name, "python"), FAKE_JAX)
        proc, log = self.run_script(GPU_CHECK_PYTHON=python, FAKE_JAX_CRASH="f32:8192")
        # A JAX run that crashes is reported; it is no failure of lifted's.
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        run = self.runs(log)["jax w1 8192 f32"]
        self.assertEqual(run["status"], "crashed")
        self.assertIn("XlaRuntimeError: INTERNAL: the fake failed", run["detail"])
        self.assertIn("| f64 | 1048576 | 1.00 | – | 4.00 | 4.00 | – | 4.00 | yes (0) |",
                      proc.stdout)
        self.assertIn("| f32 | 8192 | 1.00 | – | crashed | crashed |", proc.stdout)

    def test_failed_checks_fail_the_script(self):
        proc, log = self.run_script(FAKE_PASS="false")
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertEqual(self.runs(log)["lifted check alpha"]["status"], "failed")
        self.assertIn("0 passed, 3 failed", proc.stdout)
        self.assertIn("3 of 3 groups of checks ran to the end", proc.stdout)

    def test_a_group_stopped_by_an_error_fails_the_script(self):
        proc, log = self.run_script(FAKE_ERROR="beta")
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        run = self.runs(log)["lifted check beta"]
        self.assertEqual(run["status"], "error")
        self.assertIn("gpu_check: the device is out of memory", run["detail"])
        self.assertIn("ERROR: the device is out of memory", proc.stdout)
        self.assertEqual(self.runs(log)["lifted check gamma"]["status"], "ok")

    def test_runs_that_do_not_fit_are_skipped_not_killed(self):
        proc, log = self.run_script("--budget", "45")
        # JAX's runs need more than the 35 s left; skipping them fails nothing.
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        runs = self.runs(log)
        self.assertEqual(runs["jax w1 1048576 f64"]["status"], "skipped-budget")
        self.assertEqual(runs["lifted w1 1048576 f64"]["status"], "ok")
        self.assertEqual(runs["lifted check gamma"]["status"], "ok")
        self.assertIn("| f64 | 1048576 | 1.00 | – | skipped-budget | skipped-budget |",
                      proc.stdout)

    def test_a_timing_run_cut_by_its_timeout_fails_the_script(self):
        proc, log = self.run_script(FAKE_SLEEP="30", GPU_CHECK_STEP_LIMIT_S="1")
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertEqual(self.runs(log)["lifted w1 8192 f64"]["status"], "timed-out")
        self.assertIn("| f64 | 8192 | timed-out | timed-out |", proc.stdout)

    def test_a_binary_without_its_executable_bit_still_runs(self):
        os.chmod(self.bin, 0o644)
        proc, _ = self.run_script()
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(self.groups_run(), ["alpha", "beta", "gamma"])

    def test_a_binary_without_groups_runs_all_checks_at_once(self):
        old = executable(os.path.join(self.tmp.name, "old"), FAKE_BIN.replace(
            "list-groups)", "never-listed)"))
        proc = self.script(old, env=self.env)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn("groups of checks: none listed by the binary", proc.stdout)
        self.assertIn("1 of 1 groups of checks ran to the end", proc.stdout)

    def test_missing_binary_fails_the_script(self):
        proc = self.script(os.path.join(self.tmp.name, "absent"), env=self.env)
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertIn("no check lines", proc.stdout)
        self.assertIn("no executable at", proc.stdout)
        self.assertIn("- NOT RUN TO THE END: all (skipped)", proc.stdout)


if __name__ == "__main__":
    unittest.main()
