"""numpy's file input and output for vkarray arrays: numpy reads and writes the files, and
the values cross between host and device explicitly, once (save, savez, savez_compressed and
savetxt download their arrays; load, loadtxt, genfromtxt, fromfile and fromstring upload what
numpy read). Only vkarray's dtypes cross: structured, string, object and masked results are
refused naming the function."""

import numpy as _np

from . import _vkarray
from ._creation import asarray

__all__ = ["save", "savez", "savez_compressed", "savetxt", "load", "loadtxt", "genfromtxt",
           "fromfile", "fromstring", "DataSource"]

DataSource = _np.DataSource  # numpy's file opener (local paths, URLs, compressed files)


def _download(x):
    return x.get() if isinstance(x, _vkarray.ndarray) else x


def _upload(host, op):
    """numpy's result on the device; dtypes vkarray lacks are refused with op's name."""
    if isinstance(host, _np.ma.MaskedArray):
        raise TypeError(f"[{op}] masked arrays have no vkarray counterpart (usemask=False)")
    if host.dtype.names is not None or host.dtype.kind in "OSUVMm":
        raise TypeError(f"[{op}] the file's values are of dtype {host.dtype}, which vkarray "
                        f"does not have (structured, string, object and datetime dtypes)")
    return asarray(host)


def save(file, arr, allow_pickle=True, fix_imports=True):
    """numpy.save of a vkarray array (downloaded once) or any array-like, in .npy format."""
    _np.save(file, _download(arr), allow_pickle=allow_pickle, fix_imports=fix_imports)


def savez(file, *args, **kwds):
    """numpy.savez: several arrays (vkarray's downloaded) in one uncompressed .npz."""
    _np.savez(file, *[_download(a) for a in args], **{k: _download(v) for k, v in kwds.items()})


def savez_compressed(file, *args, **kwds):
    """numpy.savez_compressed: several arrays (vkarray's downloaded) in one compressed .npz."""
    _np.savez_compressed(file, *[_download(a) for a in args],
                         **{k: _download(v) for k, v in kwds.items()})


def savetxt(fname, X, *args, **kwargs):  # noqa: N803 — numpy's parameter name
    """numpy.savetxt of a vkarray array (downloaded once) or any array-like, as text."""
    _np.savetxt(fname, _download(X), *args, **kwargs)


class NpzFile:
    """numpy.load's result for an .npz file: the same mapping of names to arrays, each
    uploaded to the device when read (and closed with the file, or with a with block)."""

    def __init__(self, npz):
        self._npz = npz
        self.files = npz.files

    def __getitem__(self, key):
        return _upload(self._npz[key], "load")

    def __contains__(self, key):
        return key in self._npz

    def __iter__(self):
        return iter(self._npz)

    def __len__(self):
        return len(self._npz)

    def keys(self):
        return self._npz.keys()

    def items(self):
        return [(k, self[k]) for k in self.files]

    def values(self):
        return [self[k] for k in self.files]

    def close(self):
        self._npz.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def load(file, mmap_mode=None, allow_pickle=False, fix_imports=True, encoding="ASCII",
         **kwargs):
    """numpy.load: a .npy file's array uploaded to the device; an .npz file as a mapping whose
    arrays are uploaded when read; pickled objects as numpy gives them. mmap_mode (host
    memory mapping) is refused: the values are copied to the device."""
    if mmap_mode is not None:
        raise ValueError(f"[load] mmap_mode={mmap_mode!r} maps the file into host memory; "
                         f"vkarray copies the values to the device, so pass mmap_mode=None "
                         f"(or use numpy.load and vkarray.asarray on the parts needed)")
    got = _np.load(file, allow_pickle=allow_pickle, fix_imports=fix_imports, encoding=encoding,
                   **kwargs)
    if isinstance(got, _np.lib.npyio.NpzFile):
        return NpzFile(got)
    return _upload(got, "load") if isinstance(got, _np.ndarray) else got


def loadtxt(fname, *args, **kwargs):
    """numpy.loadtxt, the values uploaded to the device."""
    got = _np.loadtxt(fname, *args, **kwargs)
    return tuple(_upload(g, "loadtxt") for g in got) if isinstance(got, tuple) else \
        _upload(got, "loadtxt")


def genfromtxt(fname, *args, **kwargs):
    """numpy.genfromtxt (missing values filled as numpy fills them), the values uploaded to
    the device."""
    got = _np.genfromtxt(fname, *args, **kwargs)
    return tuple(_upload(g, "genfromtxt") for g in got) if isinstance(got, tuple) else \
        _upload(got, "genfromtxt")


def fromfile(file, dtype=float, count=-1, sep="", offset=0, *, like=None):
    """numpy.fromfile: a binary or text file's values, uploaded to the device."""
    return _upload(_np.fromfile(file, dtype=dtype, count=count, sep=sep, offset=offset),
                   "fromfile")


def fromstring(string, dtype=float, count=-1, *, sep, like=None):
    """numpy.fromstring: the values of a text string (sep= required, as numpy 1.14+ wants),
    uploaded to the device."""
    return _upload(_np.fromstring(string, dtype=dtype, count=count, sep=sep), "fromstring")
