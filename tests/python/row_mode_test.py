"""Row mode (kernels/glsl/indexing.h): strided kernels of rank >= 2 walk rows with part of a
workgroup per row when rows are short (row_lanes), with the scalar and the 4-vector column
loops; every row length around the lane counts, against numpy."""

import numpy as np
import pytest

import vkarray as vk

INNER = [1, 2, 3, 15, 16, 17, 31, 33, 62, 63, 64, 65, 127, 129, 255, 257, 1000]


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_short_and_long_rows(dtype):
    rng = np.random.default_rng(5)
    for inner in INNER:
        rows = max(3, 3000 // inner)
        a = rng.integers(-50, 50, (rows, inner + 3)).astype(dtype)
        b = rng.integers(-50, 50, (rows, inner)).astype(dtype)
        va, vb = vk.asarray(a), vk.asarray(b)
        # Strided inputs (a row stride past the row): row mode.
        got = (va[:, 1:inner + 1] * 2 + vb - va[:, 2:inner + 2]).get()
        np.testing.assert_array_equal(got, a[:, 1:inner + 1] * 2 + b - a[:, 2:inner + 2],
                                      err_msg=f"inner {inner}")


def test_three_axes_with_a_broadcast_profile():
    """(nx, ny, nz) slices with a (1, 1, nz) profile, as stencils have them: rows of nz - 2."""
    rng = np.random.default_rng(6)
    for nz in (4, 9, 66):
        t = rng.standard_normal((9, 7, nz))
        dz = rng.uniform(1, 2, (1, 1, nz))
        vt, vdz = vk.asarray(t), vk.asarray(dz)
        got = ((vt[1:, :, 1:-1] - vt[:-1, :, 1:-1]) / vdz[:, :, 1:-1]).get()
        np.testing.assert_allclose(got, (t[1:, :, 1:-1] - t[:-1, :, 1:-1]) / dz[:, :, 1:-1],
                                   rtol=1e-15)
