"""Where one call of a drop-in program goes, called plainly and through vk.jit: the Python call
(graph building, or a replay), vk.eval (scheduling, recording, submission) and the wait for the
device, each a median (and quartiles) of calls interleaved between the modes, with numpy-made
inputs uploaded as benchmarks/run.py makes them. The results of each call are dropped before
the next, as run.py drops them.

usage: PYTHONPATH=<vkarray> python3 benchmarks/jit_call_times.py PROGRAM:SIZE [...] [--calls N]"""

import argparse
import importlib
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "dropin"))

import numpy  # noqa: E402

import vkarray as vk  # noqa: E402


def quartiles(ts):
    q = statistics.quantiles(ts, n=4)
    return f"{statistics.median(ts):8.3f} ({q[0]:.3f}-{q[2]:.3f})"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("specs", nargs="+")
    ap.add_argument("--calls", type=int, default=30)
    args = ap.parse_args()
    for spec in args.specs:
        name, size = spec.split(":")
        mod = importlib.import_module(name)
        data = [vk.asarray(a) if isinstance(a, numpy.ndarray) else a
                for a in mod.initialize(mod.SIZES[size], numpy)]
        modes = {"plain": lambda *a: mod.kernel(vk, *a),
                 "jit": vk.jit(lambda *a: mod.kernel(vk, *a))}
        parts = {m: {"call": [], "eval": [], "wait": [], "total": []} for m in modes}
        for rep in range(args.calls + 2):  # two untimed rounds: compiles, the recording
            for m, fn in modes.items():
                t0 = time.perf_counter()
                out = fn(*data)
                t1 = time.perf_counter()
                items = out if isinstance(out, (tuple, list)) else [out]
                vk.eval(*[o for o in items if isinstance(o, vk.ndarray)])
                t2 = time.perf_counter()
                vk.synchronize()
                t3 = time.perf_counter()
                del out, items
                if rep >= 2:
                    for k, v in (("call", t1 - t0), ("eval", t2 - t1), ("wait", t3 - t2),
                                 ("total", t3 - t0)):
                        parts[m][k].append(v * 1e3)
        with vk.profile() as prof:
            out = modes["jit"](*data)
            vk.eval(*(out if isinstance(out, (tuple, list)) else [out]))
            vk.synchronize()
        print(f"## {spec}: {args.calls} calls each, ms: median (quartiles); GPU time of one "
              f"call {prof.total_ns / 1e6:.3f} ms in {prof.count} kernels")
        for m in modes:
            print(f"{m:6s} " + "  ".join(f"{k} {quartiles(v)}" for k, v in parts[m].items()))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
