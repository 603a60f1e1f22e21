"""A numpy program with boolean compaction of the live points (complex Mandelbrot escape
counts: shape assignment, out= aliasing its inputs, in-place logical_not, mask gathers and
scatters through index arrays, float32 + complex promotion, a float32 linspace) run
unchanged on vkarray and numpy: the escape counts and final values must be numpy's, and each
piece it leans on is checked on its own."""

import numpy
import pytest

import vkarray


def mandelbrot(np, xmin, xmax, ymin, ymax, xn, yn, itermax, horizon=2.0):
    # The program as users write it with `import vkarray as np` (only `np` is a parameter).
    Xi, Yi = np.mgrid[0:xn, 0:yn]
    Xi, Yi = Xi.astype(np.uint32), Yi.astype(np.uint32)
    X = np.linspace(xmin, xmax, xn, dtype=np.float32)[Xi]
    Y = np.linspace(ymin, ymax, yn, dtype=np.float32)[Yi]
    C = X + Y * 1j
    N_ = np.zeros(C.shape, dtype=np.uint32)
    Z_ = np.zeros(C.shape, dtype=np.complex64)
    Xi.shape = Yi.shape = C.shape = xn * yn
    Z = np.zeros(C.shape, np.complex64)
    for i in range(itermax):
        if not len(Z):
            break
        np.multiply(Z, Z, Z)
        np.add(Z, C, Z)
        I = np.abs(Z) > horizon
        N_[Xi[I], Yi[I]] = i + 1
        Z_[Xi[I], Yi[I]] = Z[I]
        np.logical_not(I, I)
        Z = Z[I]
        Xi, Yi = Xi[I], Yi[I]
        C = C[I]
    return Z_.T, N_.T


# No point of these grids lands within an ulp of the horizon, where numpy's own complex64 abs
# depends on the host (its AVX512F loop is an ulp from hypot for about a third of inputs;
# vkarray gives hypot's, docs/accuracy.md) and the count could differ by one on either side.
@pytest.mark.parametrize("size", [(40, 30, 50), (200, 150, 50)])
def test_escape_counts_are_numpys(size):
    args = (-2.25, 0.75, -1.25, 1.25) + size
    want_z, want_n = mandelbrot(numpy, *args)
    got_z, got_n = mandelbrot(vkarray, *args)
    assert isinstance(got_n, vkarray.ndarray) and got_n.dtype == numpy.uint32
    numpy.testing.assert_array_equal(got_n.get(), want_n)
    numpy.testing.assert_array_equal(got_z.get(), want_z)


def test_the_grid_is_numpys():
    # A float32 linspace computed in float32 is ~1e-5 off where it crosses zero, which moved
    # points across the escape boundary: numpy computes in float64 and rounds once.
    for n in (40, 200, 1200):
        got = vkarray.linspace(-2.25, 0.75, n, dtype=vkarray.float32)
        numpy.testing.assert_array_equal(got.get(),
                                         numpy.linspace(-2.25, 0.75, n, dtype=numpy.float32))
    x = vkarray.linspace(-1.0, 1.0, 5, dtype=vkarray.float32)
    c = x + x * 1j  # a weak Python complex keeps float32's precision: complex64
    assert c.dtype == numpy.complex64


def test_the_steps_it_leans_on():
    rng = numpy.random.default_rng(4)
    z = (rng.standard_normal(50) + 1j * rng.standard_normal(50)).astype(numpy.complex64)
    c = (rng.standard_normal(50) + 1j * rng.standard_normal(50)).astype(numpy.complex64)
    gz, gc = vkarray.asarray(z), vkarray.asarray(c)
    alias = gz
    assert vkarray.multiply(gz, gz, gz) is gz and vkarray.add(gz, gc, gz) is gz
    numpy.multiply(z, z, z)
    numpy.add(z, c, z)
    numpy.testing.assert_array_equal(alias.get(), z)
    mask = numpy.abs(z) > 1.0
    gm = vkarray.abs(gz) > 1.0
    numpy.testing.assert_array_equal(gm.get(), mask)
    assert vkarray.logical_not(gm, gm) is gm
    numpy.testing.assert_array_equal(gm.get(), ~mask)
    numpy.testing.assert_array_equal(gz[gm].get(), z[~mask])
    # Scatters through index arrays with repeated, unsorted indices keep the last value.
    rows = numpy.array([3, 1, 3, 0, 1, 3])
    cols = numpy.array([2, 0, 2, 1, 0, 2])
    want = numpy.zeros((4, 3), numpy.uint32)
    got = vkarray.zeros((4, 3), dtype=vkarray.uint32)
    values = numpy.arange(6, dtype=numpy.uint32) + 10
    want[rows, cols] = values
    got[vkarray.asarray(rows), vkarray.asarray(cols)] = vkarray.asarray(values)
    numpy.testing.assert_array_equal(got.get(), want)
