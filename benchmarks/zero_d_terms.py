"""GPU time of single-invocation kernels: a 0-d sum of n terms f(A[i, i]) (one kernel each, one
invocation), for f in tanh, exp, sqrt and none, float64 and float32, n = 1, 12, 48 (vk.profile
of the third evaluation of each). What a scalar-sized loop body costs on the device once fused.

usage: PYTHONPATH=<vkarray> python3 benchmarks/zero_d_terms.py"""

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


if __name__ == "__main__":
    main()
