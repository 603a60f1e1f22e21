"""numpy.lib.stride_tricks' views, here at the top level: as_strided and sliding_window_view,
views of the same device memory through other strides (no copy, no device work). The views
stay inside the memory the array owns: the device cannot address anything else."""

import operator as _operator

import numpy as _np

from . import _vkarray
from ._shaping import _asarray, _normalize_axis

__all__ = ["as_strided", "sliding_window_view"]


def as_strided(x, shape=None, strides=None, subok=False, writeable=True):
    """numpy.lib.stride_tricks.as_strided: a view of x's memory with the given shape and
    strides in bytes (x's own where not given), from x's first element. A view reaching past
    the memory x's owner holds raises ValueError (numpy reads whatever lies there)."""
    x = _asarray(x)
    shape = tuple(x.shape) if shape is None else tuple(_operator.index(d) for d in shape)
    strides = tuple(x.strides) if strides is None else tuple(int(s) for s in strides)
    owner = x.base if x.base is not None else x
    _, start, _, _ = _vkarray._layout(x)
    _, owner_start, _, _ = _vkarray._layout(owner)
    offset = (start - owner_start) * x.itemsize
    try:
        view = _vkarray._view_bytes(owner, x.dtype, shape, offset, strides)
    except ValueError:
        raise ValueError(f"[as_strided] a view of shape {shape} and strides {strides} from "
                         f"element {start - owner_start} reaches past the {owner.nbytes} bytes "
                         f"of the array's memory") from None
    if not writeable:
        view.setflags(write=False)
    return view


def sliding_window_view(x, window_shape, axis=None, *, subok=False, writeable=False):
    """numpy.lib.stride_tricks.sliding_window_view: every window of window_shape over the
    axes (all by default), as the trailing dimensions of a read-only view (writeable=True
    makes it writeable, as numpy's)."""
    window_shape = tuple(window_shape) if _np.iterable(window_shape) else (window_shape,)
    x = _asarray(x)
    if any(w < 0 for w in window_shape):
        raise ValueError("[sliding_window_view] `window_shape` cannot contain negative values "
                         f"(window_shape = {window_shape})")
    if axis is None:
        axis = tuple(range(x.ndim))
        if len(window_shape) != len(axis):
            raise ValueError(f"[sliding_window_view] Since axis is `None`, must provide "
                             f"window_shape for all dimensions of `x`; got {len(window_shape)} "
                             f"window_shape elements and `x.ndim` is {x.ndim}.")
    else:
        axis = tuple(_normalize_axis("sliding_window_view", a, x.ndim)
                     for a in (axis if _np.iterable(axis) else (axis,)))
        if len(window_shape) != len(axis):
            raise ValueError(f"[sliding_window_view] Must provide matching length window_shape "
                             f"and axis; got {len(window_shape)} window_shape elements and "
                             f"{len(axis)} axes elements.")
    out_strides = tuple(x.strides) + tuple(x.strides[a] for a in axis)
    trimmed = list(x.shape)
    for a, w in zip(axis, window_shape):
        if trimmed[a] < w:
            raise ValueError("[sliding_window_view] window shape cannot be larger than input "
                             f"array shape (window {window_shape}, shape {x.shape})")
        trimmed[a] -= w - 1
    return as_strided(x, tuple(trimmed) + window_shape, out_strides, writeable=writeable)
