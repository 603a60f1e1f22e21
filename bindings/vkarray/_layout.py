"""numpy's ndarray constructor and layout members of vkarray.ndarray: ``ndarray(shape, dtype,
buffer, offset, strides, order)``, ``view``, ``flags`` and ``setflags`` (installed by
_ndarray.py). Shapes, dtypes, strides and base are compiled properties
(bindings/layout_py.cc)."""

import numpy as _np

from . import _vkarray


def construct(shape, dtype=float, buffer=None, offset=0, strides=None, order=None):
    """The array ``vkarray.ndarray(...)`` makes (numpy's arguments and errors)."""
    dtype = _np.dtype(dtype)
    shape = (shape,) if _np.ndim(shape) == 0 else tuple(shape)
    if order not in (None, "C", "A", "K") and not (order == "F" and len(shape) <= 1):
        raise ValueError(f"[ndarray] only order='C' is supported, got order={order!r}")
    if any(not isinstance(d, (int, _np.integer)) for d in shape):
        raise TypeError(f"[ndarray] shape must be integers, got {shape!r}")
    if any(d < 0 for d in shape):
        raise ValueError("[ndarray] negative dimensions are not allowed")
    if strides is not None:
        strides = tuple(int(s) for s in ((strides,) if _np.ndim(strides) == 0 else strides))
    if isinstance(buffer, _vkarray.ndarray):
        return _vkarray._view_bytes(buffer, dtype, shape, int(offset), strides)
    if buffer is None:
        size = int(_np.prod(shape, dtype=_np.int64))
        if strides is None:
            return _vkarray._empty(shape, dtype)
        # numpy's new memory of size elements, seen through the strides it was given.
        return _vkarray._view_bytes(_vkarray._empty(size, dtype), dtype, shape, 0, strides)
    try:
        memoryview(buffer)
    except TypeError:
        raise TypeError(f"[ndarray] a bytes-like object is required, not "
                        f"'{type(buffer).__name__}'") from None
    # Host memory cannot become device memory: numpy's view of the host bytes, uploaded.
    host = _np.ndarray(shape, dtype, buffer=buffer, offset=offset, strides=strides)
    return _vkarray._asarray(_np.ascontiguousarray(host), None)


def _contiguous(shape, strides, order):
    """numpy's contiguity flags from element strides: extent-1 axes take any stride, and an
    empty array is contiguous in both orders."""
    if 0 in shape:
        return True
    step = 1
    axes = range(len(shape) - 1, -1, -1) if order == "C" else range(len(shape))
    for k in axes:
        if shape[k] != 1:
            if strides[k] != step:
                return False
            step *= shape[k]
    return True


class flagsobj:
    """numpy's ndarray.flags for a vkarray array: C_CONTIGUOUS and F_CONTIGUOUS from its view
    of its device buffer, OWNDATA (not a view), WRITEABLE (settable, as setflags), ALIGNED
    (always: device views address whole elements) and WRITEBACKIFCOPY (never)."""

    _KEYS = {"C": "c_contiguous", "CONTIGUOUS": "c_contiguous", "C_CONTIGUOUS": "c_contiguous",
             "F": "f_contiguous", "FORTRAN": "f_contiguous", "F_CONTIGUOUS": "f_contiguous",
             "O": "owndata", "OWNDATA": "owndata", "W": "writeable", "WRITEABLE": "writeable",
             "A": "aligned", "ALIGNED": "aligned", "X": "writebackifcopy",
             "WRITEBACKIFCOPY": "writebackifcopy", "B": "behaved", "BEHAVED": "behaved",
             "CA": "carray", "CARRAY": "carray", "FA": "farray", "FARRAY": "farray",
             "FNC": "fnc", "FORC": "forc"}

    def __init__(self, array):
        self._a = array

    def _strides(self):
        return _vkarray._layout(self._a)[2]

    c_contiguous = property(lambda self: _contiguous(self._a.shape, self._strides(), "C"))
    f_contiguous = property(lambda self: _contiguous(self._a.shape, self._strides(), "F"))
    owndata = property(lambda self: self._a.base is None)
    aligned = property(lambda self: True)
    writebackifcopy = property(lambda self: False)
    behaved = property(lambda self: self.writeable)
    carray = property(lambda self: self.c_contiguous and self.writeable)
    farray = property(lambda self: self.behaved and not self.c_contiguous)  # numpy 1.24's
    fnc = property(lambda self: self.f_contiguous and not self.c_contiguous)
    forc = property(lambda self: self.f_contiguous or self.c_contiguous)

    @property
    def writeable(self):
        return self._a.flags_writeable

    @writeable.setter
    def writeable(self, value):
        self._a.setflags(write=value)

    @property
    def num(self):
        return sum(bit for bit, on in ((1, self.c_contiguous), (2, self.f_contiguous),
                                       (4, self.owndata), (256, True), (1024, self.writeable))
                   if on)

    def _key(self, key):
        name = self._KEYS.get(str(key).upper()) if isinstance(key, str) else None
        if name is None:
            raise KeyError("Unknown flag")
        return name

    def __getitem__(self, key):
        return getattr(self, self._key(key))

    def __setitem__(self, key, value):
        name = self._key(key)
        if name not in ("writeable", "aligned", "writebackifcopy"):
            raise KeyError("Unknown flag")
        self._a.setflags(**{{"writeable": "write", "aligned": "align",
                             "writebackifcopy": "uic"}[name]: value})

    def __eq__(self, other):
        return isinstance(other, flagsobj) and self.num == other.num

    def __repr__(self):
        rows = [("C_CONTIGUOUS", self.c_contiguous), ("F_CONTIGUOUS", self.f_contiguous),
                ("OWNDATA", self.owndata), ("WRITEABLE", self.writeable),
                ("ALIGNED", True), ("WRITEBACKIFCOPY", False)]
        return "\n".join(f"  {k} : {v}" for k, v in rows) + "\n"


def _flags(self):
    """numpy's flags: memory layout of this array's view of its device buffer."""
    return flagsobj(self)


def _setflags(self, write=None, align=None, uic=None):
    """numpy's setflags: write=False makes the array read-only (assignment raises ValueError),
    write=True undoes it where the array was made writeable (not a broadcast_to or diagonal
    view). Device views are always aligned and never write-back copies."""
    if align is not None and not align:
        raise ValueError("[setflags] vkarray arrays are always aligned (device views address "
                         "whole elements): ALIGNED cannot be set to False")
    if uic is not None and uic:
        raise ValueError("[setflags] cannot set WRITEBACKIFCOPY flag to True")
    if write is not None:
        _vkarray._set_writeable(self, bool(write))


def _view(self, dtype=None, type=None):
    """numpy's view: a new array object over the same device memory, with `dtype`'s
    reinterpretation of the bytes (another itemsize changes the last axis, which must be
    contiguous). `type` may only be vkarray.ndarray: operations make no subclass instances."""
    import builtins
    if isinstance(dtype, builtins.type) and issubclass(dtype, _vkarray.ndarray):
        dtype, type = None, dtype
    if type is not None and type is not _vkarray.ndarray:
        raise TypeError(f"[view] type must be vkarray.ndarray, got {type!r}: vkarray's "
                        f"operations return vkarray.ndarray, never a subclass")
    return _vkarray._view_dtype(self, self.dtype if dtype is None else dtype)
