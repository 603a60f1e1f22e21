"""Cross-replica operations: vkarray.replicas.broadcast / gather / all_reduce, and the
replicas' concurrency, on the context the arguments name.

usage: python benchmarks/replicas.py [DEVICES] [QUEUES]   e.g. "0,1" (two GPUs), "0,0" (two
logical devices on one), "0" 2 (two queues of one device). Prints one JSON line per case:
the op, bytes per replica, the copy path counts, and the median wall time of 10 runs
(each run forces every replica's copy of the result and waits for all queues).

With two devices, also broadcast and all_reduce of 1 GiB of float32 between them: GB/s of
the array (bytes / median seconds of 7 runs) and of the copies between the devices, with the
path's name, at the default chunking and over a sweep of chunk sizes, slot counts and both
paths (vkarray.replicas.copy_options).
"""

import json
import os
import statistics
import sys
import time

import numpy as np

import vkarray as vk


def bench(fn, runs=10):
    fn()  # compile and warm up
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def cross_device(ctx, devices):
    """broadcast / all_reduce of 1 GiB float32 (VKA_BENCH_XDEV_MIB MiB) between devices 0 and 1
    of ctx."""
    mib = int(os.environ.get("VKA_BENCH_XDEV_MIB", "1024"))
    n = (mib << 20) // 4
    runs = 7
    x = vk.asarray(np.ones(n, dtype=np.float32), context=ctx)
    for r in range(1, ctx.num_replicas):
        x.write(np.full(n, r + 1, dtype=np.float32), r)
    x.eval()
    ctx.synchronize()
    print(json.dumps({"paths": vk.replicas.paths(ctx), "devices": devices}), flush=True)
    default = vk.replicas.copy_options()
    configs = [dict(default)]
    for shared in (True, False):
        for chunk_mib in (8, 32, 64):
            for slots in (2, 3, 4):
                configs.append({"chunk_bytes": chunk_mib << 20, "slots": slots,
                                "shared_host": shared})
    for i, options in enumerate(configs):
        vk.replicas.copy_options(**options)
        path = vk.replicas.paths(ctx)[0]["path"]
        for op in ("broadcast", "all_reduce"):
            def run():
                y = (vk.replicas.broadcast(x, src=0) if op == "broadcast"
                     else vk.replicas.all_reduce(x, "sum"))
                vk.eval(y)
                for r in range(ctx.num_replicas):  # every replica's copy, made on the device
                    (y[:1] * 1).eval(index=r)
                ctx.synchronize()
            c0 = vk.replicas.copy_stats()
            t = bench(run, runs=runs)
            c1 = vk.replicas.copy_stats()
            moved = (c1["host"] - c0["host"]) / (runs + 1) * n * 4  # between devices, per run
            print(json.dumps({
                "op": f"{op} {mib} MiB float32 between devices", "devices": devices,
                "default options": i == 0, "options": options, "path": path,
                "seconds": t, "GB/s": n * 4 / t / 1e9, "GB/s between devices": moved / t / 1e9,
                "paths": {k: c1[k] - c0[k] for k in c1}}), flush=True)
    vk.replicas.copy_options(**default)
    del x
    ctx.synchronize()


def main():
    devices = [int(d) for d in (sys.argv[1] if len(sys.argv) > 1 else "0,0").split(",")]
    queues = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    ctx = vk.Context(devices=devices, queues_per_device=queues)
    n_rep = ctx.num_replicas
    for mib in (1, 16, 256):
        n = mib * (1 << 20) // 4
        x = vk.asarray(np.ones(n, dtype=np.float32), context=ctx)
        for r in range(1, n_rep):
            x.write(np.full(n, r + 1, dtype=np.float32), r)
        x.eval()
        ctx.synchronize()
        for op in ("broadcast", "all_reduce", "gather"):
            def run():
                if op == "broadcast":
                    y = vk.replicas.broadcast(x, src=0)
                elif op == "all_reduce":
                    y = vk.replicas.all_reduce(x, "sum")
                else:
                    y = vk.replicas.gather(x)
                vk.eval(y)
                for r in range(n_rep):  # every replica's copy, made on the device
                    (y[:1] * 1).eval(index=r)
                ctx.synchronize()
            c0 = vk.replicas.copy_stats()
            t = bench(run)
            c1 = vk.replicas.copy_stats()
            print(json.dumps({
                "op": op, "devices": devices, "queues": queues, "bytes": n * 4,
                "seconds": t, "GB/s per replica": n * 4 / t / 1e9,
                "paths": {k: c1[k] - c0[k] for k in c1}}), flush=True)
    if len(devices) > 1:
        cross_device(ctx, devices)
    # Concurrency: the same independent work on every replica, against replica 0 alone.
    x = vk.asarray(np.ones(1 << 24, dtype=np.float32), context=ctx)
    x.eval()

    def work(index):
        y = vk.sin(x) * 2 + 1
        y.eval(index=index)
        ctx.synchronize()
    one = bench(lambda: work(0))
    every = bench(lambda: work(None))
    print(json.dumps({"op": "sin*2+1 (64 MiB)", "devices": devices, "queues": queues,
                      "replica 0 alone s": one, "every replica s": every,
                      "overlap (1 = perfect)": one / every * 1.0}), flush=True)


if __name__ == "__main__":
    main()
