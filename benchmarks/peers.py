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


def main(namespace, libs):
    for lib in libs:
        try:
            namespace["bench_" + lib]()
        except ImportError as e:
            print(json.dumps({"lib": lib, "error": f"not importable: {e}"}), flush=True)
        except Exception as e:  # noqa: BLE001 — reported, and the next library runs
            print(json.dumps({"lib": lib, "error": f"{type(e).__name__}: {e}"[:500]}),
                  flush=True)
