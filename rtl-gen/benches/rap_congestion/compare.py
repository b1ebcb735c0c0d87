#!/usr/bin/env python3
"""Side by side: the Table II Monte Carlo run by `rtl-gen congestion` and by the NumPy
implementations of numpy_table2.py, each timed on the same machine in one run.

Usage (from the repository root):
  python3 rtl-gen/benches/rap_congestion/compare.py [--trials 100000] [--loop-trials 100000]
      [--repeat 1]

Builds rtl-gen in release mode (when the running Python has no NumPy, first installs the pinned
NumPy into the project's .venv/ and runs again under it), then runs
  1. rtl-gen congestion (all threads; RAYON_NUM_THREADS is honoured),
  2. rtl-gen congestion with RAYON_NUM_THREADS=1,
  3. numpy_table2.py --mode batch (vectorised over batches of trials, written for speed),
  4. numpy_table2.py --mode batch-plain (the first vectorised peer),
  5. numpy_table2.py --mode loop (one trial at a time),
each --repeat times, in turns (1 to 5, then again), and keeps each implementation's fastest run
(least wall time; least CPU time), so that a shared machine's busy moments count against none of
them. Prints a Markdown table: warp accesses, wall and CPU seconds, warp accesses per second,
and how many times faster rtl-gen is than each implementation: in wall time (rtl-gen on all
threads), per CPU second (rtl-gen on all threads) and per CPU second on one thread. Every run
does the same 60 cells (RAW/RAS/RAP x contiguous/stride/diagonal/random x w = 16..256) with the
same trial count (--loop-trials may lower the loop's, which is slow; rates are per warp access).
The load average before and after is printed with the table.
"""
import argparse
import os
import re
import resource
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
VENV = os.path.join(ROOT, ".venv")
VENV_PYTHON = os.path.join(VENV, "bin", "python")
# The NumPy the recorded runs used (docs/BENCHMARKS.md), installed when the running Python has
# none.
NUMPY_PIN = "numpy==2.4.6"


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(cmd, env=None):
    cpu0, t0 = children_cpu(), time.perf_counter()
    out = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    wall, cpu = time.perf_counter() - t0, children_cpu() - cpu0
    if out.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{out.stderr}")
    return out.stdout + out.stderr, wall, cpu


def import_numpy():
    """NumPy, from this Python if it has it; otherwise NumPy (NUMPY_PIN) is installed into the
    project's virtual environment (.venv/, made by scripts/setup.sh) and this script runs again
    under it, so that no system Python (which Debian does not let pip change) is touched."""
    try:
        import numpy

        return numpy
    except ImportError:
        pass
    # A virtual environment's python is a link to the base interpreter: compare the prefixes.
    if os.path.realpath(sys.prefix) == os.path.realpath(VENV):
        sys.exit(f"compare.py: NumPy is missing from {VENV_PYTHON} after installing it")
    if not os.path.exists(VENV_PYTHON):
        sys.exit(
            "compare.py: this Python has no NumPy and .venv/ does not exist: run "
            "scripts/setup.sh first (it creates .venv/), or run this script with a Python "
            "that has NumPy"
        )
    print(f"compare.py: installing {NUMPY_PIN} into .venv/", file=sys.stderr)
    subprocess.run(
        [VENV_PYTHON, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", NUMPY_PIN],
        check=True,
    )
    os.execv(VENV_PYTHON, [VENV_PYTHON, os.path.abspath(__file__)] + sys.argv[1:])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--trials", type=int, default=100_000)
    ap.add_argument("--loop-trials", type=int, default=None)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=1, help="runs of each implementation")
    args = ap.parse_args()
    loop_trials = args.loop_trials or args.trials

    numpy = import_numpy()
    subprocess.run(["cargo", "build", "--release", "-p", "rtl-gen"], cwd=ROOT, check=True)

    rtl_gen = os.path.join(ROOT, "target", "release", "rtl-gen")
    common = ["--trials", str(args.trials), "--seed", str(args.seed)]
    sim = [rtl_gen, "congestion", "--quiet"] + common
    numpy_py = [sys.executable, os.path.join(HERE, "numpy_table2.py"), "--seed", str(args.seed)]
    one = dict(os.environ, RAYON_NUM_THREADS="1")
    threads = re.search(r"on (\d+) threads", timed(sim + ["--w", "16"])[0]).group(1)
    runs = [
        (f"rtl-gen congestion ({threads} threads)", sim, None, args.trials),
        ("rtl-gen congestion (1 thread)", sim, one, args.trials),
        (
            "NumPy, vectorised over trials (batch)",
            numpy_py + ["--mode", "batch", "--trials", str(args.trials)],
            None,
            args.trials,
        ),
        (
            "NumPy, first vectorised peer (batch-plain)",
            numpy_py + ["--mode", "batch-plain", "--trials", str(args.trials)],
            None,
            args.trials,
        ),
        (
            "NumPy, one trial at a time (loop)",
            numpy_py + ["--mode", "loop", "--trials", str(loop_trials)],
            None,
            loop_trials,
        ),
    ]

    load_before = os.getloadavg()
    best = [(float("inf"), float("inf"))] * len(runs)
    for r in range(args.repeat):
        for i, (name, cmd, env, _) in enumerate(runs):
            out, wall, cpu = timed(cmd, env=env)
            if r == 0 and i != 1:
                print(out)
            best[i] = (min(best[i][0], wall), min(best[i][1], cpu))
    load_after = os.getloadavg()

    rows = [(name, 60 * trials, wall, cpu) for (name, _, _, trials), (wall, cpu) in zip(runs, best)]
    base_rate = rows[0][1] / rows[0][2]
    base_cpu_rate = rows[0][1] / rows[0][3]
    one_cpu_rate = rows[1][1] / rows[1][3]
    print(
        f"Table II run, {args.trials} trials per cell, seed {args.seed}, {os.cpu_count()} CPUs, "
        f"NumPy {numpy.__version__}, Python {sys.version.split()[0]}, fastest of {args.repeat}; "
        "load average (1, 5, 15 min) before "
        + ", ".join(f"{x:.2f}" for x in load_before)
        + ", after "
        + ", ".join(f"{x:.2f}" for x in load_after)
        + "\n"
    )
    print(
        "| implementation | warp accesses | wall s | CPU s | warp accesses/s "
        f"| rtl-gen ({threads} threads) faster by (wall) | (per CPU s) "
        "| rtl-gen (1 thread) faster per CPU s |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, warps, wall, cpu in rows:
        rate, cpu_rate = warps / wall, warps / cpu
        print(
            f"| {name} | {warps} | {wall:.2f} | {cpu:.2f} | {rate / 1e6:.3f} M "
            f"| {base_rate / rate:.1f}x | {base_cpu_rate / cpu_rate:.1f}x "
            f"| {one_cpu_rate / cpu_rate:.1f}x |"
        )


if __name__ == "__main__":
    main()
