"""Per-kernel GPU time of one call of drop-in programs (vk.profile): each program's kernels, their
bytes and bandwidth, after two untimed calls (compiles, plans).

usage: PYTHONPATH=<vkarray> python3 benchmarks/profile_program.py PROGRAM:SIZE [...]
The device idles before the profiled call, so its clocks may be below a busy loop's: compare
kernels with each other, and totals with a benchmark's wall time."""

import importlib
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "dropin"))

import numpy  # noqa: E402

import vkarray as vk  # noqa: E402


def main(specs):
    for spec in specs:
        name, size = spec.split(":")
        mod = importlib.import_module(name)
        # Inputs made by numpy and uploaded, as benchmarks/run.py does (made by vkarray's
        # random functions they would stay lazy and be generated inside the kernels).
        args = [vk.asarray(a) if isinstance(a, numpy.ndarray) else a
                for a in mod.initialize(mod.SIZES[size], numpy)]

        def call():
            out = mod.kernel(vk, *args)
            items = out if isinstance(out, (tuple, list)) else [out]
            vk.eval(*[o for o in items if isinstance(o, vk.ndarray)])

        call()
        call()
        vk.synchronize()
        with vk.profile() as prof:
            call()
            vk.synchronize()
        print(f"## {spec}: GPU {prof.total_ns / 1e6:.3f} ms, {prof.count} kernels")
        print(prof.table(), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
