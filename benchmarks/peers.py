"""What the *_peers.py benchmarks share: one JSON line per measurement, and a main that runs
bench_<lib>() for each library named on the command line, one library's failure never hiding
the others' results."""

import json
import statistics


def report(lib, name, values, unit, **extra):
    print(json.dumps({"lib": lib, "name": name, "median": statistics.median(values),
                      "unit": unit, "runs": len(values), **extra}), flush=True)


def main(namespace, libs):
    for lib in libs:
        try:
            namespace["bench_" + lib]()
        except ImportError as e:
            print(json.dumps({"lib": lib, "error": f"not importable: {e}"}), flush=True)
        except Exception as e:  # noqa: BLE001 — reported, and the next library runs
            print(json.dumps({"lib": lib, "error": f"{type(e).__name__}: {e}"[:500]}),
                  flush=True)
