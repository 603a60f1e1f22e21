# As eos_diag5.py (run.py's suite.run, host_access auto), and after each size's timed calls one
# more call under vk.profile: is a slow process's time the kernel's?
import os, statistics, sys, time
sys.path.insert(0, os.path.join(os.getcwd(), "benchmarks"))
import vkarray as vk
import importlib
libs = importlib.import_module("dropin.libs")  # run.py's own modules, as a package
suite = importlib.import_module("dropin.suite")
base_time = suite._time
def _time(lib, module, data, runs, warm_s, budget_s=None):
    out = base_time(lib, module, data, runs, warm_s, budget_s)
    with vk.profile() as prof:
        lib.sync(lib.call(module, data))
    t0 = time.perf_counter(); lib.sync(lib.call(module, data)); wall = time.perf_counter() - t0
    print(f"{sys.argv[1]} size {max(getattr(d, 'size', 0) for d in data)}: timed median "
          f"{statistics.median(out):.3f} ms; profiled call: {prof.count} kernels, GPU "
          f"{prof.total_ns / 1e6:.3f} ms; one more call {wall * 1e3:.3f} ms")
    return out
suite._time = _time
suite.run(["seawater_eos"], ["medium", "large"], ["vkarray-jit"], runs=15, ref_dir=sys.argv[2],
          progress=False)
