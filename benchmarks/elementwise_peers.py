"""The elementwise benchmarks of issue 3, for any array library, one process per Python:
`c = 2*a + b`, the 6-op chain sqrt(abs(2a+b)+1)*exp(-b)-a (eager, and fused where the library
can fuse), and 200 dependent small ops on 1000 elements from a Python loop, including the
final read. Prints one JSON object per measurement (library, name, median, unit, runs).

usage: python3 elementwise_peers.py LIB [LIB ...]   (LIB: numpy, cupy, torch, vkarray)
GPU times come from the library's own device events (CUDA events for CuPy and PyTorch); the
small-op loop and every vkarray time is wall clock with a synchronization inside the region."""

import sys
import time

import numpy as np

from peers import main, report, wall_ms

N = int(__import__("os").environ.get("VKA_BENCH_N", 2**28))  # lavapipe: 2**24 (128 MiB/binding)
SMALL_N, SMALL_ITERS = 1000, 100  # 100 iterations of x = x*1.0001 + 0.5: 200 ops
RUNS = 20


def chain(xp, a, b):
    return xp.sqrt(xp.abs(2 * a + b) + 1) * xp.exp(-b) - a


def small_ops(x, iters):
    for _ in range(iters):
        x = x * 1.0001 + 0.5
    return x


def bench_torch():
    import torch
    dev = "cuda"
    g = torch.Generator(device=dev).manual_seed(1)
    a = torch.rand(N, device=dev, generator=g) * 2 - 1
    b = torch.rand(N, device=dev, generator=g) * 2 - 1
    c = torch.empty_like(a)

    def timed(fn):
        for _ in range(3):
            fn()
        torch.cuda.synchronize()
        out = []
        for _ in range(RUNS):
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record()
            fn()
            e.record()
            e.synchronize()
            out.append(s.elapsed_time(e))
        return out
    report("torch", "c = 2*a + b (torch.add alpha=2, out=)", timed(
        lambda: torch.add(b, a, alpha=2, out=c)), "ms")
    report("torch", "c = 2*a + b", timed(lambda: 2 * a + b), "ms")
    report("torch", "6-op chain (eager)", timed(lambda: chain(torch, a, b)), "ms")
    def six_op_chain(a, b):
        return chain(torch, a, b)
    compiled = torch.compile(six_op_chain)
    report("torch", "6-op chain (torch.compile)", timed(lambda: compiled(a, b)), "ms")
    x0 = torch.rand(SMALL_N, device=dev)
    small_wall("torch", lambda: small_ops(x0, SMALL_ITERS).cpu().numpy())


def bench_cupy():
    import cupy as cp
    rng = cp.random.default_rng(1)
    a = rng.random(N, dtype=cp.float32) * 2 - 1
    b = rng.random(N, dtype=cp.float32) * 2 - 1

    def timed(fn):
        for _ in range(3):
            fn()
        cp.cuda.Device().synchronize()
        out = []
        for _ in range(RUNS):
            s, e = cp.cuda.Event(), cp.cuda.Event()
            s.record()
            fn()
            e.record()
            e.synchronize()
            out.append(cp.cuda.get_elapsed_time(s, e))
        return out
    report("cupy", "c = 2*a + b", timed(lambda: 2 * a + b), "ms")
    report("cupy", "6-op chain (unfused)", timed(lambda: chain(cp, a, b)), "ms")
    def six_op_chain(a, b):  # cupy.fuse names the CUDA kernel after the function
        return cp.sqrt(cp.abs(2 * a + b) + 1) * cp.exp(-b) - a
    fused = cp.fuse(six_op_chain)
    report("cupy", "6-op chain (cupy.fuse)", timed(lambda: fused(a, b)), "ms")
    x0 = rng.random(SMALL_N, dtype=cp.float32)
    small_wall("cupy", lambda: small_ops(x0, SMALL_ITERS).get())


def bench_numpy():
    rng = np.random.default_rng(1)
    a = rng.random(N, dtype=np.float32) * 2 - 1
    b = rng.random(N, dtype=np.float32) * 2 - 1
    report("numpy", "c = 2*a + b (CPU, wall clock)", wall_ms(lambda: 2 * a + b), "ms")
    report("numpy", "6-op chain (CPU, wall clock)", wall_ms(lambda: chain(np, a, b)), "ms")
    x0 = rng.random(SMALL_N, dtype=np.float32)
    small_wall("numpy", lambda: small_ops(x0, SMALL_ITERS))


def bench_vkarray():
    import vkarray as vk
    rng = np.random.default_rng(1)
    a = vk.asarray(rng.random(N, dtype=np.float32) * 2 - 1)
    b = vk.asarray(rng.random(N, dtype=np.float32) * 2 - 1)

    def timed(fn):
        fn().eval()
        vk.synchronize()
        out = []
        for _ in range(RUNS):
            t0 = time.perf_counter()
            fn().eval()
            vk.synchronize()
            out.append((time.perf_counter() - t0) * 1e3)
        return out
    k0 = vk.kernel_count()
    (2 * a + b).eval()
    k1 = vk.kernel_count()
    chain(vk, a, b).eval()
    k2 = vk.kernel_count()
    report("vkarray", "c = 2*a + b (wall clock incl. submit and wait)",
           timed(lambda: 2 * a + b), "ms", kernels=k1 - k0)
    report("vkarray", "6-op chain (wall clock incl. submit and wait)",
           timed(lambda: chain(vk, a, b)), "ms", kernels=k2 - k1)
    x0 = vk.asarray(rng.random(SMALL_N, dtype=np.float32))
    t0 = time.perf_counter()
    np.asarray(small_ops(x0, SMALL_ITERS))
    first = (time.perf_counter() - t0) * 1e3
    report("vkarray", "200 small ops, first run (builds the fused kernel)", [first], "ms")
    k0 = vk.kernel_count()
    np.asarray(small_ops(x0, SMALL_ITERS))
    small_wall("vkarray", lambda: np.asarray(small_ops(x0, SMALL_ITERS)),
               kernels=vk.kernel_count() - k0)


def small_wall(lib, fn, **extra):
    """Per-op microseconds of 200 dependent ops including the final read (wall clock)."""
    for _ in range(3):
        fn()
    out = []
    for _ in range(RUNS):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1e6 / (2 * SMALL_ITERS))
    report(lib, "200 dependent small ops on 1000 float32, per op incl. final read", out, "us",
           **extra)


if __name__ == "__main__":
    main(globals(), sys.argv[1:])
