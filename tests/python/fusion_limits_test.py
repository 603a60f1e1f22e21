"""Fusion without limits: the number of constants, views, inputs and nodes of an expression
never splits its kernel (arguments outgrow push constants into an argument buffer, views of one
storage share a binding, storages past the device's descriptors are addressed), and operands
larger than a binding (maxStorageBufferRange, 128 MiB on lavapipe) are read in place. Each
result is checked against numpy."""

import numpy as np
import pytest

import vkarray as vk


def kernels(fn):
    """(value, kernels launched) of fn()."""
    before = vk.kernel_count()
    value = fn()
    return value, vk.kernel_count() - before


def test_500_distinct_constants_are_one_kernel():
    rng = np.random.default_rng(1)
    x = rng.uniform(-1, 1, 1000)
    consts = rng.uniform(0.5, 1.5, 500)
    xv = vk.asarray(x)
    got, n = kernels(lambda: np.asarray(sum_terms(xv, consts)))
    assert n == 1
    np.testing.assert_allclose(got, sum_terms(x, consts), rtol=1e-13)


def sum_terms(x, consts):
    y = x * 0
    for i, c in enumerate(consts):
        y = y + (x * c if i % 2 else x - c)
    return y


def test_64_views_of_one_array_are_one_kernel():
    a = np.arange(200, dtype=np.float32) * 0.25
    av = vk.asarray(a)

    def stencil(v):
        acc = v[0:100] * 0
        for k in range(64):
            acc = acc + v[k:k + 100] * (k + 1)
        return acc

    got, n = kernels(lambda: np.asarray(stencil(av)))
    assert n == 1
    np.testing.assert_allclose(got, stencil(a), rtol=1e-5)


def test_40_input_arrays_are_one_kernel():
    rng = np.random.default_rng(2)
    arrays = [rng.uniform(-1, 1, 333) for _ in range(40)]
    views = [vk.asarray(a) for a in arrays]

    def mix(xs):
        y = xs[0]
        for i, x in enumerate(xs[1:]):
            y = y * 0.5 + x if i % 3 else y - x * x
        return y

    got, n = kernels(lambda: np.asarray(mix(views)))
    assert n == 1
    np.testing.assert_allclose(got, mix(arrays), rtol=1e-12)


def test_a_300_node_polynomial_with_reuse_is_one_kernel():
    """Powers reused many times, 50 distinct float64 constants, inputs broadcast across axes."""
    rng = np.random.default_rng(3)
    s = rng.uniform(30, 40, (4, 5, 6))
    t = rng.uniform(0, 25, (1, 1, 6))
    c = rng.uniform(-1, 1, 50)

    def poly(s, t):
        s2, t2 = s * s, t * t
        s3, t3 = s2 * s, t2 * t
        terms = [s, t, s2, t2, s3, t3, s * t, s2 * t, s * t2, s2 * t2]
        y = s * 0
        for k in range(50):
            term = terms[k % len(terms)] * terms[(3 * k + 1) % len(terms)]
            y = y + c[k] * term + (term - c[(k + 7) % 50]) * 1e-3
        return y

    sv, tv = vk.asarray(s), vk.asarray(t)
    result = poly(sv, tv)
    got, n = kernels(lambda: np.asarray(result))
    assert n == 1
    np.testing.assert_allclose(got, poly(s, t), rtol=1e-12)


def test_horner_with_60_constants_is_one_kernel():
    rng = np.random.default_rng(4)
    x = rng.uniform(-1, 1, 10_000)
    coeffs = rng.uniform(-1, 1, 60)

    def horner(v):
        r = v * 0 + coeffs[0]
        for c in coeffs[1:]:
            r = r * v + c
        return r

    got, n = kernels(lambda: np.asarray(horner(vk.asarray(x))))
    assert n == 1
    np.testing.assert_allclose(got, horner(x), rtol=1e-10, atol=1e-12)


def test_a_chain_of_100000_operations_is_bounded():
    """No recursion limit, and kernels of at most max_tape values each."""
    x = np.linspace(0, 1, 64)
    y = vk.asarray(x)
    ref = x.copy()
    for i in range(50_000):
        y = y * 1.0001 + 0.5
    for i in range(50_000):
        ref = ref * 1.0001 + 0.5
    got, n = kernels(lambda: np.asarray(y))
    assert 1 <= n <= 100_000 // 256 + 1
    np.testing.assert_allclose(got, ref, rtol=1e-9)


def test_accumulating_10000_zero_d_views_is_bounded():
    rng = np.random.default_rng(5)
    a = rng.uniform(-1, 1, (100, 100))
    av = vk.asarray(a)
    t = 0.0
    ref = 0.0
    for k in range(10_000):
        i, j = k % 100, (k * 7) % 100
        t = t + np.tanh(av[i, j])
        ref = ref + np.tanh(a[i, j])
    got, n = kernels(lambda: float(t))
    # Each kernel holds at least 3/4 of the transcendental functions a kernel may (16 on a CPU
    # device such as lavapipe, 64 elsewhere: Limits in schedule/schedule.h), but the last.
    assert n <= 10_000 // 12 + 1
    assert got == pytest.approx(ref, rel=1e-12)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_reductions_and_products_of_operands_past_a_binding(dtype):
    """A 160 MB matrix on lavapipe: A @ x, A.T @ y, a sum and a column sum, read in place."""
    rows = 160_000_000 // (2000 * np.dtype(dtype).itemsize)
    rng = np.random.default_rng(6)
    a = rng.uniform(-1, 1, (rows, 2000)).astype(dtype)
    x = rng.uniform(-1, 1, 2000).astype(dtype)
    y = rng.uniform(-1, 1, rows).astype(dtype)
    av = vk.asarray(a)
    tol = 1e-10 if dtype == np.float64 else 2e-3
    np.testing.assert_allclose(np.asarray(av @ vk.asarray(x)), a @ x, rtol=tol, atol=tol)
    np.testing.assert_allclose(np.asarray(av.T @ vk.asarray(y)), a.T @ y, rtol=tol, atol=tol)
    np.testing.assert_allclose(float(vk.sum(av)), a.sum(dtype=np.float64), rtol=tol)
    np.testing.assert_allclose(np.asarray(vk.sum(av * 2 + 1, axis=0)),
                               (a * 2 + 1).sum(axis=0, dtype=np.float64), rtol=tol, atol=tol)


def test_a_matrix_product_with_a_240_mb_operand():
    rng = np.random.default_rng(7)
    a = rng.uniform(-1, 1, (30_000, 1_000))
    b = rng.uniform(-1, 1, (1_000, 16))
    got = np.asarray(vk.asarray(a) @ vk.asarray(b))
    np.testing.assert_allclose(got, a @ b, rtol=1e-10, atol=1e-10)
    # Its transpose read in place, with an epilogue.
    c = rng.uniform(-1, 1, (30_000, 16))
    got = np.asarray(vk.maximum(vk.asarray(a).T @ vk.asarray(c) + 1.0, 0.0))
    np.testing.assert_allclose(got, np.maximum(a.T @ c + 1.0, 0.0), rtol=1e-10, atol=1e-10)
