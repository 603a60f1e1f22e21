"""vkarray chunks on a dask.distributed LocalCluster with one worker per device.

1. The test suite's chunked pipeline (elementwise chain, tree reductions, matmul, slicing,
   concatenate, rechunk) on all the workers, checked against numpy.
2. A bandwidth-bound workload: 2^LOG2N float32 values made on the devices in CHUNKS chunks
   (persisted on the workers), then ((x * 2 + 1) * x - 3).sum(), whose chain fuses into each
   chunk's reduction kernel, and the same reduction PASSES times in each chunk task (so that
   device time, not dask's per-task overhead, dominates); medians of REPEATS runs with
   1 worker (device 0) and with one worker per device, and the speedups.

usage: python3 benchmarks/dask_bench.py [--log2n 30] [--chunks 16] [--workers 1,2]
         [--repeats 5] [--pipeline-scale 10] [--passes 32] [--markdown OUT.md]
Prints JSON lines; with --markdown also writes a table.
"""

import argparse
import collections
import json
import statistics
import sys
import time

import numpy as np


def make_chunk(block_info=None):
    """One chunk of the workload, made on the worker's device: values in [0, 1], evaluated into
    device memory (a lazy linspace would fuse into every reduction over it, which would then
    read no memory at all)."""
    import vkarray as vk
    n = block_info[None]["chunk-shape"][0]
    return vk.linspace(0, 1, n, dtype=vk.float32).eval()


def expected_total(chunk_sizes):
    """The workload's sum in float64 over numpy's float32 linspace of each chunk."""
    total = 0.0
    for n, count in collections.Counter(chunk_sizes).items():
        x = np.linspace(0, 1, n, dtype=np.float32).astype(np.float64)
        total += count * ((x * 2 + 1) * x - 3).sum()
    return total


def start_cluster(n_workers):
    import dask
    import distributed
    import vkarray.dask as vkd
    # A stolen task takes its chunk along: 1 GiB through both hosts' memory and onto another
    # GPU, far slower than waiting for the worker that holds it.
    dask.config.set({"distributed.scheduler.work-stealing": False})
    cluster = distributed.LocalCluster(n_workers=n_workers, processes=True,
                                       threads_per_worker=1, host="127.0.0.1",
                                       dashboard_address=None, memory_limit=0)
    client = distributed.Client(cluster)
    register = getattr(client, "register_plugin", None) or client.register_worker_plugin
    register(vkd.DevicePlugin())
    return cluster, client


def worker_devices(client):
    import vkarray as vk

    def bound(dask_worker):
        return dask_worker.vkarray_device, vk.context().replicas[0].device_name

    return sorted(client.run(bound).values())


def pipeline_check(client, scale):
    """The pipeline of tests/python/dask_test.py, `scale` times larger along each axis;
    returns the names of the results that differ from numpy's."""
    import dask
    import dask.array as da
    import vkarray.dask as vkd
    rng = np.random.default_rng(10)
    m, k, n = 300 * scale, 257 * scale, 41 * scale
    x, y, w = rng.standard_normal((m, k)), rng.standard_normal((m, k)), rng.standard_normal((k, n))
    xd, yd = vkd.from_numpy(x, chunks=(100 * scale, 90 * scale)), vkd.from_numpy(
        y, chunks=(100 * scale, 90 * scale))
    wd = vkd.from_numpy(w, chunks=(90 * scale, n))
    z = (xd * 2 + yd) * xd - da.sin(yd)
    zn = (x * 2 + y) * x - np.sin(y)
    cases = {
        "elementwise chain": (z, zn), "sum (tree)": (z.sum(split_every=2), zn.sum()),
        "mean axis 0": (z.mean(axis=0), zn.mean(axis=0)), "std": (xd.std(), x.std()),
        "matmul": (xd @ wd, x @ w), "slicing": (z[5:-50:3, ::-1], zn[5:-50:3, ::-1]),
        "concatenate": (da.concatenate([xd, yd], axis=1), np.concatenate([x, y], 1)),
        "rechunk": (z.rechunk((m, 40 * scale)), zn),
    }
    results = dask.compute(*[c[0] for c in cases.values()])
    failures = []
    for (name, (_, want)), got in zip(cases.items(), results):
        got = got.get()
        if got.shape != np.shape(want) or not np.allclose(got, want, rtol=1e-9, atol=1e-9):
            failures.append(name)
    return failures


def _same(b):
    """The chunk itself (a renaming layer: see bandwidth)."""
    return b


def chunk_passes(b, passes=1):
    """`passes` fused chain+sum reductions of chunk b (constants differ, so none is shared):
    each reads the whole chunk once. A 1-element array."""
    total = None
    for k in range(passes):
        s = ((b * 2 + 1) * b - (3 + k)).sum(keepdims=True)
        total = s if total is None else total + s
    return total


def bandwidth(client, log2n, chunks, repeats, passes):
    """Medians for the dask expression (one pass) and for `passes` passes per chunk task:
    {workload: (median s, best s, bytes read, relative error of the first result, chunks held
    by each worker)}."""
    import dask.array as da
    import distributed
    import vkarray as vk
    n = 1 << log2n
    size = -(-n // chunks)
    sizes = (size,) * (n // size) + ((n % size,) if n % size else ())
    x = da.map_blocks(make_chunk, chunks=(sizes,), dtype=np.float32,
                      meta=vk.empty((0,), dtype=vk.float32))
    x = x.persist()
    distributed.wait(x)
    holders = collections.Counter(w for ws in client.who_has(x).values() for w in ws)
    spread = sorted(holders.values(), reverse=True)
    want_one = expected_total(sizes)
    want_many = sum(want_one - k * n for k in range(passes))

    def fresh(rep):
        # x under a new name per compute: identical keys would let the scheduler hand back a
        # result still held from the compute before, and time nothing.
        return x.map_blocks(_same, dtype=np.float32, meta=x._meta,
                            name=f"x-{rep}-{time.time_ns()}")

    exprs = [("chain+sum", lambda xx: ((xx * 2 + 1) * xx - 3).sum(), want_one, 4 * n),
             (f"{passes} passes per chunk task",
              lambda xx: xx.map_blocks(chunk_passes, passes, chunks=((1,) * len(sizes),),
                                       dtype=np.float32).sum(), want_many, 4 * n * passes)]
    out = {}
    for name, build, want, reads in exprs:
        got = float(build(fresh(-1)).compute().get())  # warm-up: compiles the kernels
        times = []
        for rep in range(repeats):
            expr = build(fresh(rep))
            t = time.perf_counter()
            # compute() hands back the result's array as soon as its kernels are submitted:
            # the value on the host is what ends the timed region.
            float(expr.compute().get())
            times.append(time.perf_counter() - t)
        out[name] = (statistics.median(times), min(times), reads, abs(got - want) / abs(want),
                     spread)
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--log2n", type=int, default=30)
    p.add_argument("--chunks", type=int, default=16)
    p.add_argument("--workers", default="1,2")
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--pipeline-scale", type=int, default=10)
    p.add_argument("--passes", type=int, default=32)
    p.add_argument("--markdown")
    args = p.parse_args()
    import dask
    import distributed
    import vkarray as vk
    rows = []
    pipeline = None
    for n_workers in [int(w) for w in args.workers.split(",")]:
        cluster, client = start_cluster(n_workers)
        try:
            devices = worker_devices(client)
            if pipeline is None and n_workers > 1:
                failures = pipeline_check(client, args.pipeline_scale)
                pipeline = {"workers": n_workers, "devices": devices, "failures": failures}
                print(json.dumps({"pipeline": pipeline}), flush=True)
            results = bandwidth(client, args.log2n, args.chunks, args.repeats, args.passes)
        finally:
            client.close()
            cluster.close()
        for workload, (median, best, reads, rel_err, spread) in results.items():
            row = {"workload": workload, "workers": n_workers,
                   "devices": [d[0] for d in devices], "log2n": args.log2n,
                   "chunks": args.chunks, "chunks_per_worker": spread, "median_s": median,
                   "best_s": best, "GBps": reads / median / 1e9, "rel_err": rel_err}
            rows.append(row)
            print(json.dumps(row), flush=True)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(f"dask {dask.__version__}, distributed {distributed.__version__}, "
                    f"vkarray {vk.__version__}, Python {sys.version.split()[0]}\n\n")
            if pipeline:
                status = "all match numpy" if not pipeline["failures"] else \
                    "MISMATCH: " + ", ".join(pipeline["failures"])
                f.write(f"Pipeline on {pipeline['workers']} workers (devices "
                        f"{[d[0] for d in pipeline['devices']]}, "
                        f"{pipeline['devices'][0][1]}): {status}.\n\n")
            f.write(f"x: 2^{args.log2n} float32 ({(4 << args.log2n) / 2**30:g} GiB) in "
                    f"{args.chunks} chunks made and persisted on the workers. chain+sum: "
                    f"((x * 2 + 1) * x - 3).sum() as a dask expression (one pass over x); "
                    f"passes: each chunk task runs that reduction {args.passes} times with "
                    f"different constants. Median of {args.repeats} computes, wall clock on the "
                    f"client; GB/s counts the bytes of x read.\n\n")
            f.write("| workload | workers (devices) | chunks per worker | median s | best s | "
                    "GB/s | speedup | rel. error |\n|---|---|---|---|---|---|---|---|\n")
            for r in rows:
                base = next(b for b in rows if b["workload"] == r["workload"])["median_s"]
                f.write(f"| {r['workload']} | {r['workers']} "
                        f"({','.join(map(str, r['devices']))}) | "
                        f"{'+'.join(map(str, r['chunks_per_worker']))} | {r['median_s']:.4f} | "
                        f"{r['best_s']:.4f} | {r['GBps']:.1f} | {base / r['median_s']:.2f} | "
                        f"{r['rel_err']:.1e} |\n")
    return 1 if pipeline and pipeline["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
