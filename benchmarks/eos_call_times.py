"""Wall time of single calls of the equation of state at 16M float64 elements (numpy-made
inputs, uploaded), with the previous call's results dropped before each call or kept until
after it: the calls' own times, beside benchmarks/run.py's medians. Nine calls per mode, two
rounds, medians printed.

usage: PYTHONPATH=<vkarray> python3 benchmarks/eos_call_times.py"""
import sys, time, statistics
sys.path.insert(0, "benchmarks/dropin")  # from the repository root
import numpy, vkarray as vk, seawater_eos as m
size = m.SIZES["large"]
args = [vk.asarray(a) if isinstance(a, numpy.ndarray) else a for a in m.initialize(size, numpy)]
def call():
    out = m.kernel(vk, *args)
    vk.eval(*[o for o in out if isinstance(o, vk.ndarray)]); vk.synchronize()
    return out
for mode in ("drop-before", "keep-previous", "drop-before", "keep-previous"):
    prev = call()
    ts = []
    for r in range(9):
        if mode == "drop-before":
            prev = None
        t0 = time.perf_counter(); res = call(); ts.append((time.perf_counter() - t0) * 1e3)
        prev = res
    print(mode, "median %.2f ms" % statistics.median(ts), ["%.2f" % t for t in ts])
