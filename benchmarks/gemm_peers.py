"""The matrix-product benchmarks, for any array library, one process per library: float32
A @ B at 4096³ and 8192³, float16 at 8192³, and relu(A @ B + bias) at float32 4096³ (CuPy and
PyTorch run it as three kernels: the product, the add, the maximum; vkarray fuses the
epilogue into the GEMM kernel where it can); then products with few output tiles and a long
K (correlation's centred.T @ centred with centred (4000, 2000), float64 and float32, and
float32 256 x 65536 @ 65536 x 256; vkarray with its split-K choice and with none). One JSON
object per measurement, with TFLOP/s.

usage: python3 gemm_peers.py LIB [LIB ...]   (LIB: numpy, cupy, torch, vkarray)
CuPy and PyTorch times come from CUDA events; vkarray's from the wall clock with a
synchronization inside the region (its GPU-timestamp figures come from benchmarks/gemm.cc)."""

import os
import sys

import numpy as np

from peers import cupy_ms, main, report, torch_ms, vkarray_ms, wall_ms

SIZES = [int(x) for x in os.environ.get("VKA_BENCH_GEMM_SIZES", "4096,8192").split(",")]
RUNS = int(os.environ.get("VKA_BENCH_RUNS", 10))


def host_data(n, seed=1):
    rng = np.random.default_rng(seed)
    return (rng.uniform(-1, 1, (n, n)).astype(np.float32),
            rng.uniform(-1, 1, (n, n)).astype(np.float32),
            rng.uniform(-1, 1, n).astype(np.float32))


def cases(n, a, b, bias, maximum, half):
    out = [(f"float32 {n}^3", lambda: a @ b)]
    if n == 8192:
        a16, b16 = half(a), half(b)
        out.append((f"float16 {n}^3", lambda: a16 @ b16))
    if n == 4096:
        out.append((f"relu(A@B+bias) float32 {n}^3", lambda: maximum(a @ b + bias, 0)))
    return out


# (name, dtype, host A, host B, A read transposed, flops): few output tiles, long K.
def skinny_data():
    rng = np.random.default_rng(2)
    centred = rng.uniform(-1, 1, (4000, 2000))
    a = rng.uniform(-1, 1, (256, 65536)).astype(np.float32)
    b = rng.uniform(-1, 1, (65536, 256)).astype(np.float32)
    corr = 2.0 * 2000 * 4000 * 2000
    return [("float64 (4000, 2000).T @ (4000, 2000)", centred, None, corr),
            ("float32 (4000, 2000).T @ (4000, 2000)", centred.astype(np.float32), None, corr),
            ("float32 256 x 65536 @ 65536 x 256", a, b, 2.0 * 256 * 65536 * 256)]


def skinny_cases(convert):
    out = []
    for name, ha, hb, flops in skinny_data():
        a = convert(ha)
        if hb is None:  # centred.T @ centred: one array, read transposed on the left
            out.append((name, lambda a=a: a.T @ a, flops))
        else:
            b = convert(hb)
            out.append((name, lambda a=a, b=b: a @ b, flops))
    return out


def run(lib, timer, convert, maximum, half):
    for n in SIZES:
        a, b, bias = (convert(v) for v in host_data(n))
        for name, fn in cases(n, a, b, bias, maximum, half):
            ms = timer(fn, RUNS)
            tflops = 2.0 * n ** 3 / (sorted(ms)[len(ms) // 2] * 1e-3) / 1e12
            report(lib, name, ms, "ms", tflops=round(tflops, 2))
    for name, fn, flops in skinny_cases(convert):
        ms = timer(fn, RUNS)
        tflops = flops / (sorted(ms)[len(ms) // 2] * 1e-3) / 1e12
        report(lib, name, ms, "ms", tflops=round(tflops, 2))


def bench_cupy():
    import cupy as cp
    run("cupy", cupy_ms, cp.asarray, cp.maximum, lambda x: x.astype(cp.float16))


def bench_torch():
    import torch
    run("torch", torch_ms, lambda v: torch.from_numpy(v).cuda(),
        lambda x, y: torch.clamp_min(x, y), lambda x: x.half())


def bench_vkarray():
    import vkarray as vk
    print(f'{{"lib": "vkarray", "gemm_config": "{vk.gemm_config(np.float32)}"}}', flush=True)
    for n in SIZES:
        ha, hb, hbias = host_data(n)
        a, b, bias = vk.asarray(ha), vk.asarray(hb), vk.asarray(hbias)
        for name, fn in cases(n, a, b, bias, vk.maximum, lambda x: x.astype(np.float16).eval()):
            k0 = vk.kernel_count()
            fn().eval()
            vk.synchronize()
            kernels = vk.kernel_count() - k0
            ms = vkarray_ms(lambda: fn().eval(), RUNS)
            tflops = 2.0 * n ** 3 / (sorted(ms)[len(ms) // 2] * 1e-3) / 1e12
            report("vkarray", name + " (wall clock)", ms, "ms", kernels=kernels,
                   tflops=round(tflops, 2))
        # one sampled row against float64
        got = np.asarray(a[:1] @ b)[0].astype(np.float64)
        want = ha[0].astype(np.float64) @ hb.astype(np.float64)
        bound = n * 2.0 ** -24 / (1 - n * 2.0 ** -24) * (np.abs(ha[0]) @ np.abs(hb))
        assert np.all(np.abs(got - want) <= bound), "vkarray matmul is wrong"
    def evaluated(x):
        y = vk.asarray(x)
        y.eval()
        return y

    data = skinny_data()
    for (name, fn, flops), (_, ha, hb, _) in zip(skinny_cases(evaluated), data):
        for split, label in ((None, "split-K: the device's choice"), (1, "no split")):
            vk.set_gemm_split(split)
            try:
                k0 = vk.kernel_count()
                got = np.asarray(fn())
                kernels = vk.kernel_count() - k0
                ms = vkarray_ms(lambda: fn().eval(), RUNS)
            finally:
                vk.set_gemm_split(None)
            tflops = flops / (sorted(ms)[len(ms) // 2] * 1e-3) / 1e12
            report("vkarray", f"{name} ({label}, wall clock)", ms, "ms", kernels=kernels,
                   tflops=round(tflops, 2))
            # one sampled row against float64, within the unsplit bound (docs/accuracy.md)
            x = ha.T if hb is None else ha
            y = ha if hb is None else hb
            want = x[0].astype(np.float64) @ y.astype(np.float64)
            k = x.shape[1]
            u = 2.0 ** (-53 if x.dtype == np.float64 else -24)
            bound = k * u / (1 - k * u) * (np.abs(x[0]).astype(np.float64) @ np.abs(y))
            assert np.all(np.abs(got[0] - want) <= bound), f"vkarray {name} is wrong"


def bench_numpy():
    for n in SIZES[:1]:
        a, b, bias = host_data(n)
        report("numpy", f"float32 {n}^3", wall_ms(lambda: a @ b, runs=3), "ms")


if __name__ == "__main__":
    main(globals(), sys.argv[1:])
