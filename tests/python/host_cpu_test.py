"""A kernel's result must not depend on the host's CPU. lavapipe compiles kernels for the CPU it
runs on: Mesa 22.3 lowered float64 roundEven and trunc through a conversion to integer on CPUs
without AVX-512 (1.5 → 1, -0.5 → +0.0), and float32's too without SSE4.1, which vkarray no longer
relies on (kernels/glsl/math.cc). GALLIUM_OVERRIDE_CPU_CAPS caps the CPU features Mesa sees, so
this machine stands in for those CPUs: each level runs in a fresh process (Mesa reads the caps
once), and its results must equal numpy's bit for bit, and those computed here, with the host's
own features."""

import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import vkarray as vk

ROUNDING = ["round", "rint", "trunc", "floor", "ceil", "fix"]
# Functions that round to an integer inside (exp's range reduction; power), compared across CPUs
# only: their parity with numpy, within bounds, is ops_parity_test.py's.
CROSS_CHECKED = ["exp", "exp2"]

SCRIPT = r"""
import sys
import numpy as np
sys.path.insert(0, sys.argv[2])
import host_cpu_test as t
np.savez(sys.argv[1], **t.compute())
"""


def values(dtype):
    """Signed zeros, halves on both sides of each tie, the largest non-integers, integers beyond
    them, subnormals, inf and NaN, and ordinary values."""
    f = np.finfo(dtype)
    big = 2.0 ** f.nmant  # from here on every value is an integer; below it, ulp 0.5
    v = [0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 3.5, -0.4, 0.6, -0.6, 0.49999997,
         1.0000001, -7.25, 123456.5, big - 0.5, -(big - 0.5), big - 1.5, big, -big, big + 1,
         2 * big + 2, float(f.max), -float(f.max), float(f.tiny), -float(f.tiny),
         float(f.smallest_subnormal), -float(f.smallest_subnormal), np.inf, -np.inf, np.nan]
    if dtype == np.float64:
        v += [0.5000000000000001, 0.49999999999999994, 2.0**53 + 2, 1e300, -1e300,
              2.0**31 + 0.5, -(2.0**31) - 0.5, 2.0**63 + 2048]
    with np.errstate(over="ignore"):
        return np.array(v, dtype=dtype)


def complex_values(dtype):
    real = values(np.float64 if dtype == np.complex128 else np.float32)
    z = np.empty(real.size, dtype)
    z.real, z.imag = real, real[::-1]
    return z


def supported(dtype):
    try:
        vk.asarray(np.zeros(1, dtype))
        return True
    except TypeError:  # float16 needs F16C on lavapipe: without it, no shaderFloat16
        return False


def compute():
    """{name: result} of every checked op on this process's device."""
    out = {}
    for dtype in (np.float16, np.float32, np.float64):
        if not supported(dtype):
            continue
        x = vk.asarray(values(dtype))
        name = np.dtype(dtype).name
        for op in ROUNDING:
            out[f"{op}/{name}"] = getattr(vk, op)(x)
        if dtype != np.float16:
            out[f"round2/{name}"] = vk.round(x, 2)  # scale, round, unscale
            out[f"floor_divide/{name}"] = vk.floor_divide(x, vk.asarray(np.array(0.75, dtype)))
            r = vk.asarray(np.linspace(-30, 30, 97).astype(dtype))
            for op in CROSS_CHECKED:
                out[f"{op}/{name}"] = getattr(vk, op)(r)
            e = np.resize(np.array([-3.0, 2.0, 0.5], dtype), 97)
            out[f"power/{name}"] = vk.power(r, vk.asarray(e))
    for dtype in (np.complex64, np.complex128):
        z = vk.asarray(complex_values(dtype))
        name = np.dtype(dtype).name
        out[f"round/{name}"] = vk.round(z)
        out[f"rint/{name}"] = vk.rint(z)
        out[f"abs/{name}"] = vk.abs(z)
    vk.eval(*out.values())
    return {k: np.asarray(v) for k, v in out.items()}


def reference(key):
    """numpy's answer for a key of compute(), or None where only the cross-CPU check applies."""
    op, name = key.split("/")
    dtype = np.dtype(name)
    with np.errstate(all="ignore"):
        if dtype.kind == "c":
            z = complex_values(dtype.type)
            # numpy's complex abs is hypot, but for its AVX512F loop (ops_parity_test.py).
            return np.hypot(z.real, z.imag) if op == "abs" else getattr(np, op)(z)
        if op in ROUNDING:
            return getattr(np, op)(values(dtype.type))
    return None  # round2 and floor_divide divide, which a GPU may round otherwise


def same_bits(got, want):
    """Bit-identical, but any NaN equals any NaN (a GPU need not keep NaN payloads)."""
    if got.dtype.kind == "c":
        return same_bits(got.real, want.real) & same_bits(got.imag, want.imag)
    bits = {2: np.uint16, 4: np.uint32, 8: np.uint64}[got.dtype.itemsize]
    return (got.view(bits) == want.view(bits)) | (np.isnan(got) & np.isnan(want))


@pytest.fixture(scope="module")
def here():
    return compute()


# avx: no AVX2, no AVX-512 (float64's fallback); sse2: no SSE4.1 either (float32's too).
@pytest.mark.parametrize("caps", ["avx", "sse2"])
def test_results_do_not_depend_on_cpu_features(caps, here, tmp_path):
    if "llvmpipe" not in vk.context().devices[0]["driver"]:
        pytest.skip("GALLIUM_OVERRIDE_CPU_CAPS is Mesa's")
    # Fresh disk caches: vkarray's holds SPIR-V, which does not depend on the CPU, and Mesa's
    # holds lavapipe's machine code, keyed on the CPU's features (as capped); neither should
    # serve this test from the user's, nor keep what it compiles.
    env = dict(os.environ, GALLIUM_OVERRIDE_CPU_CAPS=caps, VKA_CACHE_DIR=str(tmp_path / "vka"),
               MESA_SHADER_CACHE_DIR=str(tmp_path / "mesa"))
    out = tmp_path / "results.npz"
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(out),
                           str(pathlib.Path(__file__).parent)],
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    capped = dict(np.load(out))
    assert set(capped) <= set(here) and "rint/float64" in capped and "rint/float32" in capped
    bad = []
    for key, got in capped.items():
        want = reference(key)
        if want is not None and not same_bits(got, want).all():
            i = np.nonzero(~same_bits(got, want))[0][:4]
            bad.append(f"{key}: got {got[i]!r}, numpy {want[i]!r}")
        if not same_bits(got, here[key]).all():
            i = np.nonzero(~same_bits(got, here[key]))[0][:4]
            bad.append(f"{key}: got {got[i]!r} with {caps}, {here[key][i]!r} here")
    assert not bad, "\n".join(bad)


def test_rounding_matches_numpy_here(here):
    """The same checks against numpy with the host's own CPU features."""
    bad = [key for key, got in here.items()
           if reference(key) is not None and not same_bits(got, reference(key)).all()]
    assert not bad, bad
