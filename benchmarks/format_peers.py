"""Formats the JSON lines of elementwise_peers.py as a markdown table (stdin → stdout)."""

import json
import sys

rows = [json.loads(line) for line in sys.stdin if line.strip()]
print("| library | measurement | median | runs | kernels |\n|---|---|---|---|---|")
for r in rows:
    if "error" in r:
        print(f"| {r['lib']} | error: {r['error']} | | | |")
        continue
    print(f"| {r['lib']} | {r['name']} | {r['median']:.3f} {r['unit']} | {r['runs']} | "
          f"{r.get('kernels', '')} |")
