# Is the slow state of some processes the kernel itself? Sizes in argv order (run.py's steps),
# then for the last size: 40 timed calls, the GPU time of one call (vk.profile), the pool
# released (Context.release_cached_memory), 40 more calls and a profile again.
import os, statistics, sys, time
sys.path.insert(0, os.path.join(os.getcwd(), "benchmarks", "dropin"))
import numpy
import vkarray as vk
import libs, seawater_eos as m
lib = libs.VkArrayJit()
def timed(data, k):
    ts = []
    for _ in range(k):
        t0 = time.perf_counter(); lib.sync(lib.call(m, data)); ts.append(time.perf_counter() - t0)
    return statistics.median(ts) * 1e3
def gpu(data):
    with vk.profile() as prof:
        lib.sync(lib.call(m, data))
    return prof.total_ns / 1e6
sizes = sys.argv[2].split(",")
for size in sizes:
    host = m.initialize(m.SIZES[size], numpy)
    data = [lib.asarray(d) if isinstance(d, numpy.ndarray) else d for d in host]
    result = lib.call(m, data); lib.sync(result); got = lib.to_numpy(result)
    t_end = time.perf_counter() + 0.3
    while time.perf_counter() < t_end:
        lib.sync(lib.call(m, data))
    a = timed(data, 40)
    g1 = gpu(data)
    del result, got
    if size == sizes[-1]:
        vk.context().release_cached_memory()
        b = timed(data, 40)
        g2 = gpu(data)
        print(f"{sys.argv[1]} {size}: median {a:.3f} ms, kernel {g1:.3f} ms; after releasing the pool: median {b:.3f} ms, kernel {g2:.3f} ms")
    else:
        print(f"{sys.argv[1]} {size}: median {a:.3f} ms, kernel {g1:.3f} ms")
