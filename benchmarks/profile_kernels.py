"""Per-kernel GPU time of vkarray's library primitives (vk.profile): each primitive once after a
warm-up call, its kernels' table, and the wall clock of the call beside the GPU total. For
finding which kernel of a primitive is slow; the peers' figures come from the *_peers.py
scripts.

usage: python3 profile_kernels.py [NAME ...]   (default: all of PRIMITIVES)"""

import sys
import time

import numpy as np

import vkarray as vk

N = 2**26


def primitives():
    rng = np.random.default_rng(7)
    x32 = vk.asarray(rng.uniform(-1, 1, N).astype(np.float32))
    bins = vk.asarray(rng.integers(0, 1000, N))
    weights = vk.asarray(rng.random(N))
    gen = vk.random.default_rng(1)
    return {
        "sort": lambda: vk.sort(x32),
        "argsort": lambda: vk.argsort(x32),
        "cumsum": lambda: vk.cumsum(x32),
        "random_f32": lambda: gen.random(N, dtype=np.float32),
        "random_f64": lambda: gen.random(N),
        "normal_f32": lambda: gen.standard_normal(N, dtype=np.float32),
        "bincount": lambda: vk.bincount(bins),
        "bincount_weights": lambda: vk.bincount(bins, weights),
    }


def main(names):
    table = primitives()
    for name in names or table:
        fn = table[name]
        fn().eval()
        vk.synchronize() if hasattr(vk, "synchronize") else None
        t0 = time.perf_counter()
        with vk.profile() as prof:
            fn().eval()
        wall = (time.perf_counter() - t0) * 1e3
        print(f"## {name}: wall {wall:.3f} ms, GPU {prof.total_ns / 1e6:.3f} ms, "
              f"{prof.count} kernels")
        print(prof.table())
        print(flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
