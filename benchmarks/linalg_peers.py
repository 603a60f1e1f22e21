"""solve, cholesky, qr, svd and eigh of float32 n×n matrices (n = 1024 and 4096 by default) for any
array library, one process per library. Prints one JSON object per measurement (library,
name, median, unit, runs). vkarray checks its results against a float64 residual before
reporting.

usage: python3 linalg_peers.py LIB [LIB ...]   (LIB: numpy, cupy, torch, vkarray)
VKA_BENCH_SIZES="1024,4096" picks the sizes, VKA_BENCH_RUNS the runs (default 5); svd and eigh
run at sizes up to VKA_BENCH_SVD_MAX (default 1024: the Jacobi solvers are O(n³) per sweep).
vkarray takes its wide Jacobi mode for these single matrices (VKA_JACOBI=single in the
environment measures the one-workgroup-per-matrix mode instead).
CuPy and PyTorch times come from CUDA events; vkarray's and numpy's from the wall clock (with
a synchronization inside the timed region for vkarray)."""

import os
import sys

import numpy as np

from peers import cupy_ms, main, report, torch_ms, vkarray_ms, wall_ms

SIZES = [int(s) for s in os.environ.get("VKA_BENCH_SIZES", "1024,4096").split(",")]
RUNS = int(os.environ.get("VKA_BENCH_RUNS", 5))
SVD_MAX = int(os.environ.get("VKA_BENCH_SVD_MAX", 1024))


def host_data(n):
    rng = np.random.default_rng(n)
    a = rng.standard_normal((n, n)).astype(np.float32)
    spd = (a @ a.T / n + np.eye(n, dtype=np.float32)).astype(np.float32)
    b = rng.standard_normal((n, 1)).astype(np.float32)
    return a, spd, b


def symmetric(a):
    return ((a + a.T) / 2).astype(np.float32)


def bench_cupy():
    import cupy as cp
    for n in SIZES:
        a, spd, b = (cp.asarray(x) for x in host_data(n))
        report("cupy", f"solve {n}x{n} float32", cupy_ms(lambda: cp.linalg.solve(a, b), RUNS), "ms")
        report("cupy", f"cholesky {n}x{n} float32", cupy_ms(lambda: cp.linalg.cholesky(spd), RUNS),
               "ms")
        report("cupy", f"qr {n}x{n} float32", cupy_ms(lambda: cp.linalg.qr(a), RUNS), "ms")
        if n <= SVD_MAX:
            report("cupy", f"svd {n}x{n} float32", cupy_ms(lambda: cp.linalg.svd(a), RUNS), "ms")
            h = cp.asarray(symmetric(cp.asnumpy(a)))
            report("cupy", f"eigh {n}x{n} float32", cupy_ms(lambda: cp.linalg.eigh(h), RUNS), "ms")


def bench_torch():
    import torch
    for n in SIZES:
        a, spd, b = (torch.from_numpy(x).cuda() for x in host_data(n))
        report("torch", f"solve {n}x{n} float32",
               torch_ms(lambda: torch.linalg.solve(a, b), RUNS), "ms")
        report("torch", f"cholesky {n}x{n} float32",
               torch_ms(lambda: torch.linalg.cholesky(spd), RUNS), "ms")
        report("torch", f"qr {n}x{n} float32", torch_ms(lambda: torch.linalg.qr(a), RUNS), "ms")
        if n <= SVD_MAX:
            report("torch", f"svd {n}x{n} float32", torch_ms(lambda: torch.linalg.svd(a), RUNS),
                   "ms")
            h = torch.from_numpy(symmetric(a.cpu().numpy())).cuda()
            report("torch", f"eigh {n}x{n} float32", torch_ms(lambda: torch.linalg.eigh(h), RUNS),
                   "ms")


def bench_vkarray():
    import vkarray as vk
    import vkarray.linalg as vla
    for n in SIZES:
        ha, hspd, hb = host_data(n)
        a, spd, b = vk.asarray(ha), vk.asarray(hspd), vk.asarray(hb)
        x = np.asarray(vla.solve(a, b), np.float64)
        res = np.abs(ha.astype(np.float64) @ x - hb).max()
        assert res <= 20 * n * n * np.finfo(np.float32).eps * np.abs(ha).max() * np.abs(x).max()
        report("vkarray", f"solve {n}x{n} float32 (wall clock)",
               vkarray_ms(lambda: vla.solve(a, b), RUNS), "ms")
        report("vkarray", f"cholesky {n}x{n} float32 (wall clock)",
               vkarray_ms(lambda: vla.cholesky(spd), RUNS), "ms")
        q, r = (np.asarray(x, np.float64) for x in vla.qr(a))
        assert np.abs(q @ r - ha).max() <= 20 * n * n * np.finfo(np.float32).eps * np.abs(ha).max()
        report("vkarray", f"qr {n}x{n} float32 (wall clock)", vkarray_ms(lambda: vla.qr(a), RUNS),
               "ms")
        if n <= SVD_MAX:
            # Singular values and eigenvalues against float64 numpy (docs/accuracy.md's bound).
            bound = 20 * n * np.finfo(np.float32).eps
            s = np.asarray(vla.svdvals(a), np.float64)
            sn = np.linalg.svd(ha.astype(np.float64), compute_uv=False)
            assert np.abs(s - sn).max() <= bound * sn.max()
            report("vkarray", f"svd {n}x{n} float32 (wall clock)",
                   vkarray_ms(lambda: vla.svd(a), RUNS), "ms")
            hh = symmetric(ha)
            h = vk.asarray(hh)
            w = np.asarray(vla.eigvalsh(h), np.float64)
            wn = np.linalg.eigvalsh(hh.astype(np.float64))
            assert np.abs(w - wn).max() <= bound * np.abs(wn).max()
            report("vkarray", f"eigh {n}x{n} float32 (wall clock)",
                   vkarray_ms(lambda: vla.eigh(h), RUNS), "ms")


def bench_numpy():
    for n in SIZES:
        a, spd, b = host_data(n)
        report("numpy", f"solve {n}x{n} float32 (CPU, wall clock)",
               wall_ms(lambda: np.linalg.solve(a, b), runs=RUNS), "ms")
        report("numpy", f"cholesky {n}x{n} float32 (CPU, wall clock)",
               wall_ms(lambda: np.linalg.cholesky(spd), runs=RUNS), "ms")
        report("numpy", f"qr {n}x{n} float32 (CPU, wall clock)",
               wall_ms(lambda: np.linalg.qr(a), runs=RUNS), "ms")
        if n <= SVD_MAX:
            report("numpy", f"svd {n}x{n} float32 (CPU, wall clock)",
                   wall_ms(lambda: np.linalg.svd(a), runs=RUNS), "ms")
            h = symmetric(a)
            report("numpy", f"eigh {n}x{n} float32 (CPU, wall clock)",
                   wall_ms(lambda: np.linalg.eigh(h), runs=RUNS), "ms")


if __name__ == "__main__":
    main(globals(), sys.argv[1:])
