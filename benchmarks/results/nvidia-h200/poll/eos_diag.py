# run.py's steps for the equation of state at large size through vk.jit, each timed call split
# into call, eval and wait, and the drop of the result.
import os, statistics, sys, time
sys.path.insert(0, os.path.join(os.getcwd(), "benchmarks", "dropin"))
import numpy
import vkarray as vk
import libs, seawater_eos as m
check = sys.argv[1] == "check"
lib = libs.VkArrayJit()
host = m.initialize(m.SIZES["large"], numpy)
data = [lib.asarray(d) if isinstance(d, numpy.ndarray) else d for d in host]
result = lib.call(m, data); lib.sync(result)
if check:
    got = lib.to_numpy(result)
lib.sync(lib.call(m, data))
t_end = time.perf_counter() + 0.3
while time.perf_counter() < t_end:
    lib.sync(lib.call(m, data))
rows = []
for _ in range(15):
    t0 = time.perf_counter(); out = lib.call(m, data); t1 = time.perf_counter()
    vk.eval(*out); t2 = time.perf_counter(); vk.synchronize(); t3 = time.perf_counter()
    del out; t4 = time.perf_counter()
    rows.append((t1 - t0, t2 - t1, t3 - t2, t4 - t3, t4 - t0))
med = [statistics.median(r[i] for r in rows) * 1e3 for i in range(5)]
print(f"{sys.argv[1]}: call {med[0]:.3f} eval {med[1]:.3f} wait {med[2]:.3f} drop {med[3]:.3f} total {med[4]:.3f} | totals " +
      " ".join(f"{r[4]*1e3:.2f}" for r in rows))
