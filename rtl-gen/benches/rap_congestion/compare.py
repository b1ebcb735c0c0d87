#!/usr/bin/env python3
"""Side by side: the Table II Monte Carlo run by `rtl-gen congestion` and by the NumPy
implementations of numpy_table2.py, each timed on the same machine in one run.

Usage (from the repository root):
  python3 rtl-gen/benches/rap_congestion/compare.py [--trials 100000] [--loop-trials 100000]

Builds rtl-gen in release mode, installs numpy with pip if it is missing, then runs
  1. rtl-gen congestion (all threads; RAYON_NUM_THREADS is honoured),
  2. rtl-gen congestion with RAYON_NUM_THREADS=1,
  3. numpy_table2.py --mode batch (vectorised over batches of trials),
  4. numpy_table2.py --mode loop (one trial at a time),
and prints a Markdown table: warp accesses, wall and CPU seconds, warp accesses per second, and
each implementation's speed relative to rtl-gen (wall clock and per CPU second). Every run does
the same 60 cells (RAW/RAS/RAP x contiguous/stride/diagonal/random x w = 16..256) with the same
trial count (--loop-trials may lower the loop's, which is slow; its rate is per warp access).
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--trials", type=int, default=100_000)
    ap.add_argument("--loop-trials", type=int, default=None)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    loop_trials = args.loop_trials or args.trials

    subprocess.run(["cargo", "build", "--release", "-p", "rtl-gen"], cwd=ROOT, check=True)
    try:
        import numpy  # noqa: F401
    except ImportError:
        subprocess.run([sys.executable, "-m", "pip", "install", "numpy"], check=True)
    rtl_gen = os.path.join(ROOT, "target", "release", "rtl-gen")
    common = ["--trials", str(args.trials), "--seed", str(args.seed)]
    sim = [rtl_gen, "congestion", "--quiet"] + common
    numpy_py = [sys.executable, os.path.join(HERE, "numpy_table2.py"), "--seed", str(args.seed)]

    rows = []
    out, wall, cpu = timed(sim)
    threads = re.search(r"on (\d+) threads", out).group(1)
    rows.append((f"rtl-gen congestion ({threads} threads)", 60 * args.trials, wall, cpu))
    print(out)
    one = dict(os.environ, RAYON_NUM_THREADS="1")
    out, wall, cpu = timed(sim, env=one)
    rows.append(("rtl-gen congestion (1 thread)", 60 * args.trials, wall, cpu))
    out, wall, cpu = timed(numpy_py + ["--mode", "batch", "--trials", str(args.trials)])
    print(out)
    rows.append(("NumPy, vectorised over trials (batch)", 60 * args.trials, wall, cpu))
    out, wall, cpu = timed(numpy_py + ["--mode", "loop", "--trials", str(loop_trials)])
    print(out)
    rows.append(("NumPy, one trial at a time (loop)", 60 * loop_trials, wall, cpu))

    base_rate = rows[0][1] / rows[0][2]
    base_cpu_rate = rows[0][1] / rows[0][3]
    print(f"Table II run, {args.trials} trials per cell, seed {args.seed}, {os.cpu_count()} CPUs\n")
    print("| implementation | warp accesses | wall s | CPU s | warp accesses/s | rtl-gen is faster by (wall) | (per CPU s) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, warps, wall, cpu in rows:
        rate, cpu_rate = warps / wall, warps / cpu
        print(
            f"| {name} | {warps} | {wall:.2f} | {cpu:.2f} | {rate / 1e6:.3f} M "
            f"| {base_rate / rate:.1f}x | {base_cpu_rate / cpu_rate:.1f}x |"
        )


if __name__ == "__main__":
    main()
