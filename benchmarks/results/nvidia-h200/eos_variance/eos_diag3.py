# benchmarks/run.py's own suite.run for the equation of state through vk.jit, with each call's
# Python call, eval and wait timed and the recordings counted (large size printed).
import os, statistics, sys, time

sys.path.insert(0, os.path.join(os.getcwd(), "benchmarks"))
import vkarray as vk
from vkarray import _vkarray
import importlib
libs = importlib.import_module("dropin.libs")  # run.py's own modules, as a package
suite = importlib.import_module("dropin.suite")
orig = _vkarray._Trace
rec = [0]
class Counted:
    def __init__(self, *a):
        rec[0] += 1
        self.t = orig(*a)
    def __getattr__(self, k):
        return getattr(self.t, k)
_vkarray._Trace = Counted
log = []
base_call, base_sync = libs.VkArrayJit.call, libs.VkArrayJit.sync
def call(self, module, data):
    r0 = rec[0]; t0 = time.perf_counter(); out = base_call(self, module, data)
    log.append([time.perf_counter() - t0, rec[0] - r0, max(getattr(d, "size", 0) for d in data)]); return out
def sync(self, result):
    arrays = [r for r in libs._items(result) if isinstance(r, vk.ndarray)]
    t0 = time.perf_counter(); vk.eval(*arrays); t1 = time.perf_counter(); vk.synchronize(); t2 = time.perf_counter()
    if log: log[-1] += [t1 - t0, t2 - t1]
libs.VkArrayJit.call, libs.VkArrayJit.sync = call, sync
records, notes = suite.run(["seawater_eos"], [s for s in sys.argv[3].split(",")], ["vkarray-jit"], runs=15,
                           ref_dir=sys.argv[2], progress=False)
for r in records:
    print(sys.argv[1], r["size"], "median", round(r["median_ms"], 3), "recordings", rec[0])
large = [e for e in log if len(e) == 5 and e[2] > int(sys.argv[4])]
print(sys.argv[1], "large calls", len(large), "recording calls", sum(e[1] for e in large))
def seg(es):
    return " ".join(f"{(e[0]+e[3]+e[4])*1e3:.2f}[{e[0]*1e3:.2f}/{e[3]*1e3:.2f}/{e[4]*1e3:.2f}]" for e in es)
print(sys.argv[1], "first 6 large:", seg(large[:6]))
print(sys.argv[1], "last 6 large:", seg(large[-6:]))
