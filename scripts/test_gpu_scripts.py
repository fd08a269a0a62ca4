#!/usr/bin/env python3
"""Host-side tests of the device-check scripts; no GPU, no JAX, no Rust needed.

    python3 -m unittest discover -s scripts -p 'test_*.py'

* gpu_table.py on synthetic RESULT lines: counts, failed rows, exit status, ratios,
  sums agreement, the W1 reference note, unreadable lines.
* jax_w1.py: its vectorised SplitMix64 against a plain one (needs numpy, else skipped),
  and the skip line when JAX is not importable.
* gpu-check.sh: library discovery on a fake directory tree (pip's nvidia/*/lib and
  nvidia/cu13/lib layouts, a CUDA install with a stub libcuda, a driver folder), and a
  whole run with a fake binary: LD_LIBRARY_PATH reaches it, a step that overruns the
  budget is cut and reported, the table's exit status is the script's.
"""

import io
import json
import os
import stat
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


def check(name="tanh", precision="f64", err=1e-16, tol=1e-12, ok=True):
    return result(
        kind="check", name=name, precision=precision, lanes=16, len=100003,
        max_rel_err=err, tol=tol, **{"pass": ok}
    )


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


FAKE_BIN = textwrap.dedent("""\
    #!/usr/bin/env bash
    printf 'RESULT {"kind":"info","key":"ld","value":"%s"}\\n' "$LD_LIBRARY_PATH"
    case "$1" in
        check)
            echo 'RESULT {"kind":"check","name":"tanh","precision":"f64","lanes":4,"len":7,"max_rel_err":0,"tol":1e-12,"pass":'"${FAKE_PASS:-true}"'}'
            if [[ -n "${FAKE_ERROR:-}" ]]; then
                echo 'RESULT {"kind":"error","message":"the device is out of memory"}'
                exit 2
            fi
            [[ "${FAKE_PASS:-true}" == true ]] || exit 1 ;;
        w1)
            sleep "${FAKE_SLEEP:-0}"
            echo 'RESULT {"kind":"time","impl":"lifted","precision":"f64","points":8192,"ms_median":1,"ms_min":1,"reps":1,"sums":[1,2,3]}' ;;
    esac
    """)


class GpuCheck(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        t = self.tmp.name
        # pip layouts: per-library folders (CUDA 12 style) and one cu13 folder.
        self.site = os.path.join(t, "site")
        touch(os.path.join(self.site, "nvidia/cublas/lib/libcublas.so.13"))
        touch(os.path.join(self.site, "nvidia/cublas/lib/libcublasLt.so.13"))
        touch(os.path.join(self.site, "nvidia/cuda_nvrtc/lib/libnvrtc.so.12"))  # wrong major
        self.site2 = os.path.join(t, "site2")
        touch(os.path.join(self.site2, "nvidia/cu13/lib/libnvrtc.so.13"))
        touch(os.path.join(self.site2, "nvidia/cu13/lib/libnvrtc-builtins.so.13.0"))
        # A CUDA install with only a link stub of the driver, and a driver folder.
        self.cuda = os.path.join(t, "cuda/lib64")
        touch(os.path.join(self.cuda, "stubs/libcuda.so"))
        touch(os.path.join(self.cuda, "libcublas.so.13"))  # shadowed by pip's
        self.driver = os.path.join(t, "driver")
        touch(os.path.join(self.driver, "libcuda.so.1"))
        self.env = dict(
            os.environ,
            GPU_CHECK_PYTHON_ROOTS=f"{self.site}:{self.site2}:{os.path.join(t, 'nowhere')}",
            GPU_CHECK_CUDA_DIRS=self.cuda,
            GPU_CHECK_DRIVER_DIRS=self.driver,
            OUT=os.path.join(t, "out"),
        )

    def tearDown(self):
        self.tmp.cleanup()

    def script(self, *args, env=None):
        return subprocess.run(
            ["bash", os.path.join(HERE, "gpu-check.sh"), *args],
            capture_output=True, text=True, env=env or self.env, check=False, cwd=self.tmp.name,
        )

    def test_library_dirs_from_a_fake_tree(self):
        proc = self.script("--list-lib-dirs")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        real = os.path.realpath
        self.assertEqual(proc.stdout.splitlines(), [
            real(os.path.join(self.site, "nvidia/cublas/lib")),
            real(os.path.join(self.site2, "nvidia/cu13/lib")),
            real(self.driver),
        ])
        self.assertNotIn("stubs", proc.stdout + proc.stderr)

    def test_missing_libraries_are_reported(self):
        env = dict(self.env, GPU_CHECK_PYTHON_ROOTS="", GPU_CHECK_CUDA_DIRS="",
                   GPU_CHECK_DRIVER_DIRS="")
        proc = self.script("--list-lib-dirs", env=env)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(proc.stdout, "")
        self.assertIn("libcublas.so.13: NOT FOUND", proc.stderr)

    def test_dry_run_prints_the_plan(self):
        proc = self.script("--dry-run", "bin/fake")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn(os.path.join(self.tmp.name, "bin/fake") + " check", proc.stdout)
        self.assertIn("--points 1048576 --precision f32", proc.stdout)
        self.assertIn("scripts/jax_w1.py --points 8192 --precision f64", proc.stdout)
        self.assertFalse(os.path.exists(os.path.join(self.env["OUT"], "gpu-check.log")))

    def fake_bin(self):
        path = os.path.join(self.tmp.name, "gpu_check")
        with open(path, "w") as f:
            f.write(FAKE_BIN)
        os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
        return path

    def test_whole_run_with_a_fake_binary_and_a_short_budget(self):
        stubs = os.path.join(self.tmp.name, "cuda/lib64/stubs")
        env = dict(self.env, GPU_CHECK_BUDGET_S="7", FAKE_SLEEP="30",
                   LD_LIBRARY_PATH=f"{stubs}:/opt/kept")
        binary = self.fake_bin()
        # A binary that arrives without its executable bit still runs.
        os.chmod(binary, 0o644)
        proc = self.script(binary, env=env)
        # The timing run that timed out is an error of the whole run.
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        with open(os.path.join(env["OUT"], "gpu-check.log")) as f:
            log = f.read()
        self.assertIn(os.path.realpath(os.path.join(self.site, "nvidia/cublas/lib")), log)
        self.assertIn('"name":"tanh"', log)
        self.assertIn("lifted w1 8192 f64: timed out after", log)
        self.assertIn("lifted w1 8192 f64: exit status 124", log)
        self.assertIn("the 7s budget is spent", log)
        self.assertIn("/opt/kept", log)
        self.assertNotIn("stubs", log)
        self.assertIn("1 passed, 0 failed", proc.stdout)
        with open(os.path.join(env["OUT"], "gpu-table.md")) as f:
            self.assertIn("1 passed, 0 failed", f.read())

    def test_failed_check_fails_the_script(self):
        env = dict(self.env, GPU_CHECK_BUDGET_S="60", FAKE_PASS="false",
                   PYTHONPATH="", PYTHONNOUSERSITE="1")
        proc = self.script(self.fake_bin(), env=env)
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertIn("lifted check: exit status 1", proc.stdout)
        self.assertIn("0 passed, 1 failed", proc.stdout)
        self.assertIn("| f64 | 8192 | 1.00 |", proc.stdout)

    def test_check_run_stopped_by_an_error_fails_the_script(self):
        env = dict(self.env, GPU_CHECK_BUDGET_S="60", FAKE_ERROR="1", PYTHONPATH="")
        proc = self.script(self.fake_bin(), env=env)
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertIn("1 passed, 1 failed", proc.stdout)
        self.assertIn("gpu_check check ran to the end (exit status 2)", proc.stdout)
        self.assertIn("ERROR: the device is out of memory", proc.stdout)

    def test_missing_binary_fails_the_script(self):
        env = dict(self.env, GPU_CHECK_BUDGET_S="60", PYTHONPATH="")
        proc = self.script(os.path.join(self.tmp.name, "absent"), env=env)
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertIn("no check lines", proc.stdout)
        self.assertIn("lifted check: no executable at", proc.stdout)


if __name__ == "__main__":
    unittest.main()
