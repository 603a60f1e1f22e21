"""GPU time of single-invocation kernels: a 0-d sum of n terms f(A[i, i]) (one kernel each, one
invocation), for f in tanh, exp, sqrt and none, float64 and float32, n = 1, 12, 48 (vk.profile
of the third evaluation of each). What a scalar-sized loop body costs on the device once fused.
--sweep: float64 tanh sums of n = 4 .. 64 terms over 1 element (A[i, i]) and over rows
A[i, :cols] of 32, 1024 and 135168 elements, the best of three evaluations after one (where one
invocation's code outgrows the instruction cache: schedule.h, max_scalar_transcendental).

usage: PYTHONPATH=<vkarray> python3 benchmarks/zero_d_terms.py [--sweep]"""

import sys

import numpy as np

import vkarray as vk


def main():
    a64 = vk.asarray(np.random.default_rng(0).normal(size=(64, 64)))
    for dtype in ("float64", "float32"):
        a = a64.astype(dtype)
        vk.eval(a)
        for fn in ("tanh", "exp", "sqrt", "none"):
            for n in (1, 12, 48):
                def build():
                    t = a[0, 0] * 0
                    for i in range(n):
                        x = a[i, i]
                        if fn == "sqrt":
                            x = abs(x)
                        t = t + (x if fn == "none" else getattr(vk, fn)(x))
                    return t
                for _ in range(3):
                    t = build()
                    with vk.profile() as prof:
                        vk.eval(t)
                        vk.synchronize()
                print(f"{dtype} {fn} {n} GPU us {prof.total_ns / 1e3:.1f}", flush=True)


def sweep():
    for cols in (0, 32, 1024, 135168):
        a = vk.asarray(np.random.default_rng(0).normal(size=(64, max(cols, 64))))
        vk.eval(a)
        for n in (4, 8, 12, 16, 24, 32, 48, 64):
            def build():
                t = None
                for i in range(n):
                    x = a[i, i] if cols == 0 else a[i, :cols]
                    t = vk.tanh(x) if t is None else t + vk.tanh(x)
                return t
            times = []
            for _ in range(4):
                t = build()
                with vk.profile() as prof:
                    vk.eval(t)
                    vk.synchronize()
                times.append(prof.total_ns / 1e3)
            print(f"cols {cols} n {n} kernels {prof.count} GPU us {min(times[1:]):.1f}", flush=True)


if __name__ == "__main__":
    sweep() if "--sweep" in sys.argv[1:] else main()
