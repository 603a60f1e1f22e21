"""The device's FMA rate (the hardware limit for GEMM kernels that run on the FMA units): a user
kernel of independent fma chains in float32 and float64, timed by wall clock around a sync,
median of 5 runs. usage: python3 fma_rate.py"""
import time

import numpy as np
import vkarray as vk

SOURCE = """#version 450
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) buffer Out { REAL v[]; } out_;
void main() {
  uint i = gl_GlobalInvocationID.x;
  REAL y = REAL(1.0), z = REAL(0.5), a0 = REAL(i) * REAL(1e-9);
  REAL a1 = a0 + REAL(1), a2 = a0 + REAL(2), a3 = a0 + REAL(3);
  for (int k = 0; k < STEPS; ++k) {
    a0 = fma(a0, y, z); a1 = fma(a1, y, z); a2 = fma(a2, y, z); a3 = fma(a3, y, z);
    a0 = fma(a0, z, y); a1 = fma(a1, z, y); a2 = fma(a2, z, y); a3 = fma(a3, z, y);
  }
  out_.v[i] = a0 + a1 + a2 + a3;
}
"""
STEPS = 4096
INVOCATIONS = 132 * 2048 * 4


def main():
    for real, dtype in [("float", np.float32), ("double", np.float64)]:
        src = SOURCE.replace("REAL", real).replace("STEPS", str(STEPS))
        kernel = vk.Kernel(src, local_size=(256, 1, 1), name=f"fma_{real}")
        out = vk.zeros(INVOCATIONS, dtype)
        groups = (INVOCATIONS // 256, 1, 1)
        for _ in range(3):
            kernel(out, groups=groups)
            vk.synchronize()
        times = []
        for _ in range(5):
            t0 = time.perf_counter()
            kernel(out, groups=groups)
            vk.synchronize()
            times.append(time.perf_counter() - t0)
        ms = float(np.median(times)) * 1e3
        flops = INVOCATIONS * STEPS * 8 * 2
        # Each chain converges to the fixed point of x -> (x + 0.5) * 0.5 + 1: 2.5 (x4 chains).
        assert abs(float(np.asarray(out)[7]) - 10.0) < 1e-3
        print(f"{real}: {ms:.3f} ms, {flops / ms / 1e9:.1f} TFLOP/s")


if __name__ == "__main__":
    main()
