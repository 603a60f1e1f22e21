"""Per-kernel GPU time of vkarray's library primitives (vk.profile): each primitive once after
half a second of warm-up calls, its kernels' table (summed by kernel name past 60 launches, as
for the 4096² float32 factorizations), and the wall clock of the call beside the GPU total. For
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
    m = 4096
    a = vk.asarray(rng.standard_normal((m, m)).astype(np.float32))
    spd = vk.asarray((lambda h: h @ h.T / m + np.eye(m, dtype=np.float32))(
        rng.standard_normal((m, m)).astype(np.float32)))
    b = vk.asarray(rng.standard_normal((m, 1)).astype(np.float32))
    return {
        "sort": lambda: vk.sort(x32),
        "argsort": lambda: vk.argsort(x32),
        "cumsum": lambda: vk.cumsum(x32),
        "random_f32": lambda: gen.random(N, dtype=np.float32),
        "random_f64": lambda: gen.random(N),
        "normal_f32": lambda: gen.standard_normal(N, dtype=np.float32),
        "bincount": lambda: vk.bincount(bins),
        "bincount_weights": lambda: vk.bincount(bins, weights),
        "solve": lambda: vk.linalg.solve(a, b),
        "cholesky": lambda: vk.linalg.cholesky(spd),
        "qr": lambda: vk.linalg.qr(a)[1],
        "matmul": lambda: a @ spd,
    }


def by_name(prof):
    """The profile's kernels summed by name, slowest first (for calls of many launches)."""
    sums = {}
    for r in prof.records:
        t, c = sums.get(r.name, (0.0, 0))
        sums[r.name] = (t + r.gpu_ns, c + 1)
    lines = [f"{'GPU us':>10}  {'launches':>8}  kernel"]
    for name, (t, c) in sorted(sums.items(), key=lambda kv: -kv[1][0]):
        lines.append(f"{t / 1e3:10.1f}  {c:8d}  {name}")
    return "\n".join(lines)


def main(names):
    table = primitives()
    for name in names or table:
        fn = table[name]
        # Warm-up: the kernels compiled and the GPU's clocks raised (an idle H200 runs its first
        # milliseconds at a fraction of its clock).
        t_end = time.perf_counter() + 0.5
        while True:
            fn().eval()
            vk.synchronize()
            if time.perf_counter() > t_end:
                break
        t0 = time.perf_counter()
        with vk.profile() as prof:
            fn().eval()
        wall = (time.perf_counter() - t0) * 1e3
        print(f"## {name}: wall {wall:.3f} ms, GPU {prof.total_ns / 1e6:.3f} ms, "
              f"{prof.count} kernels")
        print(prof.table() if prof.count <= 60 else by_name(prof))
        print(flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
