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
    """Progress on stderr. On a terminal, a tqdm bar redrawn in place; anywhere else (a log file,
    a pipe, CI) or without tqdm, one plain line per program finished, so that logs hold no
    carriage-return frames."""

    def __init__(self, total, enabled=True, stream=None):
        self.stream = stream or sys.stderr
        self.enabled, self.bar = enabled, None
        if enabled and self.stream.isatty():
            try:
                from tqdm import tqdm
                self.bar = tqdm(total=total, file=self.stream, dynamic_ncols=True, leave=False,
                                bar_format="{l_bar}{bar}| {n_fmt}/{total_fmt} [{elapsed}]")
            except ImportError:  # tqdm is Debian's python3-tqdm; the GPU machine may lack it
                pass
        self.programs_done = 0

    def show(self, what):
        if self.bar is not None:
            self.bar.set_description_str(f"{what:<40.40}", refresh=True)  # a steady bar

    def step(self, what):
        if self.bar is not None:
            self.bar.update(1)
            self.show(what)

    def program_done(self, line, total_programs):
        """The line a finished program leaves: above the bar on a terminal, alone elsewhere."""
        self.programs_done += 1
        if not self.enabled:
            return
        text = f"[{self.programs_done}/{total_programs}] {line}"
        if self.bar is not None:
            self.bar.write(text, file=self.stream)
        else:
            self.stream.write(text + "\n")
            self.stream.flush()

    def close(self):
        if self.bar is not None:
            self.bar.close()


def size_value(module, size):
    """The program's parameters for a size name. "demo" is the size `make demo` runs on the
    default device; a program that names none runs its medium size there."""
    if size == "demo" and "demo" not in module.SIZES:
        return module.SIZES["medium"]
    return module.SIZES[size]


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


MIN_RUNS = 3  # the fewest timed calls a median is taken of when a time budget cuts runs short


def _time(lib, module, data, runs, warm_s, budget_s=None):
    """ms of each of `runs` synchronized calls, after warm_s seconds of untimed calls (at least
    one when warm_s > 0: compilation, caches, GPU clocks). With budget_s, the calls stop once
    they have taken budget_s seconds, after at least MIN_RUNS of them (a time-boxed demo)."""
    t_end = time.perf_counter() + warm_s
    while time.perf_counter() < t_end:
        lib.sync(lib.call(module, data))
    out = []
    for i in range(runs):
        if budget_s is not None and i >= MIN_RUNS and sum(out) > budget_s * 1e3:
            break
        t0 = time.perf_counter()
        lib.sync(lib.call(module, data))
        out.append((time.perf_counter() - t0) * 1e3)
    return out


def run_one(lib, module, name, size, host, want, runs, warm_s, time_it=True, budget_s=None):
    rec = {"program": name, "size": size, "lib": lib.name, "ok": False, "detail": "",
           "median_ms": None, "times_ms": [], "kernels": None}
    try:
        data = [lib.asarray(d) if isinstance(d, numpy.ndarray) else d for d in host]
        k0 = lib.kernel_count()
        if lib.name == "numpy":  # the reference itself: no call to check, no warm-up needed
            rec["ok"], rec["detail"], warm_s = True, "the reference", 0.0
        else:
            result = lib.call(module, data)
            lib.sync(result)
            if k0 is not None:
                rec["first_call_kernels"] = lib.kernel_count() - k0
            got = lib.to_numpy(result)
            rec["ok"], rec["detail"] = libs_mod.compare(module, size_value(module, size), got, want)
        if k0 is not None:  # a second call: compiled kernels and cached values reused
            k0 = lib.kernel_count()
            lib.sync(lib.call(module, data))
            rec["kernels"] = lib.kernel_count() - k0
        rec["mode"] = lib.mode(module)  # after the first call: a failed compile says so
        if time_it:
            rec["times_ms"] = _time(lib, module, data, runs, warm_s, budget_s)
            rec["median_ms"] = statistics.median(rec["times_ms"])
    except Exception as e:  # noqa: BLE001  one program's failure must not hide the others
        rec["error"] = f"{type(e).__name__}: {e}".splitlines()[0][:300]
        rec["traceback"] = traceback.format_exc()[-2000:]
    return rec


def _summary(name, recs):
    """One line for a finished program: each size's time per library, and what failed."""
    parts = []
    for size in dict.fromkeys(r["size"] for r in recs):
        times = []
        for r in (r for r in recs if r["size"] == size):
            ms = r.get("median_ms")
            state = ("" if r["ok"] else " ERROR" if r.get("error") else " WRONG RESULT")
            times.append(f"{r['lib']} " + ("-" if ms is None else f"{ms:.3g} ms") + state)
        parts.append(f"{size}: " + ", ".join(times))
    return f"{name}  " + "; ".join(parts)


def run(programs, sizes, lib_names, runs=5, warm_s=0.3, ref_dir=None, progress=True,
        time_it=True, on_record=None, budget_s=None):
    """Records of every (program, size, library), and notes about libraries skipped;
    on_record(records, notes) is called after each record (to save partial results); budget_s
    bounds each measurement's timed calls (see _time)."""
    libraries, notes = [], []
    libs_mod.share_the_device(lib_names)
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
            host = module.initialize(size_value(module, size), numpy)
            host, want = _reference(module, name, size, host, ref_dir)
            ops = count_ops(module, host) if "numpy" in lib_names else None
            bar.step(f"{name} {size}")
            for lib in libraries:
                can, why = lib.supports(module)
                if not can:
                    note = f"{lib.name}: {name} not run: it {why}"
                    if note not in notes:
                        notes.append(note)
                    bar.step(f"{name} {size} {lib.name}")
                    continue
                bar.show(f"{name} {size} {lib.name}")
                rec = run_one(lib, module, name, size, host, want, runs, warm_s, time_it,
                              budget_s)
                rec["numpy_ops"] = ops
                rec["size_value"] = size_value(module, size)
                if hasattr(module, "iterations"):  # Python-loop iterations per call
                    rec["iterations"] = module.iterations(size_value(module, size))
                records.append(rec)
                if on_record:
                    on_record(records, notes)
                bar.step(f"{name} {size} {lib.name}")
        bar.program_done(_summary(name, [r for r in records if r["program"] == name]),
                         len(programs))
    bar.close()
    return records, notes
