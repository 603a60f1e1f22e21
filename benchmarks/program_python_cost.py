"""The share of a drop-in program's graph building that is the program's own Python: the
equation of state run with Python floats for its arrays (its loops, generator expressions and
coefficient tables, with every array operation a float operation) against the same call building
vkarray's graph (no evaluation). Medians of 200 and 50 calls.

usage: PYTHONPATH=<vkarray> python3 benchmarks/program_python_cost.py"""

import math
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "dropin"))

import seawater_eos  # noqa: E402
import vkarray as vk  # noqa: E402


class FloatModule:
    sqrt = staticmethod(math.sqrt)


def median_ms(fn, runs):
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e3


def main():
    floats = median_ms(lambda: seawater_eos.kernel(FloatModule, 35.0, 10.0, 100.0), 200)
    args = seawater_eos.initialize(seawater_eos.SIZES["small"], vk)
    build = median_ms(lambda: seawater_eos.kernel(vk, *args), 50)
    print(f"seawater_eos: the program's Python with floats {floats:.3f} ms, "
          f"building vkarray's graph {build:.3f} ms ({floats / build:.0%} of it)")


if __name__ == "__main__":
    main()
