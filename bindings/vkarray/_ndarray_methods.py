"""numpy.ndarray's methods that vkarray.ndarray composes from vkarray's functions (installed
by _ndarray.py): the function-named ones (clip, take, put, repeat, ...), element access
(itemset, __contains__), byte-level views (getfield, setfield, byteswap, newbyteorder),
in-place resize and __setstate__, host serialization (tobytes, tofile, dump, dumps: explicit
downloads), and the attributes that describe host memory (data, ctypes), which raise saying
why."""

import pickle as _pickle
import types as _types

import numpy as _np

from . import _indexing, _math, _products, _reorder, _vkarray
from ._creation import asarray, zeros


def _finish(result, out, op):
    """numpy's out=: the result written into `out` (same_kind casting), which is returned."""
    return _vkarray._finish(result, out, op=op)


def _clip(self, min=None, max=None, out=None, **kwargs):
    """numpy.ndarray.clip: vkarray.clip(self, min, max, out=out)."""
    return _math.clip(self, min, max, out=out, **kwargs)


def _choose(self, choices, out=None, mode="raise"):
    """numpy.ndarray.choose: vkarray.choose(self, choices, out=out, mode=mode)."""
    return _indexing.choose(self, choices, out=out, mode=mode)


def _compress(self, condition, axis=None, out=None):
    """numpy.ndarray.compress: the slices along `axis` where condition is true."""
    return _finish(_vkarray.compress(condition, self, axis), out, "compress")


def _conj(self):
    """numpy.ndarray.conj: the complex conjugate (lazy, fused with its readers)."""
    return _math.conj(self)


def _dot(self, b, out=None):
    """numpy.ndarray.dot: vkarray.dot(self, b, out=out)."""
    return _products.dot(self, b, out=out)


def _nonzero(self):
    """numpy.ndarray.nonzero: the indices of the nonzero elements, one array per axis."""
    return _vkarray.nonzero(self)


def _repeat(self, repeats, axis=None):
    """numpy.ndarray.repeat: vkarray.repeat(self, repeats, axis)."""
    return _reorder.repeat(self, repeats, axis)


def _round(self, decimals=0, out=None):
    """numpy.ndarray.round: vkarray.round(self, decimals, out=out)."""
    return _vkarray.round(self, decimals, out)


def _searchsorted(self, v, side="left", sorter=None):
    """numpy.ndarray.searchsorted: where v's values would go in this sorted 1-d array."""
    return _vkarray.searchsorted(self, v, side, sorter)


def _take(self, indices, axis=None, out=None, mode="raise"):
    """numpy.ndarray.take: vkarray.take(self, indices, axis, out, mode)."""
    return _vkarray.take(self, indices, axis, out, mode)


def _trace(self, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """numpy.ndarray.trace: the sum along a diagonal."""
    return _products.trace(self, offset, axis1, axis2, dtype, out)


def _put(self, indices, values, mode="raise"):
    """numpy.ndarray.put: values written at flat indices, in place (vkarray.put)."""
    _vkarray.put(self, indices, values, mode)


def _itemset(self, *args):
    """numpy.ndarray.itemset: one element set in place; itemset(v) for a size-1 array,
    itemset(i, v) at flat index i, itemset((i, j), v) or itemset(i, j, v) at a multi-index."""
    if not args:
        raise TypeError("[itemset] itemset must have at least one argument")
    *index, value = args
    if not index:
        if self.size != 1:
            raise ValueError("[itemset] can only convert an array of size 1 to a Python scalar")
        index = (0,) * self.ndim
    elif len(index) == 1 and isinstance(index[0], tuple):
        index = index[0]
    elif len(index) == 1:
        flat = int(_np.asarray(index[0]))
        if not -self.size <= flat < self.size:
            raise IndexError(f"[itemset] index {flat} is out of bounds for size {self.size}")
        index = _np.unravel_index(flat % self.size, self.shape)
    self[tuple(int(i) for i in index)] = value


def _contains(self, value):
    """`value in x`: (x == value).any(), as numpy."""
    return bool(_vkarray.any(self == value))


def _delitem(self, key):
    raise ValueError("cannot delete array elements")


def _class_getitem(cls, item):
    """vkarray.ndarray[shape_type, dtype_type] for annotations (numpy.typing's form)."""
    return _types.GenericAlias(cls, item)


def _getfield(self, dtype, offset=0):
    """numpy.ndarray.getfield: each element's bytes from byte `offset` on, as `dtype` (a view:
    complex128's getfield(float64, 8) is its imaginary part, writeable)."""
    return _vkarray._view_field(self, dtype, int(offset))


def _setfield(self, val, dtype, offset=0):
    """numpy.ndarray.setfield: val written into the field getfield(dtype, offset) views."""
    _getfield(self, dtype, offset)[...] = val


_UINTS = {2: _np.uint16, 4: _np.uint32, 8: _np.uint64}


def _swap_bytes(u):
    """The bytes of each unsigned element reversed, with shifts and masks (lazy)."""
    n = u.dtype.itemsize
    t = u.dtype.type
    out = None
    for k in range(n):
        byte = (u >> t(8 * k)) & t(0xFF)
        part = byte << t(8 * (n - 1 - k))
        out = part if out is None else out | part
    return out


def _byteswap(self, inplace=False):
    """numpy.ndarray.byteswap: every element's bytes reversed (each part of a complex
    number on its own), on the device through an unsigned view of the same bits; in place,
    or in a new array."""
    target = self if inplace else _vkarray.copy(self)
    if target.dtype.kind == "c":
        half = target.dtype.itemsize // 2
        part = _np.dtype(f"f{half}")
        parts = [_getfield(target, part, 0), _getfield(target, part, half)]
    else:
        parts = [target]
    for p in parts:
        if p.dtype.itemsize > 1:
            bits = _vkarray._view_dtype(p, _UINTS[p.dtype.itemsize])
            bits[...] = _swap_bytes(bits)
    return target


_NATIVE = {"=", "N", "<", "L", "|", "I"}


def _newbyteorder(self, new_order="S"):
    """numpy.ndarray.newbyteorder: the same bytes under another byte order. vkarray holds
    native (little-endian) data only, so only orders that keep it are views; byteswap()
    swaps the bytes themselves."""
    code = str(new_order)[:1].upper() if new_order else "S"
    if code not in _NATIVE | {"S", ">", "B"}:
        raise ValueError(f"[newbyteorder] {new_order!r} is not a valid byte order")
    if code in _NATIVE or self.dtype.itemsize == 1:
        return self.view()
    raise TypeError(f"[newbyteorder] {new_order!r} would give a big-endian {self.dtype}: "
                    f"vkarray arrays hold native (little-endian) bytes only; byteswap() "
                    f"swaps the bytes of each element instead")


def _resize(self, *new_shape, refcheck=True):
    """numpy.ndarray.resize: this array takes the new shape in place, its elements in C order
    kept and any new ones zero. Refused, as numpy, for a view (which does not own its data)
    and, with refcheck, for an array that other arrays view."""
    if len(new_shape) == 1 and not isinstance(new_shape[0], (int, _np.integer)):
        new_shape = tuple(new_shape[0]) if new_shape[0] is not None else ()
    shape = tuple(int(s) for s in new_shape)
    if any(s < 0 for s in shape):
        raise ValueError("[resize] negative dimensions not allowed")
    if self.base is not None:
        raise ValueError("[resize] cannot resize this array: it does not own its data")
    buffer_id, _, _, users = _vkarray._layout(self)
    if refcheck and buffer_id is not None and users > 1:
        raise ValueError("[resize] cannot resize an array that references or is referenced by "
                         "another array in this way. Use the np.resize function or "
                         "refcheck=False")
    size = int(_np.prod(shape, dtype=_np.int64))
    new = zeros(shape, dtype=self.dtype, context=self.context)
    keep = min(size, self.size)
    if keep:
        new.reshape(-1)[:keep] = self.reshape(-1)[:keep]
    _vkarray._replace(self, new)


def _setstate(self, state):
    """numpy's __setstate__: the array takes the shape, dtype and raw bytes of numpy's pickle
    state (version, shape, dtype, is_fortran, rawdata), uploaded in place."""
    if len(state) == 5:
        state = state[1:]
    shape, dtype, is_fortran, raw = state
    host = _np.frombuffer(raw, dtype=dtype).reshape(shape, order="F" if is_fortran else "C")
    _vkarray._replace(self, asarray(_np.ascontiguousarray(host), context=self.context))


def _tobytes(self, order="C"):
    """numpy.ndarray.tobytes: the values' bytes, from a download (host memory)."""
    return self.get().tobytes(order)


def _tostring(self, order="C"):
    """numpy.ndarray.tostring: tobytes (numpy's deprecated name)."""
    return self.get().tobytes(order)


def _tofile(self, fid, sep="", format="%s"):
    """numpy.ndarray.tofile: the values written to a file, from a download."""
    self.get().tofile(fid, sep, format)


def _dumps(self):
    """numpy.ndarray.dumps: the pickle of the array (its values through a host copy)."""
    return _pickle.dumps(self, protocol=2)


def _dump(self, file):
    """numpy.ndarray.dump: the pickle written to a file (a path or an open binary file)."""
    if hasattr(file, "write"):
        _pickle.dump(self, file, protocol=2)
        return
    with open(file, "wb") as f:
        _pickle.dump(self, f, protocol=2)


def _host_memory(name, instead):
    def get(self):
        raise AttributeError(f"[ndarray.{name}] a vkarray array lives in device memory, which "
                             f"Python cannot address; {instead}")
    get.__doc__ = (f"numpy's {name} describes host memory; a vkarray array has none (raises "
                   f"AttributeError saying so).")
    return property(get)


# name → member, for _ndarray.py
MEMBERS = {
    "clip": _clip, "choose": _choose, "compress": _compress, "conj": _conj,
    "conjugate": _conj, "dot": _dot, "nonzero": _nonzero, "repeat": _repeat, "round": _round,
    "searchsorted": _searchsorted, "take": _take, "trace": _trace, "put": _put,
    "itemset": _itemset, "getfield": _getfield, "setfield": _setfield,
    "byteswap": _byteswap, "newbyteorder": _newbyteorder, "resize": _resize,
    "tobytes": _tobytes, "tostring": _tostring, "tofile": _tofile, "dumps": _dumps,
    "dump": _dump, "__contains__": _contains, "__delitem__": _delitem,
    "__setstate__": _setstate, "__class_getitem__": classmethod(_class_getitem),
    "data": _host_memory("data", "np.asarray(x) downloads a host copy, x.tobytes() its bytes"),
    "ctypes": _host_memory("ctypes", "np.asarray(x).ctypes is a host copy's (vk.HostArray "
                                     "gives pinned host memory)"),
}
