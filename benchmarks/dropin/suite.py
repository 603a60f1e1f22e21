"""Runs the drop-in programs: for each program, size and library, the result checked against
numpy's, the median wall time of several synchronized calls after warm-up, and vkarray's
kernels per call."""

import os
import statistics
import sys
import time
import traceback

import numpy

from . import libs as libs_mod
from . import load
from .counting import count_ops


class Progress:
    """A plain-text progress bar on stderr (one line, redrawn)."""

    def __init__(self, total, enabled=True):
        self.total, self.done, self.enabled = max(total, 1), 0, enabled

    def show(self, what):
        if self.enabled:
            filled = 30 * self.done // self.total
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {self.done}/{self.total} "
                             f"{what:<48.48}")
            sys.stderr.flush()

    def step(self, what):
        self.done += 1
        self.show(what)

    def close(self):
        if self.enabled:
            sys.stderr.write("\n")


def _reference(module, name, size, host, ref_dir):
    """(inputs, numpy's result as a list of arrays). With ref_dir, both come from the file a
    run saved there (so that a process with another numpy, say numpy 2, checks against the
    same inputs and reference), else are computed and saved."""
    path = ref_dir and os.path.join(ref_dir, f"{name}-{size}.npz")
    if path and os.path.exists(path):
        with numpy.load(path) as z:
            want = [z[f"r{i}"] for i in range(len([k for k in z.files if k[0] == "r"]))]
            host = [z[f"in{i}"] if f"in{i}" in z.files else d for i, d in enumerate(host)]
        return host, want
    want = libs_mod.Library().to_numpy(module.kernel(numpy, *host))
    if path:
        os.makedirs(ref_dir, exist_ok=True)
        inputs = {f"in{i}": d for i, d in enumerate(host) if isinstance(d, numpy.ndarray)}
        numpy.savez(path, **{f"r{i}": w for i, w in enumerate(want)}, **inputs)
    return host, want


def _time(lib, module, data, runs, warm_s):
    """ms of each of `runs` synchronized calls, after warm_s seconds of untimed calls (at least
    one when warm_s > 0: compilation, caches, GPU clocks)."""
    t_end = time.perf_counter() + warm_s
    while time.perf_counter() < t_end:
        lib.sync(module.kernel(lib.xp, *data))
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        lib.sync(module.kernel(lib.xp, *data))
        out.append((time.perf_counter() - t0) * 1e3)
    return out


def run_one(lib, module, name, size, host, want, runs, warm_s, time_it=True):
    rec = {"program": name, "size": size, "lib": lib.name, "ok": False, "detail": "",
           "median_ms": None, "times_ms": [], "kernels": None}
    try:
        data = [lib.asarray(d) if isinstance(d, numpy.ndarray) else d for d in host]
        k0 = lib.kernel_count()
        if lib.name == "numpy":  # the reference itself: no call to check, no warm-up needed
            rec["ok"], rec["detail"], warm_s = True, "the reference", 0.0
        else:
            result = module.kernel(lib.xp, *data)
            lib.sync(result)
            if k0 is not None:
                rec["first_call_kernels"] = lib.kernel_count() - k0
            got = lib.to_numpy(result)
            rec["ok"], rec["detail"] = libs_mod.compare(module, module.SIZES[size], got, want)
        if k0 is not None:  # a second call: compiled kernels and cached values reused
            k0 = lib.kernel_count()
            lib.sync(module.kernel(lib.xp, *data))
            rec["kernels"] = lib.kernel_count() - k0
        if time_it:
            rec["times_ms"] = _time(lib, module, data, runs, warm_s)
            rec["median_ms"] = statistics.median(rec["times_ms"])
    except Exception as e:  # noqa: BLE001  one program's failure must not hide the others
        rec["error"] = f"{type(e).__name__}: {e}".splitlines()[0][:300]
        rec["traceback"] = traceback.format_exc()[-2000:]
    return rec


def run(programs, sizes, lib_names, runs=5, warm_s=0.3, ref_dir=None, progress=True,
        time_it=True, on_record=None):
    """Records of every (program, size, library), and notes about libraries skipped;
    on_record(records, notes) is called after each record (to save partial results)."""
    libraries, notes = [], []
    for n in lib_names:
        lib, why = libs_mod.load(n)
        if lib is None:
            notes.append(f"{n} skipped: {why}")
            print(f"[run] {n} skipped: {why}", file=sys.stderr)
        else:
            libraries.append(lib)
    bar = Progress(len(programs) * len(sizes) * (len(libraries) + 1), progress)
    records = []
    for name in programs:
        module = load(name)
        for size in sizes:
            bar.show(f"{name} {size}: numpy reference")
            host = module.initialize(module.SIZES[size], numpy)
            host, want = _reference(module, name, size, host, ref_dir)
            ops = count_ops(module, host) if "numpy" in lib_names else None
            bar.step(f"{name} {size}")
            for lib in libraries:
                bar.show(f"{name} {size} {lib.name}")
                rec = run_one(lib, module, name, size, host, want, runs, warm_s, time_it)
                rec["numpy_ops"] = ops
                records.append(rec)
                if on_record:
                    on_record(records, notes)
                bar.step(f"{name} {size} {lib.name}")
    bar.close()
    return records, notes
