"""The indexing benchmarks of issue 4, for any array library, one process per library:
a strided slice feeding an elementwise op (`A[::2, 1::2] + 1`, 16384² float32), one jacobi-2d
step written with slices and assignment (8192² float32), a gather of 2^26 random int32 indices
from 2^28 float32 elements (`take`), and a plain copy of each array as the bandwidth limit.
Prints one JSON object per measurement (library, name, median, unit, runs).

usage: python3 indexing_peers.py LIB [LIB ...]   (LIB: numpy, cupy, torch, vkarray)
CuPy and PyTorch times come from CUDA events; vkarray's from the wall clock with a
synchronization inside the region (its GPU-timestamp figures come from benchmarks/indexing.cc);
numpy's from the wall clock."""

import json
import os
import sys

import numpy as np

from peers import cupy_ms, main, report, torch_ms, vkarray_ms, wall_ms

SIDE = int(os.environ.get("VKA_BENCH_SIDE", 16384))
JSIDE = int(os.environ.get("VKA_BENCH_JSIDE", 8192))
GSRC = int(os.environ.get("VKA_BENCH_GSRC", 2**28))
GN = int(os.environ.get("VKA_BENCH_GN", 2**26))
RUNS = int(os.environ.get("VKA_BENCH_RUNS", 20))


def jacobi_step(A, B):
    B[1:-1, 1:-1] = 0.2 * (A[1:-1, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:] + A[2:, 1:-1] +
                           A[:-2, 1:-1])


def host_data():
    rng = np.random.default_rng(1)
    a = rng.random((SIDE, SIDE), dtype=np.float32)
    ja = rng.random((JSIDE, JSIDE), dtype=np.float32)
    jb = rng.random((JSIDE, JSIDE), dtype=np.float32)
    x = rng.random(GSRC, dtype=np.float32)
    idx = rng.integers(0, GSRC, GN, dtype=np.int32)
    return a, ja, jb, x, idx


def bench_cupy():
    import cupy as cp
    a, ja, jb, x, idx = (cp.asarray(v) for v in host_data())

    def timed(fn):
        return cupy_ms(fn, RUNS)
    report("cupy", "copy of the 16384² array", timed(lambda: a.copy()), "ms")
    report("cupy", "A[::2, 1::2] + 1", timed(lambda: a[::2, 1::2] + 1), "ms")
    report("cupy", "copy of the 8192² array", timed(lambda: ja.copy()), "ms")
    report("cupy", "jacobi-2d step", timed(lambda: jacobi_step(ja, jb)), "ms")
    report("cupy", "take(x, idx)", timed(lambda: cp.take(x, idx)), "ms")


def bench_torch():
    import torch
    a, ja, jb, x, idx = (torch.from_numpy(v).cuda() for v in host_data())
    idx64 = idx.long()

    def timed(fn):
        return torch_ms(fn, RUNS)
    report("torch", "copy of the 16384² array", timed(lambda: a.clone()), "ms")
    report("torch", "A[::2, 1::2] + 1", timed(lambda: a[::2, 1::2] + 1), "ms")
    report("torch", "copy of the 8192² array", timed(lambda: ja.clone()), "ms")
    report("torch", "jacobi-2d step", timed(lambda: jacobi_step(ja, jb)), "ms")
    report("torch", "take(x, idx)", timed(lambda: torch.take(x, idx64)), "ms",
           note="int64 indices (torch.take takes no int32)")
    report("torch", "x[idx]", timed(lambda: x[idx]), "ms")
    try:
        step = torch.compile(jacobi_step)
        report("torch", "jacobi-2d step (torch.compile)", timed(lambda: step(ja, jb)), "ms")
    except Exception as e:  # torch.compile needs a working compiler toolchain
        print(json.dumps({"lib": "torch", "name": "jacobi-2d step (torch.compile)",
                          "error": f"{type(e).__name__}: {e}"[:300]}), flush=True)


def bench_vkarray():
    import vkarray as vk
    ha, hja, hjb, hx, hidx = host_data()
    a, ja, jb, x, idx = (vk.asarray(v) for v in (ha, hja, hjb, hx, hidx))
    jb[0].eval()  # jb becomes storage: assignment writes it in place

    def timed(fn):
        return vkarray_ms(fn, RUNS)

    def counted(fn):
        k0 = vk.kernel_count()
        fn()
        vk.synchronize()
        return vk.kernel_count() - k0
    view = a[::2, 1::2]
    report("vkarray", "copy of the 16384² array (wall clock)", timed(lambda: a.copy().eval()),
           "ms")
    report("vkarray", "A[::2, 1::2] + 1 (wall clock)", timed(lambda: (view + 1).eval()), "ms",
           kernels=counted(lambda: (view + 1).eval()))
    report("vkarray", "jacobi-2d step (wall clock)", timed(lambda: jacobi_step(ja, jb)), "ms",
           kernels=counted(lambda: jacobi_step(ja, jb)))
    report("vkarray", "take(x, idx) incl. bounds check (wall clock)",
           timed(lambda: vk.take(x, idx).eval()), "ms")
    got = vk.take(x, idx).get()
    assert np.array_equal(got, hx[hidx]), "vkarray take gave wrong values"


def bench_numpy():
    a, ja, jb, x, idx = host_data()

    def timed(fn):
        return wall_ms(fn, runs=5)
    report("numpy", "A[::2, 1::2] + 1 (CPU, wall clock)", timed(lambda: a[::2, 1::2] + 1), "ms")
    report("numpy", "jacobi-2d step (CPU, wall clock)", timed(lambda: jacobi_step(ja, jb)), "ms")
    report("numpy", "take(x, idx) (CPU, wall clock)", timed(lambda: np.take(x, idx)), "ms")


if __name__ == "__main__":
    main(globals(), sys.argv[1:])
