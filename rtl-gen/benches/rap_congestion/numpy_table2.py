#!/usr/bin/env python3
"""The RAP paper's Table II run (RAW, RAS, RAP x contiguous, stride, diagonal, random x
w = 16..256) as a straightforward NumPy Monte Carlo, for comparison with `rtl-gen congestion`.

Two implementations of the same trials (one trial = draw the layout's shifts and one warp of the
pattern, count the DMM congestion: the most distinct addresses in one bank):

  --mode batch  vectorised over batches of trials: what a NumPy user writes for speed
  --mode loop   one trial at a time with NumPy operations: the direct transcription

Prints a table of mean congestions, then one line:
  numpy-<mode>: <cells> cells, <warps> warp accesses in <s> s (cpu <s> s): <M/s> M warp accesses/s
"""
import argparse
import time

import numpy as np

SCHEMES = ("raw", "ras", "rap")
PATTERNS = ("contiguous", "stride", "diagonal", "random")


def shifts_batch(rng, scheme, b, w):
    if scheme == "raw":
        return np.zeros((b, w), dtype=np.int64)
    if scheme == "ras":
        return rng.integers(0, w, size=(b, w))
    return rng.permuted(np.tile(np.arange(w), (b, 1)), axis=1)


def access_batch(rng, pattern, b, w):
    t = np.arange(w)
    if pattern == "contiguous":
        rows = np.repeat(rng.integers(0, w, size=(b, 1)), w, axis=1)
        cols = np.tile(t, (b, 1))
    elif pattern == "stride":
        rows = np.tile(t, (b, 1))
        cols = np.repeat(rng.integers(0, w, size=(b, 1)), w, axis=1)
    elif pattern == "diagonal":
        rows = np.tile(t, (b, 1))
        cols = (rng.integers(0, w, size=(b, 1)) + t) % w
    else:
        rows = rng.integers(0, w, size=(b, w))
        cols = rng.integers(0, w, size=(b, w))
    return rows, cols


def congestion_batch(rng, scheme, pattern, b, w):
    """Sum of the congestions of b trials."""
    shifts = shifts_batch(rng, scheme, b, w)
    rows, cols = access_batch(rng, pattern, b, w)
    banks = (cols + np.take_along_axis(shifts, rows, axis=1)) % w
    addrs = rows * w + banks
    order = np.argsort(addrs, axis=1)
    addrs = np.take_along_axis(addrs, order, axis=1)
    banks = np.take_along_axis(banks, order, axis=1)
    first = np.ones((b, w), dtype=bool)
    first[:, 1:] = addrs[:, 1:] != addrs[:, :-1]  # identical addresses merge
    flat = (banks + w * np.arange(b)[:, None])[first]
    counts = np.bincount(flat, minlength=b * w).reshape(b, w)
    return int(counts.max(axis=1).sum())


def congestion_one(rng, scheme, pattern, w):
    """The congestion of one trial."""
    if scheme == "raw":
        shifts = np.zeros(w, dtype=np.int64)
    elif scheme == "ras":
        shifts = rng.integers(0, w, size=w)
    else:
        shifts = rng.permutation(w)
    t = np.arange(w)
    if pattern == "contiguous":
        rows, cols = np.full(w, rng.integers(0, w)), t
    elif pattern == "stride":
        rows, cols = t, np.full(w, rng.integers(0, w))
    elif pattern == "diagonal":
        rows, cols = t, (rng.integers(0, w) + t) % w
    else:
        rows, cols = rng.integers(0, w, size=w), rng.integers(0, w, size=w)
    banks = (cols + shifts[rows]) % w
    addrs = np.unique(rows * w + banks)
    return int(np.bincount(addrs % w, minlength=w).max())


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--w", default="16,32,64,128,256")
    ap.add_argument("--trials", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mode", choices=("batch", "loop"), default="batch")
    ap.add_argument("--batch", type=int, default=2000, help="trials per vectorised batch")
    args = ap.parse_args()
    ws = [int(x) for x in args.w.split(",")]
    rng = np.random.default_rng(args.seed)
    means = {}
    start, cpu = time.perf_counter(), time.process_time()
    for scheme in SCHEMES:
        for pattern in PATTERNS:
            for w in ws:
                total = 0
                if args.mode == "batch":
                    done = 0
                    while done < args.trials:
                        b = min(args.batch, args.trials - done)
                        total += congestion_batch(rng, scheme, pattern, b, w)
                        done += b
                else:
                    for _ in range(args.trials):
                        total += congestion_one(rng, scheme, pattern, w)
                means[(scheme, pattern, w)] = total / args.trials
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    for scheme in SCHEMES:
        print(f"{scheme.upper()} (numpy {args.mode}, {args.trials} trials): mean congestion")
        print("pattern     " + "".join(f"{'w=' + str(w):>9}" for w in ws))
        for pattern in PATTERNS:
            print(f"{pattern:<12}" + "".join(f"{means[(scheme, pattern, w)]:>9.3f}" for w in ws))
        print()
    cells = len(means)
    warps = cells * args.trials
    print(
        f"numpy-{args.mode}: {cells} cells, {warps} warp accesses in {seconds:.2f} s "
        f"(cpu {cpu:.2f} s): {warps / seconds / 1e6:.4f} M warp accesses/s"
    )


if __name__ == "__main__":
    main()
