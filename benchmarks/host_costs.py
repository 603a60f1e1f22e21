"""Where one call of a drop-in program spends its time on the host: building the lazy graph (the
numpy-level operations), evaluating it (vk.eval: scheduling, kernel lookup, recording and
submission) and waiting for the device, as medians of several calls, with the process's CPU time
beside the wall time and, once, realize()'s own stages (VKA_DEBUG=2) and the busiest Python-level
functions (cProfile) of the build.

usage: PYTHONPATH=<vkarray> python3 benchmarks/host_costs.py [PROGRAM[:SIZE] ...]
  (default: seawater_eos:medium horner60:medium small_op_chain:medium zero_d_accumulate:medium
  element_writes:large); with VKA_DEBUG=2 in the environment, one call of each program only,
  for realize()'s stages (the level is read once per process)."""

import cProfile
import importlib
import io
import os
import pstats
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "dropin"))

import numpy  # noqa: E402

import vkarray as vk  # noqa: E402


def arrays(result):
    items = result if isinstance(result, (tuple, list)) else [result]
    return [r for r in items if isinstance(r, vk.ndarray)]


def measure(name, size_name, runs=7):
    mod = importlib.import_module(name)
    size = mod.SIZES[size_name]
    # numpy makes the inputs and they are uploaded, as benchmarks/run.py does: made by
    # vkarray's own random functions they would stay lazy and be generated in every call.
    args = [vk.asarray(a) if isinstance(a, numpy.ndarray) else a
            for a in mod.initialize(size, numpy)]
    if os.environ.get("VKA_DEBUG") == "2":
        print(f"== {name}:{size_name}", file=sys.stderr, flush=True)
        vk.eval(*arrays(mod.kernel(vk, *args)))
        vk.synchronize()
        return
    ops_iter = mod.iterations(size) if hasattr(mod, "iterations") else None
    out = mod.kernel(vk, *args)  # compile and cache
    vk.eval(*arrays(out))
    vk.synchronize()
    rows = {"build": [], "eval": [], "wait": [], "cpu": []}
    for _ in range(runs):
        c0, t0 = time.process_time(), time.perf_counter()
        out = mod.kernel(vk, *args)
        t1 = time.perf_counter()
        vk.eval(*arrays(out))
        t2 = time.perf_counter()
        vk.synchronize()
        t3, c3 = time.perf_counter(), time.process_time()
        rows["build"].append((t1 - t0) * 1e3)
        rows["eval"].append((t2 - t1) * 1e3)
        rows["wait"].append((t3 - t2) * 1e3)
        rows["cpu"].append((c3 - c0) * 1e3)
    med = {k: statistics.median(v) for k, v in rows.items()}
    k0 = vk.kernel_count()
    out = mod.kernel(vk, *args)
    vk.eval(*arrays(out))
    vk.synchronize()
    kernels = vk.kernel_count() - k0
    per = f", {med['build'] * 1e3 / ops_iter:.2f} us build per iteration" if ops_iter else ""
    print(f"{name}:{size_name}: build {med['build']:.3f} ms, eval {med['eval']:.3f} ms, "
          f"wait {med['wait']:.3f} ms, process CPU {med['cpu']:.3f} ms, {kernels} kernel(s)"
          f"{per}", flush=True)
    # The build's busiest Python-level functions.
    prof = cProfile.Profile()
    prof.enable()
    out = mod.kernel(vk, *args)
    prof.disable()
    vk.eval(*arrays(out))
    vk.synchronize()
    text = io.StringIO()
    pstats.Stats(prof, stream=text).sort_stats("tottime").print_stats(8)
    print("\n".join(text.getvalue().splitlines()[:24]), flush=True)


def main(specs):
    for spec in specs or ["seawater_eos:medium", "horner60:medium", "small_op_chain:medium",
                          "zero_d_accumulate:medium", "element_writes:large"]:
        name, _, size = spec.partition(":")
        measure(name, size or "medium")


if __name__ == "__main__":
    main(sys.argv[1:])
