"""The counting benchmark for any array library, one process per library: bincount of 2^26
int64 values in [0, 1000) without and with float64 weights, and a 100-bin histogram of as many
float64 normals without and with float64 weights (PyTorch: unweighted only, torch.histc). Prints one JSON object per measurement (library, name,
median, unit, runs).

usage: python3 counting_peers.py LIB [LIB ...]   (LIB: numpy, cupy, torch, vkarray)
CuPy and PyTorch times come from CUDA events; vkarray's and numpy's from the wall clock (each
vkarray bincount reads the values' range back, so each call waits anyway)."""

import os
import sys

import numpy as np

from peers import cupy_ms, main, report, torch_ms, vkarray_ms, wall_ms

N = int(os.environ.get("VKA_BENCH_COUNT_N", 2**26))
RUNS = int(os.environ.get("VKA_BENCH_RUNS", 10))
SIZE = "2^26" if N == 2**26 else str(N)


def host_data():
    rng = np.random.default_rng(7)
    return rng.integers(0, 1000, N), rng.random(N), rng.standard_normal(N)


def cases(xp, x, w, s):
    return [(f"bincount of {SIZE} int64", lambda: xp.bincount(x)),
            (f"bincount of {SIZE} int64 with float64 weights", lambda: xp.bincount(x, w)),
            (f"histogram of {SIZE} float64, 100 bins", lambda: xp.histogram(s, 100, (-4, 4))[0]),
            (f"histogram of {SIZE} float64, 100 bins, float64 weights",
             lambda: xp.histogram(s, 100, (-4, 4), weights=w)[0])]


def bench_cupy():
    import cupy as cp
    for name, fn in cases(cp, *map(cp.asarray, host_data())):
        report("cupy", name, cupy_ms(fn, RUNS), "ms")


def bench_torch():
    import torch
    x, w, s = (torch.from_numpy(a).cuda() for a in host_data())
    report("torch", f"bincount of {SIZE} int64", torch_ms(lambda: torch.bincount(x), RUNS), "ms")
    report("torch", f"bincount of {SIZE} int64 with float64 weights",
           torch_ms(lambda: torch.bincount(x, w), RUNS), "ms")
    report("torch", f"histogram of {SIZE} float64, 100 bins",
           torch_ms(lambda: torch.histc(s, 100, -4, 4), RUNS), "ms", note="torch.histc")


def bench_vkarray():
    import vkarray as vk
    h = host_data()
    for name, fn in cases(vk, *map(vk.asarray, h)):
        report("vkarray", name + " (wall clock)", vkarray_ms(lambda: fn().eval(), RUNS), "ms")
    x, w, s = h
    got = vk.histogram(vk.asarray(s), 100, (-4, 4), weights=vk.asarray(w))[0].get()
    assert np.allclose(got, np.histogram(s, 100, (-4, 4), weights=w)[0], rtol=1e-12, atol=0), \
        "vkarray weighted histogram gave wrong sums"
    # Bins of more than 4096 values sum in a fixed tree of blocks, not in numpy's order.
    assert np.allclose(vk.bincount(vk.asarray(x), vk.asarray(w)).get(), np.bincount(x, w),
                       rtol=1e-12, atol=0), \
        "vkarray bincount gave wrong sums"


def bench_numpy():
    x, w, s = host_data()
    for name, fn in cases(np, x, w, s):
        report("numpy", name + " (CPU, wall clock)", wall_ms(fn, runs=3), "ms")


if __name__ == "__main__":
    main(globals(), sys.argv[1:])
