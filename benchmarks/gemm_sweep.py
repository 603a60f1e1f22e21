"""GEMM tilings per dtype and operand layout: times vkarray's matmul under each tiling of a list
(vk.set_gemm_config) for products that programs use (square, A.T @ A of a tall matrix, a wide
times square layer), and CuPy's matmul of the same products as the reference, so that the
default tiling per dtype can be chosen and recorded for the device (array/matmul.cc kTuned).

usage: python3 gemm_sweep.py LIB [--dtypes float32,float64] [--configs CONFIGS]
  LIB: vkarray or cupy. Prints one JSON line per (case, tiling): median milliseconds of 5
  synchronized runs and TFLOP/s.
"""
import argparse
import json

import numpy as np

from peers import cupy_ms, vkarray_ms

RUNS = 5
# (name, M, N, K, a transposed): C (M, N) = A @ B with A (M, K), or A = X.T of X (K, M).
CASES = [
    ("square 4096", 4096, 4096, 4096, False),
    ("X.T @ X, X 4000x2000", 2000, 2000, 4000, True),
    ("1024x4096 @ 4096x4096", 1024, 4096, 4096, False),
    ("256x256, K 65536", 256, 256, 65536, True),
]
CONFIGS = {
    4: ["128x256x8x8x8", "128x128x8x8x8", "128x128x16x8x8", "64x128x8x4x8", "64x64x8x4x4",
        "64x64x16x4x4", "128x64x8x8x4"],
    8: ["64x64x8x4x4", "64x64x16x4x4", "64x128x8x4x8", "128x64x8x8x4", "128x128x8x8x8",
        "32x64x8x4x4", "64x32x8x4x4", "64x64x8x8x4", "64x64x4x4x4"],
}


def operands(xp, m, n, k, transposed, dtype):
    rng = np.random.default_rng(3)
    ha = rng.standard_normal((k, m) if transposed else (m, k)).astype(dtype)
    hb = rng.standard_normal((k, n)).astype(dtype)
    a, b = xp.asarray(ha), xp.asarray(hb)
    return (a.T if transposed else a), b, (ha.T if transposed else ha), hb


def main():
    p = argparse.ArgumentParser()
    p.add_argument("lib", choices=["vkarray", "cupy"])
    p.add_argument("--dtypes", default="float32,float64")
    p.add_argument("--configs", default="")
    args = p.parse_args()
    for dtype in args.dtypes.split(","):
        dt = np.dtype(dtype)
        for name, m, n, k, transposed in CASES:
            flops = 2.0 * m * n * k
            if args.lib == "cupy":
                import cupy as cp
                a, b, _, _ = operands(cp, m, n, k, transposed, dt)
                ms = float(np.median(cupy_ms(lambda: a @ b, RUNS)))
                rows = [("cuBLAS", ms)]
            else:
                import vkarray as vk
                a, b, ha, hb = operands(vk, m, n, k, transposed, dt)
                want = ha.astype(np.float64) @ hb.astype(np.float64)
                configs = args.configs.split(",") if args.configs else CONFIGS[dt.itemsize]
                rows = []
                for config in ["default"] + configs:
                    vk.set_gemm_config(None if config == "default" else config)
                    label = config if config != "default" else "default " + vk.gemm_config(dt)
                    try:
                        got = np.asarray(a @ b).astype(np.float64)
                    except Exception as e:  # a tiling the device refuses
                        print(json.dumps({"lib": "vkarray", "dtype": dtype, "case": name,
                                          "config": label, "error": str(e)[:200]}), flush=True)
                        continue
                    err = float(np.abs(got - want).max() / np.abs(want).max())
                    assert err < (1e-3 if dt.itemsize == 4 else 1e-10), (name, config, err)
                    rows.append((label, float(np.median(vkarray_ms(lambda: (a @ b).eval(), RUNS)))))
                vk.set_gemm_config(None)
            for label, ms in rows:
                print(json.dumps({"lib": args.lib, "dtype": dtype, "case": name, "config": label,
                                  "ms": round(ms, 4), "tflops": round(flops / ms / 1e9, 2)}),
                      flush=True)


if __name__ == "__main__":
    main()
