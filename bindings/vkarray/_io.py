"""numpy's file input and output: the readers (load, loadtxt, genfromtxt, fromfile,
fromstring) parse on the host with numpy and upload the result; the writers (save, savez,
savez_compressed, savetxt) download their arrays (an explicit copy each) and write with numpy.
Files are numpy's formats, readable by numpy and vkarray alike."""

import numpy as _np

from . import _vkarray
from ._creation import asarray

__all__ = ["load", "save", "savez", "savez_compressed", "savetxt", "loadtxt", "genfromtxt",
           "fromfile", "fromstring"]


def _host(a):
    return a.get() if isinstance(a, _vkarray.ndarray) else a


def _device(value):
    return asarray(value) if isinstance(value, _np.ndarray) else value


def load(file, mmap_mode=None, allow_pickle=False, fix_imports=True, encoding="ASCII"):
    """numpy.load: an .npy file as a device array; an .npz file as numpy's NpzFile, whose
    arrays are uploaded as they are read (mmap_mode maps nothing: the data is uploaded)."""
    r = _np.load(file, None, allow_pickle, fix_imports, encoding)
    if isinstance(r, _np.lib.npyio.NpzFile):
        return _NpzFile(r)
    return _device(r)


class _NpzFile:
    """numpy's NpzFile, giving device arrays."""

    def __init__(self, npz):
        self._npz = npz
        self.files = npz.files

    def __getitem__(self, key):
        return _device(self._npz[key])

    def __contains__(self, key):
        return key in self._npz

    def __iter__(self):
        return iter(self._npz)

    def __len__(self):
        return len(self._npz)

    def keys(self):
        return self._npz.keys()

    def close(self):
        self._npz.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def save(file, arr, allow_pickle=True, fix_imports=True):
    """numpy.save of a host copy of arr."""
    _np.save(file, _host(arr), allow_pickle, fix_imports)


def savez(file, *args, **kwds):
    """numpy.savez of host copies of the arrays."""
    _np.savez(file, *[_host(a) for a in args], **{k: _host(v) for k, v in kwds.items()})


def savez_compressed(file, *args, **kwds):
    """numpy.savez_compressed of host copies of the arrays."""
    _np.savez_compressed(file, *[_host(a) for a in args],
                         **{k: _host(v) for k, v in kwds.items()})


def savetxt(fname, X, *args, **kwargs):  # noqa: N803 — numpy's parameter name
    """numpy.savetxt of a host copy of X (numpy's arguments)."""
    _np.savetxt(fname, _host(X), *args, **kwargs)


def loadtxt(*args, **kwargs):
    """numpy.loadtxt (numpy's arguments), uploaded."""
    return _device(_np.loadtxt(*args, **kwargs))


def genfromtxt(*args, **kwargs):
    """numpy.genfromtxt (numpy's arguments), uploaded."""
    return _device(_np.genfromtxt(*args, **kwargs))


def fromfile(file, dtype=float, count=-1, sep="", offset=0):
    """numpy.fromfile, uploaded."""
    return asarray(_np.fromfile(file, dtype, count, sep, offset))


def fromstring(string, dtype=float, count=-1, *, sep):
    """numpy.fromstring (text with sep; numpy deprecates binary mode), uploaded."""
    return asarray(_np.fromstring(string, dtype, count, sep=sep))
