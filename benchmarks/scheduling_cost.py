"""Scheduling time per graph node, as VKA_DEBUG=2 reports it, with schedule reuse off
(VKA_PLAN_CACHE=0), for drop-in programs: each program's kernel runs 7 times at a size
(default small) and the medians over the calls after the first are printed, the nodes of a call
summed over its evaluations. Issue 20 asks for at most 2 us a node on the development machine.

usage: python3 benchmarks/scheduling_cost.py PROGRAM[,PROGRAM...] [SIZE]
(run from the repository root, with the vkarray package on PYTHONPATH)"""

import os
import re
import statistics
import subprocess
import sys

CODE = r"""
import sys
sys.path.insert(0, "benchmarks")
import importlib, numpy, vkarray as vk
m = importlib.import_module("dropin." + sys.argv[1])
size = m.SIZES[sys.argv[2]]
args = [vk.asarray(x) if isinstance(x, numpy.ndarray) else x for x in m.initialize(size, numpy)]
for _ in range(7):
    r = m.kernel(vk, *args)
    for x in (r if isinstance(r, tuple) else (r,)):
        x.eval() if hasattr(x, "eval") else float(x)
    print("---", file=sys.stderr)
"""


def per_node(program, size):
    env = dict(os.environ, VKA_DEBUG="2", VKA_PLAN_CACHE="0")
    err = subprocess.run([sys.executable, "-c", CODE, program, size], env=env,
                         capture_output=True, text=True).stderr
    calls = []
    for call in err.split("---")[1:-1]:
        rows = re.findall(r"schedule ([\d.]+) us \(([\d.]+) us/node\)", call)
        us = sum(float(t) for t, _ in rows)
        nodes = sum(float(t) / float(p) for t, p in rows if float(p) > 0)
        if nodes:
            calls.append((us / nodes, nodes))
    return calls


def main():
    programs = sys.argv[1].split(",")
    size = sys.argv[2] if len(sys.argv) > 2 else "small"
    for p in programs:
        calls = per_node(p, size)
        if not calls:
            print(f"{p:24s} no scheduling reported")
            continue
        med = statistics.median(c for c, _ in calls)
        print(f"{p:24s} {med:.2f} us/node (median of {len(calls)} calls, "
              f"{calls[0][1]:.0f} nodes a call)")


if __name__ == "__main__":
    main()
