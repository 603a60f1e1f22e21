"""The FFT benchmarks, for any array library, one process per library: a complex64 fft of 2^24
points, and a batch of 4096 x 4096 complex64 transformed along the last axis (fft and ifft),
plus rfft of 2^24 float32. One JSON object per measurement.

usage: python3 fft_peers.py LIB [LIB ...]   (LIB: numpy, cupy, torch, vkarray)
CuPy (cuFFT) and PyTorch (cuFFT) times come from CUDA events; vkarray's (VkFFT) from the wall
clock with a synchronization inside the region; numpy's from the wall clock. Medians of
VKA_BENCH_RUNS (default 20) runs."""

import os
import sys

import numpy as np

from peers import cupy_ms, main, report, torch_ms, vkarray_ms, wall_ms

N = int(os.environ.get("VKA_BENCH_N", 2**24))
SIDE = int(os.environ.get("VKA_BENCH_SIDE", 4096))
RUNS = int(os.environ.get("VKA_BENCH_RUNS", 20))


def host_data():
    rng = np.random.default_rng(1)
    x = (rng.random(N, dtype=np.float32) + 1j * rng.random(N, dtype=np.float32))
    b = (rng.random((SIDE, SIDE), dtype=np.float32) +
         1j * rng.random((SIDE, SIDE), dtype=np.float32))
    return x.astype(np.complex64), b.astype(np.complex64), rng.random(N, dtype=np.float32)


def cases(fft, x, b, r):
    return [(f"fft of 2^{N.bit_length() - 1} complex64", lambda: fft.fft(x)),
            (f"fft of {SIDE}x{SIDE} complex64 (last axis)", lambda: fft.fft(b, axis=-1)),
            (f"ifft of {SIDE}x{SIDE} complex64 (last axis)", lambda: fft.ifft(b, axis=-1)),
            (f"rfft of 2^{N.bit_length() - 1} float32", lambda: fft.rfft(r))]


def bench_cupy():
    import cupy as cp
    x, b, r = (cp.asarray(v) for v in host_data())
    for name, fn in cases(cp.fft, x, b, r):
        report("cupy", name, cupy_ms(fn, RUNS), "ms")


def bench_torch():
    import torch
    x, b, r = (torch.from_numpy(v).cuda() for v in host_data())
    for name, fn in cases(torch.fft, x, b, r):
        report("torch", name, torch_ms(fn, RUNS), "ms")


def bench_vkarray():
    import vkarray as vk
    hx, hb, hr = host_data()
    x, b, r = vk.asarray(hx), vk.asarray(hb), vk.asarray(hr)
    for name, fn in cases(vk.fft, x, b, r):
        k0 = vk.kernel_count()
        fn().eval()
        vk.synchronize()
        kernels = vk.kernel_count() - k0
        report("vkarray", name + " (wall clock)", vkarray_ms(lambda: fn().eval(), RUNS), "ms",
               kernels=kernels)
    # A spot check of the result against numpy (float64 reference, single-precision bound).
    got = np.asarray(vk.fft.fft(x))
    want = np.fft.fft(hx.astype(np.complex128))
    err = np.max(np.abs(got - want)) / np.max(np.abs(want))
    assert err < 8 * 24 * np.finfo(np.float32).eps, ("vkarray fft is wrong", err)


def bench_numpy():
    x, b, r = host_data()
    for name, fn in cases(np.fft, x, b, r):
        report("numpy", name, wall_ms(fn, runs=3), "ms")


if __name__ == "__main__":
    main(globals(), sys.argv[1:])
