"""The drop-in suite's outputs from its records: the markdown table, the JSON file and the PNG
plots (speedup over numpy per program, and kernels per call fused vs unfused)."""

import json
import math
import os

# "demo": the size `make demo` runs on the default device (suite.size_value).
SIZE_ORDER = ["small", "medium", "large", "demo"]


def _key(r):
    from . import PROGRAMS
    p = PROGRAMS.index(r["program"]) if r["program"] in PROGRAMS else len(PROGRAMS)
    libs = ["numpy", "vkarray", "vkarray-jit", "cupy", "torch", "torch-compile", "jax"]
    lib = libs.index(r["lib"]) if r["lib"] in libs else len(libs)
    return p, SIZE_ORDER.index(r["size"]), lib


def merge(results):
    """One results object from several runs' (records concatenated, notes and micro joined)."""
    out = {"records": [], "notes": [], "micro": {}, "meta": []}
    for res in results:
        out["records"] += res.get("records", [])
        out["notes"] += res.get("notes", [])
        out["micro"].update(res.get("micro", {}))
        meta = res.get("meta", {})
        out["meta"] += meta if isinstance(meta, list) else [meta]  # a merged file's list
    out["records"].sort(key=_key)
    return out


def with_speedups(results):
    """Each record gets speedup (numpy's median over its own) and numpy_ops (from whichever
    run counted them)."""
    base = {(r["program"], r["size"]): r for r in results["records"] if r["lib"] == "numpy"}
    ops = {(r["program"], r["size"]): r.get("numpy_ops") for r in results["records"]
           if r.get("numpy_ops") is not None}
    for r in results["records"]:
        k = (r["program"], r["size"])
        ref = base.get(k)
        ok = r.get("median_ms") and ref and ref.get("median_ms")
        r["speedup"] = ref["median_ms"] / r["median_ms"] if ok else None
        r["numpy_ops"] = ops.get(k)
    return results


def geomeans(results):
    """{(lib, size): (geometric-mean speedup over the programs that ran correctly, count)}."""
    acc = {}
    for r in results["records"]:
        if r.get("speedup") and r["ok"] and r["lib"] != "numpy":
            acc.setdefault((r["lib"], r["size"]), []).append(math.log(r["speedup"]))
    return {k: (math.exp(sum(v) / len(v)), len(v)) for k, v in acc.items()}


def _fmt_ms(v):
    return "-" if v is None else (f"{v:.3g}" if v < 100 else f"{v:.0f}")


def _lib_label(r):
    """The library, and how it ran the program where that is not plain eager calls."""
    mode = r.get("mode")
    return r["lib"] if mode in (None, "eager") else f"{r['lib']} ({mode})"


def per_op_markdown(results):
    """Time per numpy-level operation and per Python-loop iteration, for the programs that
    count their iterations (``iterations(size)``: the loop programs and micro programs)."""
    recs = [r for r in results["records"] if r.get("iterations") and r.get("median_ms")]
    if not recs:
        return []
    lines = ["", "Time per operation and per loop iteration: the median call's time divided by "
             "the numpy-level operations one call issues (what an eager library dispatches), "
             "and by the Python-loop iterations of one call.", "",
             "| program | size | library | ok | median ms | numpy ops/call | us/op | "
             "iterations/call | us/iteration | kernels/call |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in recs:
        ops, its, ms = r.get("numpy_ops"), r["iterations"], r["median_ms"]
        per_op = f"{ms * 1e3 / ops:.3g}" if ops else "-"
        kc = r.get("kernels")
        lines.append(f"| {r['program']} | {r['size']} | {_lib_label(r)} | "
                     f"{'yes' if r['ok'] else '**NO**'} | {_fmt_ms(ms)} | {ops or '-'} | "
                     f"{per_op} | {its} | {ms * 1e3 / its:.3g} | "
                     f"{'-' if kc is None else kc} |")
    return lines


def markdown(results):
    lines = ["## Drop-in numpy programs", ""]
    for m in results.get("meta", []):
        if m:
            lines.append(f"- {m.get('date', '')}: `{m.get('command', '')}` - "
                         f"{m.get('device', '')}, libraries {', '.join(m.get('libs', []))}")
    lines += [f"- {n}" for n in results.get("notes", [])]
    lines += ["", "Median of the timed runs (after warm-up, device synchronized inside the timed "
              "region); ok = result checked against numpy's; kernels/call = vkarray's kernels "
              "dispatched by one call, and the numpy-level operations the program issues (what "
              "an unfused library dispatches).", "",
              "| program | size | library | ok | median ms | speedup | kernels/call |",
              "|---|---|---|---|---|---|---|"]
    for r in results["records"]:
        ok = "yes" if r["ok"] else ("error" if r.get("error") else "**NO**")
        sp = "-" if r.get("speedup") is None else f"{r['speedup']:.3g}x"
        kc = ""
        if r["lib"] in ("vkarray", "vkarray-jit") and r.get("kernels") is not None:
            kc = f"{r['kernels']}"
            if r.get("numpy_ops") is not None:
                kc += f" (of {r['numpy_ops']} ops)"
        elif r["lib"] == "numpy" and r.get("numpy_ops") is not None:
            kc = f"{r['numpy_ops']} ops"
        lines.append(f"| {r['program']} | {r['size']} | {_lib_label(r)} | {ok} | "
                     f"{_fmt_ms(r.get('median_ms'))} | {sp} | {kc} |")
    gm = geomeans(results)
    if gm:
        lines += ["", "Geometric-mean speedup over numpy (programs that ran correctly):", "",
                  "| library | size | geomean speedup | programs |", "|---|---|---|---|"]
        for (lib, size), (g, n) in sorted(gm.items(), key=lambda kv: (
                kv[0][0], SIZE_ORDER.index(kv[0][1]))):
            lines.append(f"| {lib} | {size} | {g:.3g}x | {n} |")
    lines += per_op_markdown(results)
    bad = [r for r in results["records"] if not r["ok"]]
    if bad:
        lines += ["", "Failures:", ""]
        lines += [f"- {r['program']} {r['size']} {r['lib']}: {r.get('error') or r['detail']}"
                  for r in bad]
    for name, text in results.get("micro", {}).items():
        lines += ["", text.strip()]
    return "\n".join(lines) + "\n"


def plots(results, out_dir):
    """speedup.png and kernels.png in out_dir; returns their paths ([] without matplotlib)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return []
    recs = results["records"]
    sizes = [s for s in SIZE_ORDER if any(r["size"] == s for r in recs)]
    libs = [lib for lib in ["vkarray", "vkarray-jit", "cupy", "torch", "torch-compile", "jax"]
            if any(r["lib"] == lib for r in recs)]
    programs = list(dict.fromkeys(r["program"] for r in recs))
    paths = []
    if sizes and libs and programs:
        fig, axes = plt.subplots(len(sizes), 1, figsize=(max(10, 0.55 * len(programs) * len(libs)),
                                                         4.2 * len(sizes)), squeeze=False)
        width = 0.8 / len(libs)
        for ax, size in zip(axes[:, 0], sizes):
            for i, lib in enumerate(libs):
                vals = []
                for p in programs:
                    r = next((r for r in recs if (r["program"], r["size"], r["lib"]) ==
                              (p, size, lib)), None)
                    vals.append(r["speedup"] if r and r["ok"] and r.get("speedup") else 0)
                ax.bar([x + (i - (len(libs) - 1) / 2) * width for x in range(len(programs))],
                       [v if v else float("nan") for v in vals], width, label=lib)
            ax.axhline(1.0, color="black", linewidth=0.8)
            ax.set_yscale("log")
            ax.set_ylabel("speedup over numpy")
            ax.set_title(f"{size} size")
            ax.set_xticks(range(len(programs)))
            ax.set_xticklabels(programs, rotation=45, ha="right", fontsize=8)
            ax.legend(fontsize=8)
        fig.tight_layout()
        paths.append(os.path.join(out_dir, "speedup.png"))
        fig.savefig(paths[-1], dpi=110)
        plt.close(fig)
    counted = {}
    for r in recs:  # the largest size at which vkarray's kernels were counted
        if r["lib"] == "vkarray" and r.get("kernels") is not None and r.get("numpy_ops"):
            counted[r["program"]] = r
    if counted:
        names = list(counted)
        fig, ax = plt.subplots(figsize=(max(10, 0.5 * len(names)), 4.5))
        xs = range(len(names))
        ax.bar([x - 0.2 for x in xs], [counted[n]["numpy_ops"] for n in names], 0.4,
               label="numpy-level operations (unfused)")
        ax.bar([x + 0.2 for x in xs], [max(counted[n]["kernels"], 0.5) for n in names], 0.4,
               label="vkarray kernels (fused)")
        ax.set_yscale("log")
        ax.set_ylabel("per call")
        ax.set_xticks(list(xs))
        ax.set_xticklabels([f"{n}\n({counted[n]['size']})" for n in names], rotation=45,
                           ha="right", fontsize=7)
        ax.legend(fontsize=8)
        ax.set_title("kernels per call: vkarray fused vs one per numpy operation")
        fig.tight_layout()
        paths.append(os.path.join(out_dir, "kernels.png"))
        fig.savefig(paths[-1], dpi=110)
        plt.close(fig)
    return paths


def write(results, out_dir, with_plots=True):
    """table.md, results.json and (with_plots) the plots in out_dir; returns the table's
    text."""
    os.makedirs(out_dir, exist_ok=True)
    results = with_speedups(results)
    text = markdown(results)
    with open(os.path.join(out_dir, "table.md"), "w", encoding="utf-8") as f:
        f.write(text)
    with open(os.path.join(out_dir, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
    if with_plots:
        plots(results, out_dir)
    return text
