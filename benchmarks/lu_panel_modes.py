"""GPU time of the blocked LU's panel kernel (kernels/lib/linalg_lu_panel.cc) by mode, for one
solve of an n×n float32 system: vk.profile's records of lu_panel_f32 in launch order, named by
the host's sequence (array/linalg/linalg.cc: tournament): per panel, a launch of leaves and of
each merge level while the rows exceed one block, the final, then the rows (swaps, U12, L21).

usage: python3 lu_panel_modes.py [N]   (default 4096)"""

import sys
import time

import numpy as np

import vkarray as vk

ROWS, BLOCK = 192, 32  # float32's rows per workgroup (lu_panel_rows) and the panel width


def modes(n):
    order = []
    for j0 in range(0, n, BLOCK):
        if n - j0 > ROWS:
            sets = -(-(n - j0) // ROWS)
            order.append("leaves")
            while sets > ROWS // BLOCK:
                sets = -(-sets // (ROWS // BLOCK))
                order.append("merge")
        order += ["final", "rows"]
    return order


def main(n):
    rng = np.random.default_rng(1)
    a = vk.asarray(rng.standard_normal((n, n)).astype(np.float32))
    b = vk.asarray(np.ones((n, 1), np.float32))
    t_end = time.perf_counter() + 0.5  # compiled, and the GPU's clocks raised
    while time.perf_counter() < t_end:
        vk.linalg.solve(a, b).eval()
        vk.synchronize()
    with vk.profile() as prof:
        vk.linalg.solve(a, b).eval()
    records = [r for r in prof.records if r.name == "lu_panel_f32"]
    order = modes(n)
    if len(order) != len(records):
        sys.exit(f"expected {len(order)} panel launches, the profile has {len(records)}")
    sums = {}
    for kind, r in zip(order, records):
        t, c = sums.get(kind, (0, 0))
        sums[kind] = (t + r.gpu_ns, c + 1)
    print(f"# lu_panel_f32 at {n}² float32: GPU time by mode")
    for kind, (t, c) in sums.items():
        print(f"{kind:7s} {t / 1e3:9.1f} us  {c:4d} launches  {t / 1e3 / c:7.1f} us each")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 4096)
