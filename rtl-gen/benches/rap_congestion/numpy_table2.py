#!/usr/bin/env python3
"""The RAP paper's Table II run (RAW, RAS, RAP x contiguous, stride, diagonal, random x
w = 16..256) as a NumPy Monte Carlo, for comparison with `rtl-gen congestion`.

Three implementations of the same trials (one trial = draw the layout's shifts and one warp of the
pattern, count the DMM congestion: the most distinct addresses in one bank):

  --mode batch        vectorised over batches of trials, written for speed: int32 arrays,
                      batches of about 2^16 warp elements (--batch 0), a mask instead of `% w`
                      when w is a power of two, no gather where the rows are 0..w-1, only the
                      one row's shift drawn for the contiguous access (as rtl-gen draws), and
                      duplicates merged (a sort of each warp's addresses) only for the random
                      access, the one pattern that can touch an element twice
  --mode batch-plain  vectorised over batches of 2000 trials (int64, every warp sorted to merge
                      duplicates): the first vectorised peer, kept to compare with earlier figures
  --mode loop         one trial at a time with NumPy operations: the direct transcription

Prints a table of mean congestions, then one line:
  numpy-<mode>: <cells> cells, <warps> warp accesses in <s> s (cpu <s> s): <M/s> M warp accesses/s
"""
import argparse
import time

import numpy as np

SCHEMES = ("raw", "ras", "rap")
PATTERNS = ("contiguous", "stride", "diagonal", "random")


def wrap(x, w):
    """x mod w in place, for x in 0..2w (or any x when w is not a power of two)."""
    if w & (w - 1) == 0:
        return np.bitwise_and(x, w - 1, out=x)
    return np.remainder(x, w, out=x)


def max_count(banks, b, w):
    """Sum over b warps of the largest count of one bank (banks: (b, n) or a flat array of
    bank + w * warp)."""
    if banks.ndim == 2:
        banks = (banks + (w * np.arange(b, dtype=banks.dtype))[:, None]).ravel()
    counts = np.bincount(banks, minlength=b * w).reshape(b, w)
    return int(counts.max(axis=1).sum())


def congestion_fast(rng, scheme, pattern, b, w):
    """Sum of the congestions of b trials (--mode batch)."""
    dt = np.int32
    t = np.arange(w, dtype=dt)
    if pattern == "contiguous":
        # One row: its shift is all the layout the warp needs (an entry of a uniformly random
        # permutation is uniform, as a RAS shift is).
        rng.integers(0, w, size=(b, 1), dtype=dt)  # the row, drawn as rtl-gen draws it
        if scheme == "raw":
            return max_count(np.broadcast_to(t, (b, w)), b, w)
        return max_count(wrap(t + rng.integers(0, w, size=(b, 1), dtype=dt), w), b, w)
    if scheme == "raw":
        shifts = None
    elif scheme == "ras":
        shifts = rng.integers(0, w, size=(b, w), dtype=dt)
    else:
        shifts = rng.permuted(np.tile(t, (b, 1)), axis=1)
    if pattern in ("stride", "diagonal"):
        c = rng.integers(0, w, size=(b, 1), dtype=dt)
        cols = c if pattern == "stride" else wrap(c + t, w)
        banks = np.broadcast_to(cols, (b, w)) if shifts is None else wrap(cols + shifts, w)
    else:
        rows = rng.integers(0, w, size=(b, w), dtype=dt)
        cols = rng.integers(0, w, size=(b, w), dtype=dt)
        banks = cols if shifts is None else wrap(cols + np.take_along_axis(shifts, rows, axis=1), w)
        addrs = np.sort(rows * w + banks, axis=1)
        first = np.empty((b, w), dtype=bool)
        first[:, 0] = True
        np.not_equal(addrs[:, 1:], addrs[:, :-1], out=first[:, 1:])  # identical addresses merge
        flat = wrap(addrs, w) + (w * np.arange(b, dtype=dt))[:, None]
        return max_count(flat[first], b, w)
    return max_count(banks, b, w)


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
    """Sum of the congestions of b trials (--mode batch-plain)."""
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
    ap.add_argument("--mode", choices=("batch", "batch-plain", "loop"), default="batch")
    ap.add_argument(
        "--batch",
        type=int,
        default=0,
        help="trials per vectorised batch (0: 2^16 / w for batch, 2000 for batch-plain)",
    )
    args = ap.parse_args()
    ws = [int(x) for x in args.w.split(",")]
    rng = np.random.default_rng(args.seed)
    means = {}
    start, cpu = time.perf_counter(), time.process_time()
    for scheme in SCHEMES:
        for pattern in PATTERNS:
            for w in ws:
                total = 0
                if args.mode != "loop":
                    step, batch = {
                        "batch": (congestion_fast, max(1, 2**16 // w)),
                        "batch-plain": (congestion_batch, 2000),
                    }[args.mode]
                    batch = args.batch or batch
                    done = 0
                    while done < args.trials:
                        b = min(batch, args.trials - done)
                        total += step(rng, scheme, pattern, b, w)
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
