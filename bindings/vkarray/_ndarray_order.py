"""ndarray.astype, copy and flatten with numpy's order= ('C', 'F', 'A', 'K') and astype's
casting=, subok= and copy= (installed by _ndarray.py). A result laid out in another order than
C is the C-ordered result of the permuted array seen through the inverse permutation: no extra
device work."""

import numpy as _np

from . import _vkarray


def _perm(x, order, op, iteration=False):
    """The axis order, outermost first, that numpy's order gives x's result (iteration: in
    the order numpy's iterator visits the elements, which leaves broadcast axes in place)."""
    if order is None:
        order = "K"
    if not isinstance(order, str) or order.upper() not in ("C", "F", "A", "K"):
        raise ValueError(f"[{op}] order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    order = order.upper()
    axes = list(range(x.ndim))
    flags = x.flags
    if order == "F" or (order == "A" and flags.f_contiguous and not flags.c_contiguous):
        return axes[::-1]
    if order == "K" and not flags.c_contiguous:
        if flags.f_contiguous:
            return axes[::-1]
        strides = _vkarray._layout(x)[2]
        if iteration:
            moving = sorted((k for k in axes if strides[k]), key=lambda k: -abs(strides[k]))
            return [k if not strides[k] else moving.pop(0) for k in axes]
        return sorted(axes, key=lambda k: -abs(strides[k]))  # stable: ties keep their order
    return axes


def _laid_out(x, perm, convert):
    """convert(x seen in perm's order), seen back in x's axis order."""
    if perm == sorted(perm):
        return convert(x)
    inverse = [0] * len(perm)
    for i, k in enumerate(perm):
        inverse[k] = i
    return _vkarray.transpose(convert(_vkarray.transpose(x, perm)), inverse)


def _satisfied(x, order):
    order = "K" if order is None else order.upper()
    flags = x.flags
    return {"C": flags.c_contiguous, "F": flags.f_contiguous,
            "A": flags.c_contiguous or flags.f_contiguous}.get(order, True)


def _astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True):
    """numpy's ndarray.astype: the array converted to dtype (numpy's casting results), laid
    out as order says (K: as close to this array's layout as possible); casting= refuses the
    casts numpy's rule refuses; copy=False returns this array when nothing needs to change.
    subok has no effect (there are no subclasses)."""
    try:
        t = _np.dtype(dtype)
    except TypeError:
        raise TypeError(f"[astype] dtype {dtype!r} is not understood") from None
    if casting not in ("no", "equiv", "safe", "same_kind", "unsafe"):
        raise ValueError(f"[astype] casting must be one of 'no', 'equiv', 'safe', 'same_kind', "
                         f"or 'unsafe' (got {casting!r})")
    if not _np.can_cast(self.dtype, t, casting):
        raise TypeError(f"[astype] Cannot cast array data from {self.dtype!r} to {t!r} "
                        f"according to the rule '{casting}'")
    perm = _perm(self, order, "astype")
    if not copy and t == self.dtype and _satisfied(self, order):
        return self
    return _laid_out(self, perm, lambda y: _vkarray._astype(y, t))


def _copy(self, order="C"):
    """numpy's ndarray.copy: a new array with the same values, laid out as order says."""
    return _laid_out(self, _perm(self, order, "copy"), _vkarray.copy)


def _flatten(self, order="C"):
    """numpy's ndarray.flatten: a new 1-d array of the elements in order's order (K: as they
    lie in memory)."""
    return _vkarray._flatten(_vkarray.transpose(self, _perm(self, order, "flatten", True))
                             if self.ndim > 1 else self)
