"""The sorting benchmark for any array library, one process per library: sort and argsort of
2^26 random float32 keys, and a copy of the same array as the bandwidth reference. Prints one
JSON object per measurement (library, name, median, unit, runs).

usage: python3 sorting_peers.py LIB [LIB ...]   (LIB: numpy, cupy, torch, vkarray)
CuPy and PyTorch times come from CUDA events; vkarray's and numpy's from the wall clock
(vkarray's radix sort reads back one small word per sort, so each call waits anyway; its C++
figures come from benchmarks/sorting.cc)."""

import os
import sys

import numpy as np

from peers import cupy_ms, main, report, torch_ms, vkarray_ms, wall_ms

N = int(os.environ.get("VKA_BENCH_SORT_N", 2**26))
RUNS = int(os.environ.get("VKA_BENCH_RUNS", 10))
SIZE = "2^26" if N == 2**26 else str(N)


def host_data():
    return np.random.default_rng(7).uniform(-1, 1, N).astype(np.float32)


def bench_cupy():
    import cupy as cp
    x = cp.asarray(host_data())

    def timed(fn):
        return cupy_ms(fn, RUNS)
    report("cupy", f"copy of {SIZE} float32", timed(lambda: x.copy()), "ms")
    report("cupy", f"sort of {SIZE} float32", timed(lambda: cp.sort(x)), "ms")
    report("cupy", f"argsort of {SIZE} float32", timed(lambda: cp.argsort(x)), "ms")


def bench_torch():
    import torch
    x = torch.from_numpy(host_data()).cuda()

    def timed(fn):
        return torch_ms(fn, RUNS)
    report("torch", f"copy of {SIZE} float32", timed(lambda: x.clone()), "ms")
    report("torch", f"sort of {SIZE} float32", timed(lambda: torch.sort(x)), "ms",
           note="torch.sort returns values and indices")
    report("torch", f"sort of {SIZE} float32 (stable=True)", timed(lambda: torch.sort(x, stable=True)),
           "ms")
    report("torch", f"argsort of {SIZE} float32", timed(lambda: torch.argsort(x)), "ms")


def bench_vkarray():
    import vkarray as vk
    h = host_data()
    x = vk.asarray(h)

    def timed(fn):
        return vkarray_ms(fn, RUNS)
    report("vkarray", f"copy of {SIZE} float32 (wall clock)", timed(lambda: x.copy().eval()), "ms")
    report("vkarray", f"sort of {SIZE} float32 (wall clock)", timed(lambda: vk.sort(x).eval()), "ms")
    report("vkarray", f"argsort of {SIZE} float32 (wall clock)",
           timed(lambda: vk.argsort(x).eval()), "ms")
    assert np.array_equal(vk.argsort(x).get(), np.argsort(h, kind="stable")), \
        "vkarray argsort gave wrong indices"


def bench_numpy():
    x = host_data()
    report("numpy", f"sort of {SIZE} float32 (CPU, wall clock)", wall_ms(lambda: np.sort(x), runs=3),
           "ms")
    report("numpy", f"argsort of {SIZE} float32 (CPU, wall clock)",
           wall_ms(lambda: np.argsort(x), runs=3), "ms")


if __name__ == "__main__":
    main(globals(), sys.argv[1:])
