"""Per-iteration GPU cost of a workgroup barrier with each kind of memory barrier, and of
dependent loads from coherent and plain storage buffers: one workgroup of 256 or 1024
invocations runs ITERS iterations of each body (vk.Kernel), timed by vk.profile (best of 5).
The linalg kernels' SYNC / SYNC_S choice (kernels/lib/linalg.cc) rests on these figures.

usage: python3 barrier_costs.py"""

import numpy as np

import vkarray as vk

ITERS = 2000
STEP = "s[t] += 1.0; {fence} barrier(); acc += s[(t + 1) % WG];"
BODIES = {
    "barrier": STEP.format(fence=""),
    "shared+barrier": STEP.format(fence="memoryBarrierShared();"),
    "group+barrier": STEP.format(fence="groupMemoryBarrier();"),
    "buffer+shared+barrier": STEP.format(fence="memoryBarrierBuffer(); memoryBarrierShared();"),
    "coh_load_dep": "acc += c.v[int(acc) & 7];",
    "noncoh_load_dep": "acc += d.v[int(acc) & 7];",
    "coh_store_load_same": "c.v[t] = acc; acc += c.v[t] * 0.5;",
    "coh_store_then_load_other": "c.v[t] = acc; acc += c.v[(t + 1) % WG] * 0.5;",
    "t0_coh_load+group_barrier":
        "if (t == 0u) s[0] = c.v[int(acc) & 7]; groupMemoryBarrier(); barrier(); acc += s[0];",
}
SOURCE = """#version 450
layout(local_size_x = WG) in;
layout(set = 0, binding = 0) coherent buffer C { float v[]; } c;
layout(set = 0, binding = 1) buffer D { float v[]; } d;
layout(set = 0, binding = 2) buffer O { float v[]; } o;
shared float s[WG];
void main() {
  uint t = gl_LocalInvocationID.x;
  s[t] = 0.0;
  barrier();
  float acc = 0.0;
  for (int it = 0; it < ITERS; ++it) { BODY }
  o.v[t] = acc;
}
"""


def main():
    for wg in (256, 1024):
        for name, body in BODIES.items():
            src = "#define WG %d\n#define ITERS %d\n" % (wg, ITERS)
            src = SOURCE.replace("BODY", body).replace("#version 450\n", "#version 450\n" + src)
            k = vk.Kernel(src, workgroup=(1, 1, 1))
            bufs = [vk.zeros(wg, np.float32) for _ in range(3)]
            for _ in range(3):
                k(*bufs)
                vk.synchronize()
            best = float("inf")
            for _ in range(5):
                with vk.profile() as p:
                    k(*bufs)
                    vk.synchronize()
                best = min(best, p.total_ns)
            print(f"wg {wg:5d} {name:28s} {best / ITERS:8.1f} ns/iter", flush=True)


if __name__ == "__main__":
    main()
