#!/usr/bin/env python3
"""Side by side, in one run: rtl_gen's vectorised calls, the same functions written in NumPy the
way a user would, and the rtl-gen CLI doing the same work per element.

Usage (from the repository root, after scripts/setup.sh):
  .venv/bin/python python/bench/compare.py [--addresses 100000000] [--warps 1000000]
      [--cli-warps 100000] [--repeat 3] [--cli PATH]

1. The bank of --addresses random 14-bit word addresses under the XOR paper's bitvector-xor
   hash (k1 = 2, k2 = 8, mask = 7, 32 banks) and under a 5 x 14 xor-matrix:
   `Hasher.bank(a)` against `((a >> 2) ^ ((a >> 8) & 7)) & 31` and, for the matrix, the parity
   of `a & row` per row (np.bitwise_count); the CLI: `rtl-gen search --kind bitvector-xor
   --heuristic fixed` on a trace of --cli-warps warp accesses, which computes the bank of every
   address of the trace (and each access's congestion).
2. The H100 wavefronts of --warps random warp accesses of 16-byte loads (32 threads, vectors
   drawn from a 64 x 64 tile of halves): `rtl_gen.wavefronts(offsets, width=16)` against the
   same rule in NumPy (quarter-warps, or half-warps when every thread pair reads one vector;
   per group, the most distinct vectors in one bank group); the CLI: `rtl-gen swizzle check
   --layout none --trace` on --cli-warps of them.

Each is run --repeat times and its fastest run kept (wall time; CPU time of this process and its
children). Results must agree: the script stops if rtl_gen and NumPy differ anywhere. Prints a
Markdown table with the load average before and after.
"""
import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

import numpy as np

import rtl_gen

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CLI = os.path.join(ROOT, "target", "release", "rtl-gen")  # built by main() unless --cli names one


def cpu():
    s = resource.getrusage(resource.RUSAGE_SELF)
    c = resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime


def best_of(repeat, f):
    """(result, wall seconds, CPU seconds) of the fastest of `repeat` runs."""
    best = None
    for _ in range(repeat):
        c0, t0 = cpu(), time.perf_counter()
        out = f()
        wall, used = time.perf_counter() - t0, cpu() - c0
        if best is None or wall < best[1]:
            best = (out, wall, used)
    return best


def numpy_bvxor(a):
    return ((a >> np.uint64(2)) ^ ((a >> np.uint64(8)) & np.uint64(7))) & np.uint64(31)


ROWS = [0x21, 0x42, 0x84, 0x1108, 0x2210]


def numpy_matrix(a):
    bank = np.zeros_like(a)
    for i, row in enumerate(ROWS):
        bank |= (np.bitwise_count(a & np.uint64(row)).astype(np.uint64) & np.uint64(1)) << np.uint64(i)
    return bank


def numpy_wavefronts(offsets):
    """The H100 rule for 16-byte loads (docs/SWIZZLE.md) over a (warps, 32) array."""
    vec = offsets // 16
    paired = np.all(vec[:, 0::2] == vec[:, 1::2], axis=1)

    def passes(group_size):
        g = vec.reshape(len(vec), 32 // group_size, group_size)
        s = np.sort(g, axis=2)
        distinct = np.ones_like(s, dtype=bool)
        distinct[:, :, 1:] = s[:, :, 1:] != s[:, :, :-1]
        bank_group = s % 8  # a 16-byte vector fills 4 of the 32 banks: 8 bank groups
        counts = ((bank_group[..., None] == np.arange(8)) & distinct[..., None]).sum(axis=2)
        return counts.max(axis=2).sum(axis=1)

    return np.where(paired, passes(16), passes(8))


def trace_file(rows, folder, name):
    path = os.path.join(folder, name)
    with open(path, "w") as f:
        for i, row in enumerate(rows):
            f.write(f"w{i} " + " ".join(map(str, row)) + "\n")
    return path


def cli(args):
    p = subprocess.run([CLI, *args], cwd=ROOT, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"rtl-gen {' '.join(args)} failed:\n{p.stderr}")
    return p.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--addresses", type=int, default=10**8)
    ap.add_argument("--warps", type=int, default=10**6)
    ap.add_argument("--cli-warps", type=int, default=10**5)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--cli", help="a release rtl-gen binary (default: build target/release/rtl-gen)")
    args = ap.parse_args()
    global CLI
    if args.cli:
        CLI = os.path.abspath(args.cli)
    else:
        subprocess.run(["cargo", "build", "--release", "--quiet", "-p", "rtl-gen"], cwd=ROOT, check=True)
    load_before = os.getloadavg()
    rng = np.random.default_rng(1)
    rows = []

    a = rng.integers(0, 1 << 14, size=args.addresses, dtype=np.uint64)
    bv = rtl_gen.Hasher(kind="bitvector-xor", addr_bits=14, banks=32, k1=2, k2=8, mask=7)
    mx = rtl_gen.Hasher(kind="xor-matrix", addr_bits=14, banks=32, rows=ROWS)
    for name, hasher, peer in [("bank, bitvector-xor", bv, numpy_bvxor), ("bank, xor-matrix", mx, numpy_matrix)]:
        ours = best_of(args.repeat, lambda: hasher.bank(a))
        theirs = best_of(args.repeat, lambda: peer(a))
        if not np.array_equal(ours[0], theirs[0]):
            sys.exit(f"{name}: rtl_gen and NumPy differ")
        rows.append((name, "rtl_gen", args.addresses, ours[1], ours[2]))
        rows.append((name, "NumPy", args.addresses, theirs[1], theirs[2]))

    tile_vectors = 64 * 64 * 2 // 16
    offsets = rng.integers(0, tile_vectors, size=(args.warps, 32), dtype=np.uint64) * np.uint64(16)
    ours = best_of(args.repeat, lambda: rtl_gen.wavefronts(offsets, width=16))
    theirs = best_of(args.repeat, lambda: numpy_wavefronts(offsets))
    if not np.array_equal(ours[0], theirs[0]):
        sys.exit("wavefronts: rtl_gen and NumPy differ")
    rows.append(("wavefronts, 16-byte loads", "rtl_gen", args.warps, ours[1], ours[2]))
    rows.append(("wavefronts, 16-byte loads", "NumPy", args.warps, theirs[1], theirs[2]))

    with tempfile.TemporaryDirectory() as tmp:
        addrs = a[: args.cli_warps * 32].reshape(args.cli_warps, 32)
        path = trace_file(addrs, tmp, "banks.trace")
        search = ["search", "--trace", path, "--addr-bits", "14", "--banks", "32", "--kind",
                  "bitvector-xor", "--heuristic", "fixed", "--out", os.path.join(tmp, "s"),
                  "--quiet", "--force", "--json"]
        t = best_of(args.repeat, lambda: cli(search))
        rows.append(("bank, bitvector-xor", "CLI (`search --heuristic fixed`, with congestion)",
                     args.cli_warps * 32, t[1], t[2]))
        elements = offsets[: args.cli_warps] // np.uint64(2)
        path = trace_file(elements, tmp, "vectors.trace")
        check = ["swizzle", "check", "--layout", "none", "--tile", "64x64", "--elem-bytes", "2",
                 "--access", "rows", "--trace", path, "--json"]
        t = best_of(args.repeat, lambda: cli(check))
        # The CLI also scores stores and the 16 row accesses; both are small beside the trace.
        rows.append(("wavefronts, 16-byte loads", "CLI (`swizzle check --trace`, loads and stores)",
                     args.cli_warps, t[1], t[2]))

    print(f"load average before: {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}; "
          f"after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {os.cpu_count()} CPUs")
    print("| function | implementation | elements | wall s | CPU s | elements / s (wall) | elements / CPU s |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for name, impl, n, wall, used in rows:
        print(f"| {name} | {impl} | {n} | {wall:.3f} | {used:.3f} | {n / wall:.3g} | {n / max(used, 1e-9):.3g} |")


if __name__ == "__main__":
    main()
