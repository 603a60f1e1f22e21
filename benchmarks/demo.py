#!/usr/bin/env python3
"""`make demo`: the drop-in numpy programs, unchanged, on numpy and on vkarray on this machine's
default device at each program's demo size, then the committed GPU results.

  benchmarks/demo.py                      # every program with a demo size (~2 minutes on
                                          # lavapipe, 2 cores)
  benchmarks/demo.py --programs black_scholes,kmeans --runs 3
  benchmarks/demo.py --json /tmp/demo.json  # also keep the records (benchmarks/run.py --merge)

Prints, for each program: numpy's and vkarray's median time per call, vkarray's speedup (or
slowdown) in words, the numpy-level operations one call issues next to the kernels vkarray
dispatches for it, and whether the result matches numpy's. Then the table of the committed
results of the same programs on an NVIDIA H200 (vkarray, CuPy, PyTorch against numpy), read
from benchmarks/results/nvidia-h200/dropin/results.json, and a summary of both.
"""

import argparse
import datetime
import json
import math
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from benchmarks.dropin import PROGRAMS, load, report, suite  # noqa: E402

GPU_RESULTS = os.path.join("benchmarks", "results", "nvidia-h200", "dropin", "results.json")
PEERS = ["vkarray", "cupy", "torch"]
PEER_NAMES = {"numpy": "numpy", "vkarray": "vkarray", "cupy": "CuPy", "torch": "PyTorch"}


def table(header, rows, right=()):
    """A markdown table padded to aligned columns (readable on a terminal as it is);
    columns whose index is in `right` are right-aligned (numbers)."""
    cells = [[str(c) for c in header]] + [[str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]

    def line(r):
        return "| " + " | ".join(c.rjust(w) if i in right else c.ljust(w)
                                 for i, (c, w) in enumerate(zip(r, widths))) + " |"

    rule = "|" + "|".join(("-" * (w + 1) + ":") if i in right else "-" * (w + 2)
                          for i, w in enumerate(widths)) + "|"
    return "\n".join([line(cells[0]), rule] + [line(r) for r in cells[1:]])


def ms(v):
    return "-" if v is None else f"{v:.3g}" if v < 100 else f"{v:.0f}"


def times(speedup):
    """A speedup factor: '2240x', '3.7x', '0.0834x'."""
    return f"{speedup:.0f}x" if speedup >= 100 else f"{speedup:.3g}x"


def versus(speedup):
    """A speedup over numpy in words: '3.1x faster', '12x slower'."""
    if speedup is None:
        return "-"
    if speedup >= 1:
        return f"{speedup:.3g}x faster" if speedup < 10 else f"{speedup:.0f}x faster"
    slow = 1 / speedup
    return f"{slow:.3g}x slower" if slow < 10 else f"{slow:.0f}x slower"


def size_text(value):
    """A program's size parameters, as its module's SIZES writes them."""
    if isinstance(value, (list, tuple)):
        return "(" + ", ".join(size_text(v) for v in value) + ")"
    return f"{value:_}" if isinstance(value, int) else str(value)


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def local_section(results, device, on_cpu=False, runs=5, budget=2.0):
    """The table of this run: one row per program."""
    recs = {(r["program"], r["lib"]): r for r in results["records"]}
    rows = []
    for name in dict.fromkeys(r["program"] for r in results["records"]):
        base, vk = recs.get((name, "numpy"), {}), recs.get((name, "vkarray"), {})
        if not vk:
            state = "not run"
        elif vk.get("error"):
            state = "error: " + vk["error"][:60]
        else:
            state = "matches" if vk.get("ok") else "**DIFFERS**: " + vk.get("detail", "")[:60]
        rows.append([name, size_text(vk.get("size_value", base.get("size_value"))),
                     ms(base.get("median_ms")), ms(vk.get("median_ms")),
                     versus(vk.get("speedup") if vk.get("ok") else None),
                     "-" if base.get("numpy_ops") is None else base["numpy_ops"],
                     "-" if vk.get("kernels") is None else vk["kernels"], state])
    header = ["program", "demo size", "numpy ms", "vkarray ms", "vkarray vs numpy",
              "numpy ops/call", "vkarray kernels/call", "result"]
    cpu_note = ([f"The default device is a CPU Vulkan driver: vkarray's kernels run on the "
                 f"same {os.cpu_count()} cores as numpy (which uses one for most operations). "
                 "Fusion pays here only where numpy's passes over memory cost more than a fused "
                 "kernel's work; a GPU is what vkarray is for (the next table).", ""]
                if on_cpu else [])
    return "\n".join([
        f"## On this machine: {device}", ""] + cpu_note + [
        f"Median ms per call of {suite.MIN_RUNS}-{runs} timed calls (fewer where they take over "
        f"{budget:g} s), after one checked call and one counted call; vkarray's calls end with "
        "its device synchronized. numpy ops/call: the numpy-level operations one "
        "call issues, each a separate pass over memory; vkarray kernels/call: what vkarray "
        "dispatches for the same call after fusing them. result: vkarray's answer against "
        "numpy's, with the program's tolerance.", "",
        table(header, rows, right=(2, 3, 4, 5, 6))])


def local_summary(results, device):
    """One honest line: the geometric mean and which programs are faster or slower."""
    vk = [r for r in results["records"] if r["lib"] == "vkarray"]
    good = [r for r in vk if r["ok"] and r.get("speedup")]
    if not good:
        return f"On this machine ({device}): no program ran correctly on vkarray."
    faster = sorted((r for r in good if r["speedup"] >= 1), key=lambda r: -r["speedup"])
    slower = sorted((r for r in good if r["speedup"] < 1), key=lambda r: r["speedup"])
    g = geomean([r["speedup"] for r in good])
    text = (f"On this machine ({device}): vkarray's geometric-mean speedup over numpy is "
            f"{g:.2g}x ({versus(g)}) over {len(good)} programs. "
            + (f"Faster on {len(faster)}: " + ", ".join(
                f"{r['program']} ({r['speedup']:.3g}x)" for r in faster) + ". "
               if faster else "Faster on none. ")
            + (f"Slower on {len(slower)}: " + ", ".join(r["program"] for r in slower) + "."
               if slower else "Slower on none."))
    wrong = [r["program"] for r in vk if not r["ok"]]
    if wrong:
        text += f" Wrong result or error on {len(wrong)}: {', '.join(wrong)}."
    return text


def _device_name(meta):
    """The GPU's name from a committed run's device line ("... 'NVIDIA H200' ..." or
    "CUDA: NVIDIA H200")."""
    for m in meta:
        found = re.search(r"device \d+ '([^']+)'", m.get("device", "")) or re.search(
            r"CUDA: ([^;]+)", m.get("device", ""))
        if found:
            return found.group(1).strip()
    return "GPU"


def read_gpu_results(path):
    """The committed results file, with speedups: {"records", "meta", ...}."""
    with open(path) as f:
        return report.with_speedups(json.load(f))


def gpu_geomeans(results):
    """{size: (programs every library ran correctly, {lib: geomean speedup over them})}: one
    common set of programs per size, so that the libraries are compared on the same work."""
    recs = {(r["program"], r["size"], r["lib"]): r for r in results["records"]}
    libs = [lib for lib in PEERS if any(r["lib"] == lib for r in results["records"])]
    out = {}
    for size in report.SIZE_ORDER:
        programs = list(dict.fromkeys(p for (p, s, _) in recs if s == size))
        common = [p for p in programs if all(recs.get((p, size, lib), {}).get("ok") and
                                             recs[(p, size, lib)].get("speedup")
                                             for lib in libs)]
        if common:
            out[size] = (common, {lib: geomean([recs[(p, size, lib)]["speedup"]
                                                for p in common]) for lib in libs})
    return out


def gpu_section(path, size="large"):
    """The committed GPU table: per program at `size`, numpy's time and each library's time
    and speedup, vkarray's kernels next to numpy's operations; then geometric means."""
    results = read_gpu_results(path)
    meta = results.get("meta", [])
    recs = {(r["program"], r["size"], r["lib"]): r for r in results["records"]}
    libs = [lib for lib in PEERS if any(r["lib"] == lib for r in results["records"])]
    dates = sorted({m["date"].split()[0] for m in meta if m.get("date")})
    rel = os.path.relpath(path, ROOT) if os.path.isabs(path) else path
    lines = [f"## On an {_device_name(meta)} (committed results, {rel}, "
             f"{', '.join(dates) or 'undated'})", ""]
    for m in meta:
        lines.append(f"- {m.get('date', '')}: `{m.get('command', '')}` ({m.get('device', '')})")
    rows = []
    for name in dict.fromkeys(r["program"] for r in results["records"] if r["size"] == size):
        base = recs.get((name, size, "numpy"), {})
        row = [name, ms(base.get("median_ms"))]
        for lib in libs:
            r = recs.get((name, size, lib))
            if r is None:
                row.append("-")
            elif not r["ok"]:
                row.append("differs" if not r.get("error") else "error")
            else:
                row.append(f"{ms(r.get('median_ms'))} ({times(r['speedup'])})"
                           if r.get("speedup") else ms(r.get("median_ms")))
        vk = recs.get((name, size, "vkarray"), {})
        row.append(f"{vk['kernels']} ({base.get('numpy_ops', '-')})"
                   if vk.get("kernels") is not None else "-")
        rows.append(row)
    header = (["program", "numpy ms"] + [f"{PEER_NAMES[lib]} ms (speedup)" for lib in libs]
              + ["vkarray kernels (numpy ops)"])
    lines += ["", f"Each program at its {size} size (SIZES['{size}'] in its module), median ms "
              "per call with the device synchronized; speedup over numpy on the same machine's "
              "CPU cores. 'differs': the result did not match numpy's.", "",
              table(header, rows, right=tuple(range(1, len(header))))]
    gm = gpu_geomeans(results)
    if gm:
        gm_rows = [[s, len(common)] + [times(g[lib]) for lib in libs]
                   for s, (common, g) in gm.items()]
        lines += ["", "Geometric-mean speedup over numpy, over the programs every library ran "
                  "correctly:", "",
                  table(["size", "programs"] + [PEER_NAMES[lib] for lib in libs], gm_rows,
                        right=tuple(range(1, 2 + len(libs))))]
    return "\n".join(lines), results


def gpu_summary(results, size="large"):
    gm = gpu_geomeans(results)
    if size not in gm:
        return ""
    common, g = gm[size]
    name = _device_name(results.get("meta", []))
    return (f"On the {name} (committed), at {size} size: " + ", ".join(
        f"{PEER_NAMES[lib]} {times(v)}" for lib, v in g.items()) + f" over numpy "
        f"(geometric means over {len(common)} programs).")


def this_device():
    """(vkarray's default device in words, whether it is a CPU driver such as lavapipe)."""
    import numpy
    cpus = f"numpy {numpy.__version__}, {os.cpu_count()} CPU cores"
    try:
        import vkarray
        dev = vkarray.context().devices[0]
    except Exception as e:  # noqa: BLE001  the suite then skips vkarray and says why
        return f"vkarray unavailable ({type(e).__name__}: {e}); {cpus}", False
    if dev.get("is_cpu"):
        return f"vkarray on {dev['name']}, a CPU Vulkan driver; {cpus}", True
    return f"vkarray on {dev['name']} ({dev['driver']}); {cpus}", False


def demo_programs():
    """The programs `make demo` runs: those of the registry that name a demo size (a program
    named with --programs but without one runs its medium size)."""
    return [p for p in PROGRAMS if "demo" in load(p).SIZES]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--programs", default="all",
                    help="comma-separated names, or all: every program with a demo size")
    ap.add_argument("--runs", type=int, default=5, help="timed calls per measurement (median)")
    ap.add_argument("--budget", type=float, default=2.0,
                    help="seconds of timed calls per measurement after which no more are made, "
                    f"once {suite.MIN_RUNS} are (default 2: keeps the demo near two minutes on "
                    "lavapipe)")
    ap.add_argument("--warmup", type=float, default=0.0,
                    help="seconds of untimed calls before the timed ones, beyond the checked "
                    "and the counted call (default 0)")
    ap.add_argument("--gpu-results", default=os.path.join(ROOT, GPU_RESULTS),
                    help="the committed GPU results shown after this machine's")
    ap.add_argument("--json", help="also write this run's records here")
    ap.add_argument("--no-progress", action="store_true")
    args = ap.parse_args(argv)

    programs = demo_programs() if args.programs == "all" else args.programs.split(",")
    unknown = [p for p in programs if p not in PROGRAMS]
    if unknown or args.runs < 1:
        ap.error(f"unknown programs {unknown} (or --runs < 1)")
    device, on_cpu = this_device()
    print(f"vkarray demo: {len(programs)} numpy programs, unchanged, on numpy and on vkarray "
          "(each program's demo size: SIZES['demo'] in benchmarks/dropin/<program>.py).",
          flush=True)
    records, notes = suite.run(programs, ["demo"], ["numpy", "vkarray"], args.runs,
                               args.warmup, progress=not args.no_progress,
                               budget_s=args.budget)
    meta = {"command": " ".join(["benchmarks/demo.py"] + sys.argv[1:]),
            "date": datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M UTC"),
            "python": sys.version.split()[0], "libs": ["numpy", "vkarray"], "device": device}
    results = report.with_speedups(report.merge([{"records": records, "notes": notes,
                                                  "meta": meta}]))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    print()
    print(local_section(results, device, on_cpu, args.runs, args.budget))
    for note in notes:
        print(f"\n{note}")
    print()
    gpu_text, gpu = "", None
    try:
        gpu_text, gpu = gpu_section(args.gpu_results)
    except (OSError, ValueError, KeyError) as e:
        gpu_text = f"(no committed GPU results: {args.gpu_results}: {e})"
    print(gpu_text)
    print()
    print("## Summary")
    print()
    print(local_summary(results, device))
    if gpu:
        print(gpu_summary(gpu))
    return 0 if all(r["ok"] for r in records) else 1


if __name__ == "__main__":
    sys.exit(main())
