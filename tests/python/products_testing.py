"""Helpers of the matrix-product tests: seeded operands of every dtype, and the comparison
with numpy under the bound of docs/accuracy.md ("Matrix products"): integers and bool exact;
floats |got - exact| <= gamma_k * (|A| @ |B|) per element, gamma_k = k u / (1 - k u), u the
accumulator's unit roundoff (float32 for float16 inputs), plus one rounding of the result to
float16; complex products gamma_2k on |re| + |im| magnitudes, per component."""

import numpy as np

DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
          np.uint64, np.float16, np.float32, np.float64, np.complex64, np.complex128]

UNIT = {np.dtype(np.float16): 2.0 ** -24, np.dtype(np.float32): 2.0 ** -24,
        np.dtype(np.float64): 2.0 ** -53, np.dtype(np.complex64): 2.0 ** -24,
        np.dtype(np.complex128): 2.0 ** -53}


def sample(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.integers(0, 2, shape).astype(dtype)
    if dt.kind == "u":
        return rng.integers(0, 200, shape).astype(dtype)
    if dt.kind == "i":
        return rng.integers(-100, 100, shape).astype(dtype)
    v = rng.uniform(-1, 1, shape)
    if dt.kind == "c":
        v = v + 1j * rng.uniform(-1, 1, shape)
    return v.astype(dtype)


def check(got, a, b):
    """got (a vkarray result) against numpy's matmul of the host operands a, b."""
    check_values(got, np.matmul, a, b, a.shape[-1])


def check_values(got, fn, a, b, k):
    """got against numpy's fn(a, b), a bilinear product summing k terms per element: exact for
    integers and bool; for floats within the bound, its exact value and magnitudes formed by
    fn on float64 (complex128) copies and on |a|, |b|."""
    want = fn(a, b)
    got = np.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape
    dt = want.dtype
    if dt.kind in "biu":
        np.testing.assert_array_equal(got, want)
        return
    u = UNIT[dt]
    if dt.kind == "c":
        a1 = np.abs(a.real) + np.abs(a.imag)
        b1 = np.abs(b.real) + np.abs(b.imag)
        exact = fn(a.astype(np.complex128), b.astype(np.complex128))
        g = 2 * k * u / (1 - 2 * k * u)
        bound = g * fn(a1.astype(np.float64), b1.astype(np.float64))
        assert np.all(np.abs(got.real - exact.real) <= bound)
        assert np.all(np.abs(got.imag - exact.imag) <= bound)
        return
    exact = fn(a.astype(np.float64), b.astype(np.float64))
    g = k * u / (1 - k * u)
    bound = g * fn(np.abs(a).astype(np.float64), np.abs(b).astype(np.float64))
    if dt == np.float16:
        bound = bound * (1 + 2.0 ** -11) + 2.0 ** -11 * np.abs(exact) + 2.0 ** -25  # subnormals
    err = np.abs(got.astype(np.float64) - exact)
    assert np.all(err <= bound), (err - bound).max()
