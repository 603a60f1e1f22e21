"""vkarray's demonstration: shows the default device, then uploads, round-trips and verifies
data of every dtype on every replica of a context with several replicas.

Run it with `PYTHONPATH=$(make -s pythonpath) /usr/bin/python3 docs/examples/demo.py` (`make
demo` runs the drop-in numpy programs instead). Set VKA_DEVICE to choose a device (an index or
part of its name)."""

import sys
import time

import numpy as np

import vkarray as vk

DTYPES = [vk.bool_, vk.int8, vk.uint8, vk.int16, vk.uint16, vk.int32, vk.uint32, vk.int64,
          vk.uint64, vk.float16, vk.float32, vk.float64, vk.complex64, vk.complex128]


def random_data(rng, shape, dtype):
    """Random values that span the dtype's range (never all zeros)."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return rng.random(shape) < 0.5
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True)
    if dtype.kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    return (rng.standard_normal(shape) * 1e3).astype(dtype)


def main():
    default = vk.context()
    print("vkarray demo")
    for d in vk.list_devices():
        print(f"  Vulkan device {d['index']}: {d['name']} ({d['type']})")
    print(f"default context: {default}")

    # Two logical devices on the first physical device, so that every replica path runs even
    # on a machine with one device.
    ctx = vk.Context(devices=[0, 0])
    print(f"demo context: {ctx.num_replicas} replicas")
    for r in ctx.replicas:
        print(f"  {r}")

    rng = np.random.default_rng(2026)
    shape = (64, 33, 5)
    failures = 0
    print(f"\n{'dtype':>11}  {'broadcast':>9}  {'per-replica':>11}  {'time':>8}")
    for dtype in DTYPES:
        t0 = time.perf_counter()
        data = random_data(rng, shape, dtype)
        buf = vk.asbuffer(data, context=ctx)
        stacked = buf.read()  # every replica, stacked on a new leading axis
        broadcast_ok = stacked.shape == (ctx.num_replicas,) + shape and all(
            np.array_equal(stacked[i], data) for i in range(ctx.num_replicas))
        other = random_data(rng, shape, dtype)
        buf.write(other, index=1)  # replica 1 only
        per_replica_ok = np.array_equal(buf.read(0), data) and np.array_equal(buf.read(1), other)
        ms = (time.perf_counter() - t0) * 1e3
        failures += (not broadcast_ok) + (not per_replica_ok)
        print(f"{np.dtype(dtype).name:>11}  {'ok' if broadcast_ok else 'FAIL':>9}  "
              f"{'ok' if per_replica_ok else 'FAIL':>11}  {ms:6.1f} ms")

    big = np.arange(40_000_000, dtype=np.float32)  # larger than one 128 MiB binding on lavapipe
    t0 = time.perf_counter()
    buf = vk.asbuffer(big, context=ctx)
    ok = all(np.array_equal(buf.read(i), big) for i in range(ctx.num_replicas))
    seconds = time.perf_counter() - t0
    failures += not ok
    print(f"\n{big.nbytes / 2**20:.0f} MiB float32 to {ctx.num_replicas} replicas and back: "
          f"{'ok' if ok else 'FAIL'} ({seconds:.2f} s)")
    print("all verified" if failures == 0 else f"{failures} check(s) FAILED")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
