"""numpy's file formats through vkarray (vkarray/_io.py): what vkarray writes numpy reads and
the other way round, values and dtypes unchanged."""

import io

import numpy as np
import pytest

import vkarray as vk

A = np.arange(12, dtype=np.float32).reshape(3, 4) / 7
B = np.array([[1, -2], [3, 4]], np.int16)


def same(got, want):
    assert isinstance(got, vk.ndarray), type(got)
    host = got.get()
    assert host.dtype == want.dtype and host.shape == want.shape, (host.dtype, host.shape)
    np.testing.assert_array_equal(host, want)


def test_npy_round_trip(tmp_path):
    vk.save(tmp_path / "a.npy", vk.asarray(A))
    np.testing.assert_array_equal(np.load(tmp_path / "a.npy"), A)
    np.save(tmp_path / "b.npy", B)
    same(vk.load(tmp_path / "b.npy"), B)


@pytest.mark.parametrize("save", ["savez", "savez_compressed"])
def test_npz_round_trip(tmp_path, save):
    getattr(vk, save)(tmp_path / "ab.npz", vk.asarray(A), b=vk.asarray(B))
    with np.load(tmp_path / "ab.npz") as f:
        np.testing.assert_array_equal(f["arr_0"], A)
        np.testing.assert_array_equal(f["b"], B)
    with vk.load(tmp_path / "ab.npz") as f:
        assert sorted(f.files) == ["arr_0", "b"] and "b" in f
        same(f["arr_0"], A)
        same(f["b"], B)


def test_text_files(tmp_path):
    vk.savetxt(tmp_path / "a.txt", vk.asarray(A), fmt="%.8e")
    np.testing.assert_array_equal(np.loadtxt(tmp_path / "a.txt"),
                                  np.loadtxt(io.StringIO("\n".join(
                                      " ".join(f"{v:.8e}" for v in row) for row in A))))
    same(vk.loadtxt(tmp_path / "a.txt"), np.loadtxt(tmp_path / "a.txt"))
    same(vk.genfromtxt(io.StringIO("1,2\n3,nan"), delimiter=","),
         np.genfromtxt(io.StringIO("1,2\n3,nan"), delimiter=","))


def test_fromfile_and_fromstring(tmp_path):
    B.tofile(tmp_path / "b.bin")
    same(vk.fromfile(tmp_path / "b.bin", np.int16), np.fromfile(tmp_path / "b.bin", np.int16))
    same(vk.fromfile(tmp_path / "b.bin", np.int16, count=2, offset=2),
         np.fromfile(tmp_path / "b.bin", np.int16, count=2, offset=2))
    same(vk.fromstring("1 2 3.5", sep=" "), np.fromstring("1 2 3.5", sep=" "))
