"""The folders are the layers, and dependencies point one way: every `#include "dir/..."` of the
C++ sources and every `//dir` dependency of their BUILD files goes to a layer the including
layer may use (LAYERS below, the table docs/DESIGN.md draws). The GPU-free layers include no
Vulkan header."""

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]

# layer -> the layers it may use (besides itself), bottom up.
LAYERS = {
    "base": set(),
    "device": {"base"},
    "ir": {"base"},
    "schedule": {"base", "ir"},
    "kernels/glsl": {"base", "ir"},
    "kernels/gen": {"base", "ir", "kernels/glsl"},
    "kernels/lib": {"base", "ir", "kernels/glsl"},
    "kernels": {"base", "ir", "device", "kernels/glsl", "kernels/gen", "kernels/lib"},
    "runtime": {"base", "ir", "device", "schedule", "kernels", "kernels/glsl", "kernels/gen",
                "kernels/lib"},
    "array": {"base", "ir", "device", "schedule", "kernels", "kernels/glsl", "kernels/gen",
              "kernels/lib", "runtime"},
}
for family in ("array/linalg", "array/fft", "array/random"):
    LAYERS[family] = LAYERS["array"] | {"array"}
LAYERS["bindings"] = set(LAYERS) - {"bindings"}
GPU_FREE = {"base", "ir", "schedule", "kernels/glsl", "kernels/gen", "kernels/lib"}


def layer_of(path):
    """The layer of a repository path ("kernels/gen/gemm.h" -> "kernels/gen"), or None."""
    parts = pathlib.PurePosixPath(path).parts
    for n in (2, 1):
        name = "/".join(parts[:n])
        if len(parts) > n and name in LAYERS:
            return name
    return None


def violations(files):
    """`files`: {repository path: text}. The include and BUILD edges that point where the
    including layer may not go, and Vulkan headers in GPU-free layers, one line each."""
    out = []
    for path, text in sorted(files.items()):
        here = layer_of(path)
        if here is None:
            continue
        if path.endswith("BUILD"):
            targets = re.findall(r'"//([a-z_/]+)(?::[A-Za-z0-9_.]+)?"', text)
        else:
            targets = re.findall(r'#include "([^"]+)"', text)
            if here in GPU_FREE and re.search(r"#include <vulkan/", text):
                out.append(f"{path}: a GPU-free layer includes a Vulkan header")
        for t in targets:
            there = layer_of(t if not path.endswith("BUILD") else t + "/BUILD")
            if there and there != here and there not in LAYERS[here]:
                out.append(f"{path}: {here} may not use {there} ({t})")
    return out


def source_files():
    files = {}
    for layer in LAYERS:
        for f in (ROOT / layer).glob("*"):
            if f.is_file() and (f.suffix in (".h", ".cc", ".c") or f.name == "BUILD"):
                files[str(f.relative_to(ROOT))] = f.read_text(encoding="utf-8")
    return files


def test_every_layer_folder_exists():
    for layer in LAYERS:
        assert (ROOT / layer / "BUILD").exists(), f"{layer}/ has no BUILD file"


def test_includes_and_build_deps_point_down():
    found = violations(source_files())
    assert not found, "layering violations:\n" + "\n".join(found)


def test_an_upward_include_is_reported():
    bad = {
        "ir/graph.h": '#include "runtime/realize.h"\n',
        "kernels/gen/gemm.cc": '#include "kernels/lib/scan.h"\n#include <vulkan/vulkan.h>\n',
        "schedule/BUILD": 'deps = ["//kernels:cache"]\n',
        "array/sort.cc": '#include "array/linalg/linalg.h"\n',
        "runtime/launch.cc": '#include "kernels/gen/gemm.h"\n#include "device/stream.h"\n',
    }
    found = violations(bad)
    assert len(found) == 5, found
    assert "ir/graph.h: ir may not use runtime (runtime/realize.h)" in found
    assert "kernels/gen/gemm.cc: a GPU-free layer includes a Vulkan header" in found
    assert "schedule/BUILD: schedule may not use kernels (kernels)" in found
    assert "array/sort.cc: array may not use array/linalg (array/linalg/linalg.h)" in found
