"""Markdown table of a peers JSON-lines file (benchmarks/*_peers.py output): one row per
measurement, errors included.

usage: peers_table.py FILE [FIELD ...]   extra columns from each record (e.g. tflops, gbps)"""

import json
import sys


def main(path, fields):
    head = ["library", "operation", "median (ms)"] + fields + ["kernels"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for line in open(path):
        try:
            r = json.loads(line)
        except ValueError:
            continue
        if "error" in r:
            cells = [r["lib"], r.get("name", ""), "error: " + r["error"][:120]]
            cells += [""] * (len(fields) + 1)
        elif "median" in r:
            cells = [r["lib"], r["name"], f"{r['median']:.3f}"]
            cells += [str(r.get(f, "")) for f in fields] + [str(r.get("kernels", ""))]
        else:
            continue
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
