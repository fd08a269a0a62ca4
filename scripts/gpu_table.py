#!/usr/bin/env python3
"""One table from the `RESULT {json}` lines of the device check (scripts/gpu-check.sh).

Reads stdin; keeps the lines that start with `RESULT ` and parses their JSON. Kinds:

* `check`: {"kind":"check","group":"kernels-f64-n16","name":"tanh","precision":"f64",
  "lanes":16,"len":100003,"max_rel_err":1.1e-16,"tol":1e-12,"pass":true}
* `time`: {"kind":"time","impl":"lifted","precision":"f64","points":8192,
  "ms_median":...,"ms_min":...,"reps":20,"sums":[...]}; impls `lifted`,
  `lifted-primal`, `jax-forward`, `jax-primal` (the forward ones carry `sums`)
* `run`: one per process the script ran or did not run: {"kind":"run","name":...,
  "impl":"lifted","group":"reading" (runs of checks only),"precision":...,"points":...
  (W1 runs only),"status":...,"exit":0,"seconds":12,"timeout":90,"detail":...}; status
  `ok`, `failed` (checks failed), `error` (stopped on an error it reported), `crashed`,
  `timed-out`, `skipped-budget`, `skipped` or, in a dry run's plan, `planned`
* `skip`: {"kind":"skip","impl":...,"reason":...}
* `info`: {"kind":"info","key":"device","value":"NVIDIA H200"}
* `error`: {"kind":"error","message":...}: a run that stopped on an error (the
  binary prints one for any `CudaError` before exiting with status 2)

Prints (Markdown) the information lines, the runs, a correctness summary (passed /
failed, per group of checks, every failed row in full, the groups that did not run to
the end, the worst error per precision), the errors and skips, and one timing table: a
row per (precision, points), the median milliseconds of each implementation (or why
there is none: the run's status), lifted ÷ lifted-primal, jax-forward ÷ lifted (the
speedup over JAX) and the agreement of the residual sums of lifted and JAX (largest
relative difference of the three sums), and, for W1's reference configuration (8192
points, f64), the sums against the reference.

Exit status 1 if any check failed, no check line was seen, a group of checks did not
run to the end (crashed, timed out, stopped on an error, skipped), an `error` line was
seen, or a run of lifted crashed or timed out; else 0. Timing rows and sums never
change the exit status; a disagreement is marked `NO` in the table.

    python3 scripts/gpu_table.py < gpu-check.log
"""

import json
import math
import sys

IMPLS = ("lifted", "lifted-primal", "jax-forward", "jax-primal")
# W1's reference sums (benchmarks/WORKLOADS.md), f64 at 8192 points.
REFERENCE = {("f64", 8192): (329.74681203850, 1259.4034342138, 1048.6276228167)}
# Relative difference of residual sums counted as agreement, per precision.
SUMS_TOL = {"f64": 1e-9, "f32": 1e-3}
# Run statuses of a group of checks that ran to the end.
FINISHED = ("ok", "failed")
# Run statuses of lifted that are errors of the whole check.
BROKEN = ("error", "crashed", "timed-out")
# The run whose output holds each implementation's timing line.
RUN_OF = {"lifted": "lifted", "lifted-primal": "lifted", "jax-forward": "jax-forward",
          "jax-primal": "jax-forward"}
KINDS = ("info", "check", "time", "run", "skip", "error")


def parse(lines):
    """(records, problems): the parsed RESULT objects and a note per unreadable line."""
    records, problems = [], []
    for number, line in enumerate(lines, 1):
        line = line.rstrip("\r\n")
        if not line.startswith("RESULT "):
            continue
        try:
            rec = json.loads(line[len("RESULT ") :])
        except json.JSONDecodeError as e:
            problems.append(f"line {number}: not JSON ({e}): {line}")
            continue
        if not isinstance(rec, dict) or "kind" not in rec:
            problems.append(f"line {number}: no kind: {line}")
            continue
        records.append(rec)
    return records, problems


def fmt_ms(x):
    if x is None:
        return "–"
    if x >= 100:
        return f"{x:.0f}"
    if x >= 10:
        return f"{x:.1f}"
    if x >= 1:
        return f"{x:.2f}"
    return f"{x:#.3g}"


def fmt_ratio(a, b):
    if a is None or b is None or b <= 0:
        return "–"
    return f"{a / b:.2f}"


def rel_diff(a, b):
    """The largest relative difference of two sequences of sums (inf if lengths differ)."""
    if len(a) != len(b):
        return math.inf
    worst = 0.0
    for x, y in zip(a, b):
        x, y = float(x), float(y)
        if not (math.isfinite(x) and math.isfinite(y)):
            return math.inf
        scale = max(abs(x), abs(y))
        if scale > 0:
            worst = max(worst, abs(x - y) / scale)
    return worst


def passed(rec):
    """A check passes when it says so and its error is within its tolerance (if both
    are given): a line claiming `pass` with an error over `tol` counts as failed."""
    ok = rec.get("pass") is True
    err, tol = rec.get("max_rel_err"), rec.get("tol")
    if ok and isinstance(err, (int, float)) and isinstance(tol, (int, float)):
        ok = math.isfinite(err) and err <= tol
    return ok


def cell(x):
    """A table cell: no line breaks or column bars inside."""
    return str(x).replace("\n", " ").replace("|", "\\|")


def config(rec):
    """(precision, points) of a record, for the timing table."""
    return (str(rec.get("precision")), rec.get("points"))


def report(records, problems, out):
    w = out.write
    infos = [r for r in records if r["kind"] == "info"]
    checks = [r for r in records if r["kind"] == "check"]
    times = [r for r in records if r["kind"] == "time"]
    runs = [r for r in records if r["kind"] == "run"]
    skips = [r for r in records if r["kind"] == "skip"]
    errors = [r for r in records if r["kind"] == "error"]
    others = [r for r in records if r["kind"] not in KINDS]
    group_runs = [r for r in runs if r.get("group")]
    unfinished = [r for r in group_runs if r.get("status") not in FINISHED]
    broken = [r for r in runs if r.get("impl") == "lifted" and not r.get("group")
              and r.get("status") in BROKEN]

    if infos:
        w("## Device\n\n")
        seen = set()
        for r in infos:
            item = (str(r.get("key")), str(r.get("value")))
            if item not in seen:
                seen.add(item)
                w(f"- {item[0]}: {item[1]}\n")
        w("\n")

    if runs:
        w("## Runs\n\n| run | status | seconds | timeout | detail |\n|---|---|---|---|---|\n")
        for r in runs:
            cells = [r.get("name", "?"), r.get("status", "?"), r.get("seconds", "–"),
                     r.get("timeout", "–"), r.get("detail", "")]
            w("| " + " | ".join(cell(c) for c in cells) + " |\n")
        w("\n")

    w("## Correctness\n\n")
    failed = [r for r in checks if not passed(r)]
    w(f"{len(checks) - len(failed)} passed, {len(failed)} failed")
    w(" (no check lines: the checks did not run)\n\n" if not checks else "\n\n")
    if group_runs:
        w(f"{len(group_runs) - len(unfinished)} of {len(group_runs)} groups of checks "
          "ran to the end\n\n")
        w("| group | checks | failed | run |\n|---|---|---|---|\n")
        for r in group_runs:
            g = r["group"]
            mine = [c for c in checks if c.get("group") == g or g == "all"]
            bad = sum(1 for c in mine if not passed(c))
            w(f"| {cell(g)} | {len(mine)} | {bad} | {cell(r.get('status', '?'))} |\n")
        w("\n")
        for r in unfinished:
            if r.get("status") == "planned":
                continue
            detail = f": {r['detail']}" if r.get("detail") else ""
            w(f"- NOT RUN TO THE END: {r['group']} ({r.get('status', '?')}){detail}\n")
        if any(r.get("status") != "planned" for r in unfinished):
            w("\n")
    for r in failed:
        w(f"- FAILED: {json.dumps(r, separators=(',', ':'))}\n")
    if failed:
        w("\n")
    measured = [r for r in checks if isinstance(r.get("max_rel_err"), (int, float))]
    precisions = sorted({str(r.get("precision")) for r in measured})
    if precisions:
        w("| precision | checks | worst max_rel_err | in | tol there |\n|---|---|---|---|---|\n")
        for p in precisions:
            rows = [r for r in measured if str(r.get("precision")) == p]
            worst = max(rows, key=lambda r: (not math.isfinite(r["max_rel_err"]), r["max_rel_err"]))
            where = f"{worst.get('name')} (lanes {worst.get('lanes')}, len {worst.get('len')})"
            w(f"| {p} | {len(rows)} | {worst['max_rel_err']:.3g} | {where} | {worst.get('tol')} |\n")
        w("\n")

    if errors:
        w("## Errors\n\n")
        counts = {}
        for r in errors:
            m = str(r.get("message", json.dumps(r, separators=(",", ":"))))
            counts[m] = counts.get(m, 0) + 1
        for m, n in counts.items():
            w(f"- ERROR: {m}" + (f" (× {n})" if n > 1 else "") + "\n")
        w("\n")

    if skips or problems or others:
        w("## Skipped and unreadable\n\n")
        for r in skips:
            where = ""
            if "precision" in r or "points" in r:
                where = f" ({r.get('precision', '?')}, {r.get('points', '?')} points)"
            w(f"- skip {r.get('impl', '?')}{where}: {r.get('reason', '')}\n")
        for r in others:
            w(f"- unknown kind: {json.dumps(r, separators=(',', ':'))}\n")
        for p in problems:
            w(f"- {p}\n")
        w("\n")

    w("## W1 timings (median ms)\n\n")
    table = {}
    for r in times:
        table.setdefault(config(r), {})[r.get("impl")] = r  # the last line of a kind wins
    # Why an implementation has no timing line: its run's status, or its own skip line.
    missing = {}
    for r in runs:
        if "precision" in r and r.get("status") != "ok":
            table.setdefault(config(r), {})
            missing[(config(r), r.get("impl"))] = str(r.get("status"))
    for r in skips:
        if "precision" in r:
            missing.setdefault((config(r), r.get("impl")), "skip")
    if not table:
        w("no timing lines\n")
    else:
        w(
            "| precision | points | lifted | lifted-primal | jax-forward | jax-primal "
            "| lifted ÷ lifted-primal | jax-forward ÷ lifted | sums lifted vs jax |\n"
            "|---|---|---|---|---|---|---|---|---|\n"
        )
        notes = []

        def order(key):
            p, n = key
            return (p, n if isinstance(n, (int, float)) else math.inf)

        for key in sorted(table, key=order):
            row = table[key]
            ms = {i: row[i].get("ms_median") if i in row else None for i in IMPLS}
            lifted_sums = row.get("lifted", {}).get("sums")
            jax_sums = row.get("jax-forward", {}).get("sums")
            tol = SUMS_TOL.get(key[0], 1e-3)
            if lifted_sums and jax_sums:
                d = rel_diff(lifted_sums, jax_sums)
                agree = f"{'yes' if d <= tol else 'NO'} ({d:.1g})"
            else:
                agree = "–"
            cells = [key[0], str(key[1])]
            cells += [
                fmt_ms(ms[i]) if ms[i] is not None else missing.get((key, RUN_OF[i]), "–")
                for i in IMPLS
            ]
            cells += [
                fmt_ratio(ms["lifted"], ms["lifted-primal"]),
                fmt_ratio(ms["jax-forward"], ms["lifted"]),
                agree,
            ]
            w("| " + " | ".join(cells) + " |\n")
            ref = REFERENCE.get(key)
            if ref:
                for impl, sums in (("lifted", lifted_sums), ("jax-forward", jax_sums)):
                    if sums:
                        d = rel_diff(sums, ref)
                        verdict = "reproduces" if d <= 1e-10 else "DOES NOT reproduce"
                        notes.append(
                            f"- {impl} {verdict} W1's reference sums at {key[1]} points, "
                            f"{key[0]} (largest relative difference {d:.1g})"
                        )
        w("\n")
        for n in notes:
            w(n + "\n")
        if notes:
            w("\n")
    return 1 if failed or errors or not checks or unfinished or broken else 0


def main():
    records, problems = parse(sys.stdin)
    return report(records, problems, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
