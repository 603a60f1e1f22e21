"""Stencils written once against a numpy-like module and run twice, with numpy and with
vkarray, over many time steps: polybench's jacobi-2d and heat-3d, and a 3x3 convolution, all
as slices and assignments. The results agree within rounding (float64: rtol 1e-12, float32:
rtol 1e-5), and each assignment statement runs exactly one kernel: the value expression is
fused into the write, reading its inputs through views of their buffers.
"""

import numpy
import pytest

import vkarray as vk

RTOL = {numpy.float32: 1e-5, numpy.float64: 1e-12}


def no_check():
    """The per-statement hook of a numpy run: nothing to count."""


class OneKernelPerStatement:
    """The per-statement hook of a vkarray run: asserts that the statement just executed, once
    run (array/write.h records small writes), dispatched exactly one kernel."""

    def __init__(self):
        self.last = vk.kernel_count()
        self.statements = 0

    def __call__(self):
        vk.synchronize()  # a statement's write may be recorded until something reads it
        now = vk.kernel_count()
        assert now - self.last == 1, f"statement {self.statements}: {now - self.last} kernels"
        self.last = now
        self.statements += 1


# ---------------------------------------------------------------------------------------------
# The kernels, as written for numpy; `np` is numpy or vkarray.

def jacobi_2d(np, tsteps, A, B, after_statement=no_check):
    """polybench jacobi-2d: alternating 5-point averages from A into B and back."""
    for _ in range(tsteps):
        B[1:-1, 1:-1] = 0.2 * (A[1:-1, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:] + A[2:, 1:-1]
                               + A[:-2, 1:-1])
        after_statement()
        A[1:-1, 1:-1] = 0.2 * (B[1:-1, 1:-1] + B[1:-1, :-2] + B[1:-1, 2:] + B[2:, 1:-1]
                               + B[:-2, 1:-1])
        after_statement()


def heat_3d(np, tsteps, A, B, after_statement=no_check):
    """polybench heat-3d: explicit 7-point heat diffusion from A into B and back."""
    for _ in range(tsteps):
        B[1:-1, 1:-1, 1:-1] = (
            0.125 * (A[2:, 1:-1, 1:-1] - 2.0 * A[1:-1, 1:-1, 1:-1] + A[:-2, 1:-1, 1:-1])
            + 0.125 * (A[1:-1, 2:, 1:-1] - 2.0 * A[1:-1, 1:-1, 1:-1] + A[1:-1, :-2, 1:-1])
            + 0.125 * (A[1:-1, 1:-1, 2:] - 2.0 * A[1:-1, 1:-1, 1:-1] + A[1:-1, 1:-1, :-2])
            + A[1:-1, 1:-1, 1:-1])
        after_statement()
        A[1:-1, 1:-1, 1:-1] = (
            0.125 * (B[2:, 1:-1, 1:-1] - 2.0 * B[1:-1, 1:-1, 1:-1] + B[:-2, 1:-1, 1:-1])
            + 0.125 * (B[1:-1, 2:, 1:-1] - 2.0 * B[1:-1, 1:-1, 1:-1] + B[1:-1, :-2, 1:-1])
            + 0.125 * (B[1:-1, 1:-1, 2:] - 2.0 * B[1:-1, 1:-1, 1:-1] + B[1:-1, 1:-1, :-2])
            + B[1:-1, 1:-1, 1:-1])
        after_statement()


def conv2d_3x3(src, dst, w):
    """dst's interior = the 3x3 correlation of src with the weights w (a list of lists of
    Python floats); the border of dst is left as it is."""
    dst[1:-1, 1:-1] = (w[0][0] * src[:-2, :-2] + w[0][1] * src[:-2, 1:-1] + w[0][2] * src[:-2, 2:]
                       + w[1][0] * src[1:-1, :-2] + w[1][1] * src[1:-1, 1:-1]
                       + w[1][2] * src[1:-1, 2:]
                       + w[2][0] * src[2:, :-2] + w[2][1] * src[2:, 1:-1] + w[2][2] * src[2:, 2:])


def repeated_conv2d(np, tsteps, image, other, w, after_statement=no_check):
    """tsteps applications of the 3x3 filter, ping-ponging between image and other (a second
    buffer with the same border, which the filter leaves as it is); returns the last
    result."""
    src, dst = image, other
    for _ in range(tsteps):
        conv2d_3x3(src, dst, w)
        after_statement()
        src, dst = dst, src
    return src


# ---------------------------------------------------------------------------------------------
# polybench's initial values (computed on the host, then given to each module).

def jacobi_init(n, m, dtype):
    i, j = numpy.meshgrid(numpy.arange(n), numpy.arange(m), indexing="ij")
    return ((i * (j + 2) + 2) / n).astype(dtype), ((i * (j + 3) + 3) / n).astype(dtype)


def heat_init(n, dtype):
    i, j, k = numpy.meshgrid(numpy.arange(n), numpy.arange(n), numpy.arange(n), indexing="ij")
    a = ((i + j + (n - k)) * 10 / n).astype(dtype)
    return a, a.copy()


def compare(got, want, dtype):
    host = got.get()
    assert host.dtype == want.dtype == dtype and host.shape == want.shape
    numpy.testing.assert_allclose(host, want, rtol=RTOL[dtype], atol=0)


# ---------------------------------------------------------------------------------------------
# The tests.

@pytest.mark.parametrize("dtype", [numpy.float64, numpy.float32])
@pytest.mark.parametrize("n, m, tsteps", [(30, 30, 10), (17, 40, 12), (3, 5, 10)])
def test_jacobi_2d(n, m, tsteps, dtype):
    a0, b0 = jacobi_init(n, m, dtype)
    want_a, want_b = a0.copy(), b0.copy()
    jacobi_2d(numpy, tsteps, want_a, want_b)

    a, b = vk.asarray(a0), vk.asarray(b0)
    vk.eval(a, b)
    check = OneKernelPerStatement()
    jacobi_2d(vk, tsteps, a, b, check)
    assert check.statements == 2 * tsteps
    compare(a, want_a, dtype)
    compare(b, want_b, dtype)
    assert not numpy.array_equal(want_a, a0)  # the steps did change the values


def heat_inputs(n, dtype):
    """polybench's A and B, plus a nonlinear bump on A so that the second differences are not
    all zero."""
    a0, b0 = heat_init(n, dtype)
    bump = numpy.fromfunction(lambda i, j, k: numpy.sin(i * 0.7) * numpy.cos(j * 0.3 + k),
                              (n, n, n))
    return (a0 + bump).astype(dtype), b0


@pytest.mark.parametrize("dtype", [numpy.float64, numpy.float32])
@pytest.mark.parametrize("n, tsteps", [(12, 10), (16, 11)])
def test_heat_3d(n, tsteps, dtype):
    a0, b0 = heat_inputs(n, dtype)
    want_a, want_b = a0.copy(), b0.copy()
    heat_3d(numpy, tsteps, want_a, want_b)

    a, b = vk.asarray(a0), vk.asarray(b0)
    vk.eval(a, b)
    heat_3d(vk, tsteps, a, b)
    compare(a, want_a, dtype)
    compare(b, want_b, dtype)


@pytest.mark.parametrize("dtype", [numpy.float64, numpy.float32])
def test_heat_3d_one_kernel_per_statement(dtype):
    a0, b0 = heat_inputs(10, dtype)
    a, b = vk.asarray(a0), vk.asarray(b0)
    vk.eval(a, b)
    check = OneKernelPerStatement()
    heat_3d(vk, 10, a, b, check)
    assert check.statements == 20


CONV_CASES = [
    ((24, 24), [[0.0625, 0.125, 0.0625], [0.125, 0.25, 0.125], [0.0625, 0.125, 0.0625]]),
    ((9, 33), [[0.0, -0.5, 0.0], [-0.25, 2.0, -0.25], [0.0, -0.5, 0.5]]),
]


def conv_inputs(shape, dtype):
    image0 = numpy.random.default_rng(sum(shape)).standard_normal(shape).astype(dtype)
    image, other = vk.asarray(image0), vk.asarray(image0)
    vk.eval(image, other)
    return image0, image, other


@pytest.mark.parametrize("dtype", [numpy.float64, numpy.float32])
@pytest.mark.parametrize("shape, w", CONV_CASES)
def test_conv2d_3x3(shape, w, dtype):
    tsteps = 10
    image0, image, other = conv_inputs(shape, dtype)
    want = repeated_conv2d(numpy, tsteps, image0.copy(), image0.copy(), w)
    got = repeated_conv2d(vk, tsteps, image, other, w)
    assert got is image  # an even number of steps ends where it started
    compare(got, want, dtype)
    compare(other, repeated_conv2d(numpy, tsteps - 1, image0.copy(), image0.copy(), w), dtype)


@pytest.mark.parametrize("dtype", [numpy.float64, numpy.float32])
def test_conv2d_3x3_one_kernel_per_statement(dtype):
    shape, w = CONV_CASES[0]
    _, image, other = conv_inputs(shape, dtype)
    check = OneKernelPerStatement()
    repeated_conv2d(vk, 10, image, other, w, check)
    assert check.statements == 10


def test_jacobi_2d_lazy_inputs():
    """Inputs made by vkarray's creation functions: the first view of each computes it (one
    kernel each, evaluated up front here), then every statement is one kernel as before."""
    n, tsteps = 20, 10
    want_a = numpy.zeros((n, n))
    want_a[0, :] = 1.0
    want_b = numpy.zeros((n, n))
    jacobi_2d(numpy, tsteps, want_a, want_b)

    a, b = vk.zeros((n, n)), vk.zeros((n, n))
    a[0, :] = 1.0
    vk.eval(a, b)
    check = OneKernelPerStatement()
    jacobi_2d(vk, tsteps, a, b, check)
    compare(a, want_a, numpy.float64)
    compare(b, want_b, numpy.float64)
