"""Random number generation for any array library, one process per library: 2^28 uniform
float32 (rng.random(n, dtype=float32), CuPy's default_rng().random, torch.rand), standard
normal float32, uniform float64, integers, and vkarray's fused `rng.random(n) * 2 + 1` and
`rng.standard_normal(n).sum()`. One JSON object per measurement, with GB/s of output written.

usage: python3 random_peers.py LIB [LIB ...]   (LIB: numpy, cupy, torch, vkarray)
CuPy and PyTorch times come from CUDA events; vkarray's from the wall clock with a
synchronization inside the region; numpy's from the wall clock."""

import os
import sys

import numpy as np

from peers import cupy_ms, main, report, torch_ms, vkarray_ms, wall_ms

N = int(os.environ.get("VKA_BENCH_N", 2**28))
RUNS = int(os.environ.get("VKA_BENCH_RUNS", 20))


def emit(lib, name, values, itemsize, **extra):
    ms = sorted(values)[len(values) // 2]
    report(lib, name, values, "ms", gbps=round(N * itemsize / ms / 1e6, 1), **extra)


def bench_cupy():
    import cupy as cp
    rng = cp.random.default_rng(1)
    emit("cupy", "random float32", cupy_ms(lambda: rng.random(N, dtype=cp.float32), RUNS), 4)
    emit("cupy", "standard_normal float32",
         cupy_ms(lambda: rng.standard_normal(N, dtype=cp.float32), RUNS), 4)
    emit("cupy", "random float64", cupy_ms(lambda: rng.random(N // 2), RUNS), 4)
    emit("cupy", "integers(0, 1000) int64",
         cupy_ms(lambda: rng.integers(0, 1000, N // 2), RUNS), 4)
    emit("cupy", "random float32 * 2 + 1",
         cupy_ms(lambda: rng.random(N, dtype=cp.float32) * 2 + 1, RUNS), 4)


def bench_torch():
    import torch
    g = torch.Generator(device="cuda").manual_seed(1)
    emit("torch", "random float32",
         torch_ms(lambda: torch.rand(N, device="cuda", generator=g), RUNS), 4)
    emit("torch", "standard_normal float32",
         torch_ms(lambda: torch.randn(N, device="cuda", generator=g), RUNS), 4)
    emit("torch", "random float64",
         torch_ms(lambda: torch.rand(N // 2, device="cuda", dtype=torch.float64, generator=g),
                  RUNS), 4)
    emit("torch", "integers(0, 1000) int64",
         torch_ms(lambda: torch.randint(0, 1000, (N // 2,), device="cuda", generator=g), RUNS), 4)
    emit("torch", "random float32 * 2 + 1",
         torch_ms(lambda: torch.rand(N, device="cuda", generator=g) * 2 + 1, RUNS), 4)


def bench_vkarray():
    import vkarray as vk
    rng = vk.random.default_rng(1)

    def run(name, make, itemsize=4):
        k0 = vk.kernel_count()
        make().eval()
        vk.synchronize()
        kernels = vk.kernel_count() - k0
        emit("vkarray", name + " (wall clock)", vkarray_ms(lambda: make().eval(), RUNS), itemsize,
             kernels=kernels)

    run("random float32", lambda: rng.random(N, dtype=np.float32))
    run("standard_normal float32", lambda: rng.standard_normal(N, dtype=np.float32))
    run("random float64", lambda: rng.random(N // 2))
    run("integers(0, 1000) int64", lambda: rng.integers(0, 1000, N // 2))
    run("random float32 * 2 + 1", lambda: rng.random(N, dtype=np.float32) * 2 + 1)
    run("sum(standard_normal float32)", lambda: vk.sum(rng.standard_normal(N, dtype=np.float32)),
        itemsize=4)
    x = np.asarray(rng.random(1 << 20, dtype=np.float32))
    assert 0 <= x.min() and x.max() < 1 and abs(x.mean() - 0.5) < 0.01, "vkarray random is wrong"


def bench_numpy():
    rng = np.random.default_rng(1)
    emit("numpy", "random float32", wall_ms(lambda: rng.random(N, dtype=np.float32), 3), 4)
    emit("numpy", "standard_normal float32",
         wall_ms(lambda: rng.standard_normal(N, dtype=np.float32), 3), 4)


if __name__ == "__main__":
    main(globals(), sys.argv[1:])
