"""Assembles the elementwise results table from one GPU run: the roofline and fused kernels
(C++, GPU timestamps), the peers (CuPy, PyTorch, numpy) and vkarray from Python, and says for
each goal of the elementwise issue whether it was met.

usage: report_elementwise.py OUT_DIR   (reads roofline_auto.md, elementwise*.md, peers.jsonl)"""

import json
import pathlib
import re
import sys


def table_value(md, row_start, column):
    """The number in `column` (0-based, after the name) of the first row starting so."""
    for line in md.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells and cells[0].startswith(row_start):
            return float(cells[1 + column])
    raise KeyError(row_start)


def main(out):
    out = pathlib.Path(out)
    roof = (out / "roofline_auto.md").read_text()
    ew = (out / "elementwise.md").read_text()
    cold = (out / "elementwise_cold.md").read_text()
    peers = [json.loads(l) for l in (out / "peers.jsonl").read_text().splitlines() if l.strip()]

    def peer(lib, prefix):
        for p in peers:
            if p.get("lib") == lib and p.get("name", "").startswith(prefix):
                return p["median"]
        return None

    roof_axpb = table_value(roof, "c = 2a + b (vec4", 0)
    vk_axpb = table_value(ew, "`c = 2*a + b`", 1)
    vk_chain = table_value(ew, "`sqrt(abs(2a+b)+1)*exp(-b)-a`", 1)
    torch_axpb = peer("torch", "c = 2*a + b (torch.add")
    cupy_axpb = peer("cupy", "c = 2*a + b")
    torch_eager = peer("torch", "6-op chain (eager)")
    torch_compile = peer("torch", "6-op chain (torch.compile)")
    cupy_fuse = peer("cupy", "6-op chain (cupy.fuse)")
    cupy_chain = peer("cupy", "6-op chain (unfused)")
    small = {lib: peer(lib, "200 dependent small ops") for lib in
             ("vkarray", "cupy", "torch", "numpy")}
    first_cold = re.search(r"First use of a new fused kernel in this process: ([\d.]+) ms "
                           r"\((\d+) shaderc", cold)
    first_warm = re.search(r"First use of a new fused kernel in this process: ([\d.]+) ms "
                           r"\((\d+) shaderc", ew)

    def fmt(v, unit="ms"):
        return "n/a" if v is None else f"{v:.3f} {unit}"

    def goal(ok):
        return "met" if ok else "**not met**"

    rows = [
        ("`c = 2*a + b`: vkarray fused (1 kernel)", fmt(vk_axpb)),
        ("roofline `c = 2a + b`, hand-written vec4 shader", fmt(roof_axpb)),
        ("PyTorch `torch.add(b, a, alpha=2, out=c)`", fmt(torch_axpb)),
        ("CuPy `2*a + b` (two kernels)", fmt(cupy_axpb)),
        ("6-op chain: vkarray fused (1 kernel)", fmt(vk_chain)),
        ("6-op chain: CuPy unfused / cupy.fuse",
         f"{fmt(cupy_chain)} / {fmt(cupy_fuse)}"),
        ("6-op chain: torch eager / torch.compile",
         f"{fmt(torch_eager)} / {fmt(torch_compile)}"),
    ]
    print("## Elementwise fusion: vkarray against the roofline, PyTorch and CuPy\n")
    print("float32, 2^28 elements; vkarray and roofline times are GPU timestamps (C++), peers "
          "are CUDA events; medians of 20 runs. The small-op loop is wall clock from Python.\n")
    print("| measurement | median |\n|---|---|")
    for name, v in rows:
        print(f"| {name} | {v} |")
    for lib, v in small.items():
        print(f"| 200 dependent small ops on 1000 elements, {lib} (per op, incl. final read) | "
              f"{fmt(v, 'µs')} |")
    if first_cold and first_warm:
        print(f"| first use of a new fused kernel, cold (shaderc + pipeline, "
              f"{first_cold.group(2)} compile) | {float(first_cold.group(1)):.1f} ms |")
        print(f"| first use in a new process with the disk cache warm "
              f"({first_warm.group(2)} compiles) | {float(first_warm.group(1)):.1f} ms |")
    print("\n### Goals\n")
    print("| goal | result |\n|---|---|")
    print(f"| `c = 2*a + b` within 5% of the roofline shader | {vk_axpb / roof_axpb:.3f}× the "
          f"roofline time: {goal(vk_axpb <= 1.05 * roof_axpb)} |")
    if torch_axpb:
        print(f"| ... at least as fast as PyTorch | {vk_axpb / torch_axpb:.3f}× PyTorch's time: "
              f"{goal(vk_axpb <= torch_axpb)} |")
    if cupy_axpb:
        print(f"| ... 2× CuPy's `2*a+b` | {cupy_axpb / vk_axpb:.2f}× faster: "
              f"{goal(cupy_axpb >= 2 * vk_axpb)} |")
    chain_roof = roof_axpb  # the chain moves the same 12 bytes per element
    print(f"| 6-op chain ≥ 90% of the roofline | {chain_roof / vk_chain:.1%}: "
          f"{goal(chain_roof / vk_chain >= 0.9)} |")
    if torch_compile and cupy_fuse:
        print(f"| ... faster than torch.compile and cupy.fuse | "
              f"{goal(vk_chain < torch_compile and vk_chain < cupy_fuse)} |")
    if torch_eager:
        print(f"| ... ≥ 6× torch eager | {torch_eager / vk_chain:.1f}×: "
              f"{goal(torch_eager >= 6 * vk_chain)} |")
    if small["vkarray"] is not None:
        print(f"| 200 small ops ≤ 3 µs per op | {small['vkarray']:.2f} µs: "
              f"{goal(small['vkarray'] <= 3)} |")


if __name__ == "__main__":
    main(sys.argv[1])
