"""What the *_peers.py benchmarks share: one JSON line per measurement, and a main that runs
bench_<lib>() for each library named on the command line, one library's failure never hiding
the others' results."""

import json
import statistics
import time


def report(lib, name, values, unit, **extra):
    print(json.dumps({"lib": lib, "name": name, "median": statistics.median(values),
                      "unit": unit, "runs": len(values), **extra}), flush=True)


def wall_ms(fn, runs=10):
    """Wall-clock milliseconds of `runs` calls of fn (after one untimed call)."""
    fn()
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1e3)
    return out


def cuda_timed(sync, event, fn, runs, elapsed=lambda s, e: s.elapsed_time(e)):
    """Milliseconds of `runs` calls of fn between CUDA events, after 3 calls and half a second
    of work (the GPU idles at low clocks)."""
    for _ in range(3):
        fn()
    sync()
    t_end = time.perf_counter() + 0.5
    while time.perf_counter() < t_end:
        fn()
        sync()
    out = []
    for _ in range(runs):
        s, e = event(), event()
        s.record()
        fn()
        e.record()
        e.synchronize()
        out.append(elapsed(s, e))
    return out


def cupy_ms(fn, runs):
    """cuda_timed for CuPy."""
    import cupy as cp
    return cuda_timed(cp.cuda.Device().synchronize, cp.cuda.Event, fn, runs,
                      cp.cuda.get_elapsed_time)


def torch_ms(fn, runs):
    """cuda_timed for PyTorch."""
    import torch
    return cuda_timed(torch.cuda.synchronize, lambda: torch.cuda.Event(enable_timing=True), fn,
                      runs)


def vkarray_ms(fn, runs):
    """Wall-clock milliseconds of `runs` calls of fn with its results evaluated (vkarray is
    lazy: an unevaluated result has launched nothing) and vkarray.synchronize() inside the
    timed region, after one call and half a second of work."""
    import vkarray as vk

    def call():
        r = fn()
        for x in r if isinstance(r, (tuple, list)) else (r,):
            if hasattr(x, "eval"):
                x.eval()
        vk.synchronize()

    call()
    t_end = time.perf_counter() + 0.5
    while time.perf_counter() < t_end:
        call()
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        call()
        out.append((time.perf_counter() - t0) * 1e3)
    return out


def main(namespace, libs):
    for lib in libs:
        try:
            namespace["bench_" + lib]()
        except ImportError as e:
            print(json.dumps({"lib": lib, "error": f"not importable: {e}"}), flush=True)
        except Exception as e:  # noqa: BLE001 — reported, and the next library runs
            print(json.dumps({"lib": lib, "error": f"{type(e).__name__}: {e}"[:500]}),
                  flush=True)
