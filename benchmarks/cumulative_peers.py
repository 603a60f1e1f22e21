"""cumsum of 2^28 float32 for any array library, one process per library, with a copy of the
same array as the bandwidth limit (2n elements moved: read n, write n). Prints one JSON object
per measurement (library, name, median, unit, runs); the GB/s of the C++ benchmark
(benchmarks/cumulative.cc) follow from the same byte count.

usage: python3 cumulative_peers.py LIB [LIB ...]   (LIB: numpy, cupy, torch, vkarray)
CuPy and PyTorch times come from CUDA events; vkarray's from the wall clock with a
synchronization inside the region (its GPU-timestamp figures come from
benchmarks/cumulative.cc); numpy's from the wall clock."""

import os
import sys

import numpy as np

from peers import cupy_ms, main, report, torch_ms, vkarray_ms, wall_ms

N = int(os.environ.get("VKA_BENCH_N", 2**28))
RUNS = int(os.environ.get("VKA_BENCH_RUNS", 20))
SIZE = "2^28" if N == 2**28 else str(N)


def host_data():
    return np.random.default_rng(1).uniform(-1, 1, N).astype(np.float32)


def gbs(values_ms):
    """GB/s of 2n float32 elements at the median time."""
    ms = sorted(values_ms)[len(values_ms) // 2]
    return round(8.0 * N / (ms * 1e-3) / 1e9, 1)


def bench_cupy():
    import cupy as cp
    x = cp.asarray(host_data())

    def timed(fn):
        return cupy_ms(fn, RUNS)
    copy = timed(lambda: x.copy())
    report("cupy", f"copy of {SIZE} float32", copy, "ms", gbs=gbs(copy))
    scan = timed(lambda: cp.cumsum(x))
    report("cupy", f"cumsum of {SIZE} float32", scan, "ms", gbs=gbs(scan))


def bench_torch():
    import torch
    x = torch.from_numpy(host_data()).cuda()

    def timed(fn):
        return torch_ms(fn, RUNS)
    copy = timed(lambda: x.clone())
    report("torch", f"copy of {SIZE} float32", copy, "ms", gbs=gbs(copy))
    scan = timed(lambda: torch.cumsum(x, 0))
    report("torch", f"cumsum of {SIZE} float32", scan, "ms", gbs=gbs(scan))


def bench_vkarray():
    import vkarray as vk
    h = host_data()
    x = vk.asarray(h)

    def timed(fn):
        return vkarray_ms(fn, RUNS)
    copy = timed(lambda: x.copy().eval())
    report("vkarray", f"copy of {SIZE} float32 (wall clock)", copy, "ms", gbs=gbs(copy))
    scan = timed(lambda: vk.cumsum(x).eval())
    report("vkarray", f"cumsum of {SIZE} float32 (wall clock)", scan, "ms", gbs=gbs(scan))
    got = vk.cumsum(x).get()
    want = np.cumsum(h.astype(np.float64))
    bound = (np.arange(N) + 1) * np.finfo(np.float32).eps * np.cumsum(np.abs(h), dtype=np.float64)
    assert (np.abs(got - want) <= bound).all(), "vkarray cumsum gave wrong values"


def bench_numpy():
    x = host_data()
    report("numpy", f"cumsum of {SIZE} float32 (CPU, wall clock)", wall_ms(lambda: np.cumsum(x),
                                                                        runs=5), "ms")


if __name__ == "__main__":
    main(globals(), sys.argv[1:])
