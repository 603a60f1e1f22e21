"""Cross-replica operations: vkarray.replicas.broadcast / gather / all_reduce, and the
replicas' concurrency, on the context the arguments name.

usage: python benchmarks/replicas.py [DEVICES] [QUEUES]   e.g. "0,1" (two GPUs), "0,0" (two
logical devices on one), "0" 2 (two queues of one device). Prints one JSON line per case:
the op, bytes per replica, the copy path counts, and the median wall time of 10 runs
(each run forces every replica's copy of the result and waits for all queues).
"""

import json
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
