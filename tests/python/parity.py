"""Shared machinery of the numpy-parity tests: the op table read from ir/ops.def (so that
every op in the table is covered without a second list to keep), input values with the edge
cases of each dtype, comparison in units in the last place (ulp), and the flushed form of
subnormal results that a device flushing them may give."""

import pathlib
import re

import numpy as np

import vkarray as vk

ROOT = pathlib.Path(__file__).resolve().parents[2]

DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
          np.uint64, np.float16, np.float32, np.float64, np.complex64, np.complex128]


def op_table():
    """[(name, arity, kinds implemented, numpy name)] for every elementwise op of ops.def."""
    rows = []
    text = (ROOT / "ir" / "ops.def").read_text(encoding="utf-8")
    pattern = re.compile(r'^VKA_OP\(\w+, (\w+), (\d), k(\w+), "(\w*)", \w+, (\w+), \w+, '
                         r'"[^"]*",\s*"(\w*)"', re.M)
    for name, arity, kind, kinds, real, numpy_name in pattern.findall(text):
        # Rows without a numpy name are primitives of Python composites, tested through them;
        # rows without a real form (astype) are no elementwise expression.
        if kind in ("Unary", "Binary", "Ternary") and real != "kNone" and numpy_name:
            rows.append((name, int(arity), "".join(k for k in kinds if k.islower()), numpy_name))
    return rows


def accepts(kinds, dtype):
    return np.dtype(dtype).kind in kinds


def edge_values(dtype):
    """The values most likely to break an implementation, for one dtype."""
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return np.array([False, True], dtype=dt)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        vals = [0, 1, 2, 3, 7, info.max, info.max - 1, info.min, info.min + 1]
        if dt.kind == "i":
            vals += [-1, -2, -3, -7]
        return np.array(sorted(set(vals)), dtype=dt)
    f = np.finfo(dt if dt.kind == "f" else np.dtype(dt.char.lower()))
    reals = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 3.0, 0.1, -7.25, 100.0,
             np.inf, -np.inf, np.nan, float(f.tiny), float(f.max), float(-f.max),
             float(f.eps), 1e-3, 12345.678]
    if dt.kind == "f":
        return np.array(reals, dtype=dt)
    pick = [0.0, -0.0, 1.0, -1.5, 2.5, np.inf, np.nan, 1e-3]
    return np.array([complex(a, b) for a in pick for b in pick], dtype=dt)


def random_values(dtype, n, rng, low=-100.0, high=100.0):
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.random(n) < 0.5
    if dt.kind in "iu":
        info = np.iinfo(dt)
        wide = rng.integers(info.min, info.max, size=n // 2, dtype=dt, endpoint=True)
        small = rng.integers(max(info.min, -50), min(info.max, 50), size=n - n // 2,
                             dtype=dt, endpoint=True)
        return np.concatenate([wide, small])
    if dt.kind == "c":
        re_ = rng.uniform(low, high, n)
        im = rng.uniform(low, high, n)
        return (re_ + 1j * im).astype(dt)
    return rng.uniform(low, high, n).astype(dt)


def ulp_error(got, ref, dtype):
    """Per-element error of `got` (in `dtype`) against the more precise `ref`, in ulps of
    `dtype` at the reference value; NaN where both are NaN or equal infinities (no error)."""
    dt = np.dtype(dtype)
    g = got.astype(np.float64)
    with np.errstate(all="ignore"):  # a longdouble reference may overflow float64: inf is right
        r = np.asarray(ref, dtype=np.float64)
        rounded = np.asarray(ref).astype(dt).astype(np.float64)  # overflows as the result must
    same = (np.isnan(g) & np.isnan(r)) | (g == r) | (np.isinf(rounded) & (g == rounded))
    with np.errstate(all="ignore"):
        spacing = np.spacing(np.abs(r).astype(dt)).astype(np.float64)
        spacing = np.where(spacing == 0, np.finfo(dt).smallest_subnormal, spacing)
        err = np.abs(g - r) / spacing
    err[same] = 0.0
    err[np.isnan(err)] = np.inf  # one side NaN, or infinities that differ
    return err


def may_flush_subnormals(dtype):
    """True when the default device does not promise to keep subnormal results of this float
    dtype (NVIDIA's float32 flushes them; its float64 keeps them without promising to). lavapipe
    keeps them: then this is False."""
    dt = np.dtype(dtype)
    if dt.kind not in "fc":
        return False
    bits = (dt.itemsize * 8) // (2 if dt.kind == "c" else 1)
    info = vk.context().devices[0]
    if info["is_cpu"]:
        return False  # a CPU device computes with the host's IEEE arithmetic
    return not info.get(f"denorm_preserve_float{bits}", True)


def flush_subnormals(ref, dtype):
    """numpy's result as a flushing device gives it: subnormal values become signed zeros."""
    real = np.dtype(dtype).char.lower() if np.dtype(dtype).kind == "c" else dtype
    tiny = np.finfo(real).tiny

    def flush(x):
        with np.errstate(invalid="ignore"):
            return np.where(np.abs(x) < tiny, np.copysign(0, x), x).astype(x.dtype)
    out = np.array(ref, copy=True)
    if np.iscomplexobj(out):
        out.real = flush(out.real)
        out.imag = flush(out.imag)
        return out
    return flush(out)


def flushed_matches(got, flushed):
    """Elements where the device gave exactly the flushed value (signed zeros included)."""
    if np.iscomplexobj(got):
        return flushed_matches(got.real, flushed.real) & flushed_matches(got.imag, flushed.imag)
    same = (got == flushed) & (np.signbit(got) == np.signbit(flushed))
    return same | (np.isnan(got) & np.isnan(flushed))
