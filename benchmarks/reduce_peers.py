"""The reduction benchmarks of issue 5, for any array library, one process per library: sum of
2^28 float32, sum(axis=0) and sum(axis=1) of the same values as a 16384² array, the product
sum (a*b).sum() (vkarray fuses it into one kernel; CuPy and PyTorch write a*b first), max,
argmax, and a plain copy as the bandwidth limit. One JSON object per measurement.

usage: python3 reduce_peers.py LIB [LIB ...]   (LIB: numpy, cupy, torch, vkarray)
CuPy and PyTorch times come from CUDA events; vkarray's from the wall clock with a
synchronization inside the region (its GPU-timestamp figures come from benchmarks/reduce.cc);
numpy's from the wall clock."""

import os
import sys

import numpy as np

from peers import cupy_ms, main, report, torch_ms, vkarray_ms, wall_ms

N = int(os.environ.get("VKA_BENCH_N", 2**28))
SIDE = int(os.environ.get("VKA_BENCH_SIDE", 16384))
RUNS = int(os.environ.get("VKA_BENCH_RUNS", 20))


def host_data():
    rng = np.random.default_rng(1)
    return rng.random(N, dtype=np.float32), rng.random(N, dtype=np.float32)


def cases(a, b):
    A = a.reshape(N // SIDE, SIDE)
    return [("copy of a", lambda: a.copy()), ("sum(a)", lambda: a.sum()),
            ("sum(a*b)", lambda: (a * b).sum()), ("sum(A, axis=0)", lambda: A.sum(axis=0)),
            ("sum(A, axis=1)", lambda: A.sum(axis=1)), ("max(a)", lambda: a.max()),
            ("argmax(a)", lambda: a.argmax())]


def bench_cupy():
    import cupy as cp
    a, b = (cp.asarray(v) for v in host_data())
    for name, fn in cases(a, b):
        report("cupy", name, cupy_ms(fn, RUNS), "ms")


def bench_torch():
    import torch
    a, b = (torch.from_numpy(v).cuda() for v in host_data())
    for name, fn in cases(a, b):
        if name == "copy of a":
            fn = a.clone
        report("torch", name, torch_ms(fn, RUNS), "ms")


def bench_vkarray():
    import vkarray as vk
    ha, hb = host_data()
    a, b = vk.asarray(ha), vk.asarray(hb)


    for name, fn in cases(a, b):
        k0 = vk.kernel_count()
        fn().eval()
        vk.synchronize()
        kernels = vk.kernel_count() - k0
        report("vkarray", name + " (wall clock)", vkarray_ms(lambda: fn().eval(), RUNS), "ms",
               kernels=kernels)
    got = float(vk.sum(a * b))
    want = float(np.dot(ha.astype(np.float64), hb.astype(np.float64)))
    assert abs(got - want) <= 1e-5 * want, ("vkarray sum(a*b) is wrong", got, want)


def bench_numpy():
    a, b = host_data()
    for name, fn in cases(a, b):
        report("numpy", name, wall_ms(fn, runs=5), "ms")


if __name__ == "__main__":
    main(globals(), sys.argv[1:])
