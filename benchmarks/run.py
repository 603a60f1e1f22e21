#!/usr/bin/env python3
"""The one entry point of vkarray's benchmarks: the drop-in numpy programs on numpy, vkarray,
CuPy and PyTorch (benchmarks/dropin/), and the C++ microbenchmarks (--micro).

  benchmarks/run.py --libs numpy,vkarray --sizes small            # table on stdout
  benchmarks/run.py --libs numpy,vkarray --json a.json             # then, in another Python:
  benchmarks/run.py --libs cupy,torch --json b.json --refs /tmp/refs
  benchmarks/run.py --merge a.json b.json --out DIR                # table.md, results.json, PNGs
  benchmarks/run.py --micro --bin .gpu/bin --out DIR                # the C++ benchmarks too

Libraries that cannot be imported are skipped and the table says so. See benchmarks/README.md.
"""

import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchmarks.dropin import PROGRAMS, expand, report, suite  # noqa: E402

# name -> (arguments at full size, for a GPU; arguments of --micro-quick, for lavapipe)
MICRO = {
    "roofline": (["--elements", "268435456", "--runs", "20"], ["--elements", "4194304",
                                                                "--runs", "3"]),
    "elementwise": (["--elements", "268435456", "--runs", "20"], ["--elements", "1048576",
                                                                   "--runs", "3"]),
    "reduce": (["--runs", "20"], ["--n", "1048576", "--side", "1024", "--runs", "3"]),
    "gemm": (["--runs", "10"], ["--sizes", "256", "--runs", "2", "--batch", "1"]),
    "dispatch_overhead": ([], ["--iters", "20", "--runs", "5"]),
}


def run_micro(bin_dir, quick, timeout):
    """{name: markdown} of each C++ microbenchmark found in bin_dir."""
    out = {}
    for name, (full, small) in MICRO.items():
        exe = os.path.join(bin_dir, name)
        if not os.access(exe, os.X_OK):
            out[name] = f"## {name}\n\nnot run: {exe} not found (bazel build //benchmarks:all)"
            continue
        print(f"[run] micro: {name}", file=sys.stderr)
        with tempfile.TemporaryDirectory() as tmp:
            md = os.path.join(tmp, "out.md")
            cmd = [exe, *(small if quick else full), "--markdown", md]
            try:
                p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
                text = open(md).read() if os.path.exists(md) else (
                    f"## {name}\n\n`{' '.join(cmd)}`\n\n```\n{p.stdout.strip()}\n```")
                if p.returncode:
                    text += f"\n\nexit status {p.returncode}: {p.stderr.strip()[-500:]}"
            except subprocess.TimeoutExpired:
                text = f"## {name}\n\nnot finished within {timeout} s"
        out[name] = text
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--libs", default="numpy,vkarray",
                    help="comma-separated: numpy, vkarray, vkarray-jit, cupy, torch, torch-compile, jax "
                    "(default numpy,vkarray)")
    ap.add_argument("--sizes", default="small,medium,large")
    ap.add_argument("--programs", default="all",
                    help="comma-separated names or groups: suite (the 22 realistic programs), "
                    "fusion, loops, all (default)")
    ap.add_argument("--runs", type=int, default=5, help="timed runs per measurement (>= 5)")
    ap.add_argument("--warmup", type=float, default=0.3,
                    help="seconds of untimed calls after the first (default 0.3)")
    ap.add_argument("--refs", help="directory of numpy's results: read where present, else "
                    "computed and saved (lets a second process skip numpy's runs)")
    ap.add_argument("--json", help="write this run's records here (for --merge)")
    ap.add_argument("--out", help="write table.md, results.json, speedup.png, kernels.png here")
    ap.add_argument("--no-plots", action="store_true",
                    help="with --out: table.md and results.json only")
    ap.add_argument("--merge", nargs="+", metavar="JSON", help="merge these runs' JSON files")
    ap.add_argument("--micro", action="store_true", help="also run the C++ microbenchmarks")
    ap.add_argument("--micro-quick", action="store_true",
                    help="the microbenchmarks at small sizes (lavapipe)")
    ap.add_argument("--micro-timeout", type=float, default=300,
                    help="seconds each microbenchmark may run (default 300)")
    ap.add_argument("--bin", default=".bazel/bin/benchmarks",
                    help="directory of the C++ benchmark binaries")
    ap.add_argument("--no-progress", action="store_true")
    ap.add_argument("--list", action="store_true", help="list the programs and their sizes")
    args = ap.parse_args(argv)

    if args.list:
        from benchmarks.dropin import load
        for name in PROGRAMS:
            print(f"{name:22} {load(name).SIZES}")
        return 0
    if args.merge:
        found = [p for p in args.merge if os.path.exists(p)]
        results = report.merge(json.load(open(p)) for p in found)
        results["notes"] += [f"{p} missing: that run saved nothing" for p in args.merge
                             if p not in found]
    else:
        programs = expand(args.programs)
        unknown = [p for p in programs if p not in PROGRAMS]
        sizes = args.sizes.split(",")
        bad_sizes = [s for s in sizes if s not in report.SIZE_ORDER]
        if unknown or bad_sizes or args.runs < 1:
            ap.error(f"unknown programs {unknown} or sizes {bad_sizes} (or --runs < 1)")
        meta = {"command": " ".join(["benchmarks/run.py"] + sys.argv[1:]),
                "date": datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M UTC"),
                "python": sys.version.split()[0], "libs": args.libs.split(","),
                "device": _device(args.libs.split(","))}

        def save(records, notes):  # after every record: a run cut short keeps what it measured
            if args.json:
                _write_json(args.json, report.merge([{"records": records, "notes": notes,
                                                      "meta": meta}]))

        records, notes = suite.run(programs, sizes, args.libs.split(","), args.runs,
                                   args.warmup, args.refs, not args.no_progress,
                                   on_record=save)
        results = report.merge([{"records": records, "notes": notes, "meta": meta}])
    if args.micro:
        results["micro"].update(run_micro(args.bin, args.micro_quick, args.micro_timeout))
    if args.json:
        _write_json(args.json, results)
    if args.out:
        text = report.write(results, args.out, with_plots=not args.no_plots)
    else:
        text = report.markdown(report.with_speedups(results))
    print(text)
    return 0 if all(r["ok"] for r in results["records"]) else 1


def _write_json(path, results):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(results, f, indent=1)
    os.replace(tmp, path)


def _device(lib_names):
    """The devices the libraries ran on, in words."""
    names = []
    if "numpy" in lib_names:
        import numpy
        names.append(f"numpy {numpy.__version__} on {os.cpu_count()} CPUs")
    if "vkarray" in lib_names or "vkarray-jit" in lib_names:
        try:
            import vkarray
            names.append("vkarray: " + str(vkarray.context()))
        except Exception:  # noqa: BLE001
            pass
    if "jax" in lib_names:
        try:
            import jax
            names.append(f"JAX {jax.__version__}: {jax.devices()[0].device_kind}")
        except Exception:  # noqa: BLE001
            pass
    if "cupy" in lib_names or "torch" in lib_names or "torch-compile" in lib_names:
        try:
            import torch
            if torch.cuda.is_available():
                names.append("CUDA: " + torch.cuda.get_device_name(0))
        except Exception:  # noqa: BLE001
            pass
    return "; ".join(names)


if __name__ == "__main__":
    sys.exit(main())
