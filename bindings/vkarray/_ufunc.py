"""The ufunc type: numpy's ufunc interface over a vkarray kernel (an op-table row, or a function
composed of them in _math_composed.py): nin, nout, nargs, ntypes, types, identity, __call__ with
numpy's out= (positional too), where=, dtype= and casting=, and the methods outer, reduce,
accumulate, reduceat and at, which run on the device (_ufunc_methods.py, _ufunc_at.py)."""

import functools as _functools
import inspect as _inspect

import numpy as _np

from . import _ufunc_at, _ufunc_methods, _vkarray
from ._creation import asarray, zeros

__all__ = ["ufunc"]

_CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")
_WEAK = (bool, int, float, complex)


def _operands(op, values):
    """Inputs as the kernels take them: vkarray arrays as they are, Python scalars weak (NEP
    50) unless every input is one (then numpy's default dtypes), anything else uploaded to the
    context of the first vkarray array."""
    if all(type(v) in _WEAK for v in values):
        return [asarray(v) for v in values]
    ctx = next((v.context for v in values if isinstance(v, _vkarray.ndarray)), None)
    return [v if isinstance(v, _vkarray.ndarray) or type(v) in _WEAK
            else asarray(v, context=ctx) for v in values]


@_functools.lru_cache(maxsize=None)
def _allows_chars(casting, from_char, to_char):
    return _vkarray.can_cast(from_char, to_char, casting)


def _allows(casting, from_, to):
    """can_cast(from_, to, casting), remembered per dtype pair (a dtype conversion costs more
    than the check)."""
    return _allows_chars(casting, _np.dtype(from_).char, _np.dtype(to).char)


class ufunc:  # noqa: N801 — numpy's name
    """A numpy-style universal function on vkarray arrays: elementwise, lazy (fused with its
    neighbours when evaluated), with numpy's attributes (nin, nout, nargs, ntypes, types,
    identity, signature) and methods (reduce, accumulate, outer, at, reduceat), all on the
    device."""

    __module__ = "vkarray"

    def __init__(self, name, kernel, nin, nout=1, *, identity=None, reorderable=False,
                 types=None, predicate=False, signature=None, doc=""):
        """A ufunc whose kernel(*inputs) computes its nout outputs from nin inputs (lazy
        arrays). identity and reorderable= give what reduce may assume; types (default: probed
        from the kernel on empty arrays) and predicate (bool results, whatever dtype=) describe
        its loops."""
        self.__name__ = name
        self.__qualname__ = name
        self.__doc__ = doc
        self._kernel = kernel
        self.nin = nin
        self.nout = nout
        self.nargs = nin + nout
        self.identity = identity
        self.signature = signature  # a gufunc's core dimensions (matmul's), else None
        # numpy may reorder the reduction (identity, or max/min-like): reductions over several
        # axes, pairwise trees and segmented scans are then allowed.
        self._reorderable = reorderable
        self._types = types
        self._predicate = predicate  # bool results whatever dtype= says (comparisons)
        inputs = ["x"] if nin == 1 else [f"x{i + 1}" for i in range(nin)]
        params = [_inspect.Parameter(n, _inspect.Parameter.POSITIONAL_ONLY) for n in inputs]
        params.append(_inspect.Parameter("out", _inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                         default=None))
        for key, default in (("where", True), ("casting", "same_kind"), ("order", "K"),
                             ("dtype", None), ("subok", True), ("signature", None)):
            params.append(_inspect.Parameter(key, _inspect.Parameter.KEYWORD_ONLY,
                                             default=default))
        self.__signature__ = _inspect.Signature(params)

    def __repr__(self):
        return f"<ufunc '{self.__name__}'>"

    @property
    def types(self):
        """The loops, as numpy spells them ('ff->f'): for op-table ufuncs the dtype each input
        dtype computes in and the result's; for composed ones each input dtype vkarray accepts
        and the result's dtype."""
        if self._types is None:
            self._types = self._probe_types()
        return list(self._types)

    @property
    def ntypes(self):
        """len(types)."""
        return len(self.types)

    def _probe_types(self):
        types = []
        for ch in "?bBhHiIlLefdFD":
            try:
                r = self._kernel(*[zeros((0,), _np.dtype(ch))] * self.nin)
            except (TypeError, ValueError, NotImplementedError):
                continue
            rs = r if isinstance(r, tuple) else (r,)
            loop = ch * self.nin + "->" + "".join(x.dtype.char for x in rs)
            if loop not in types:
                types.append(loop)
        return types

    def __call__(self, *args, out=None, where=True, casting="same_kind", order="K",
                 dtype=None, subok=True, signature=None, axes=None):
        """op(*inputs) elementwise and lazy; outputs as positional arguments after the inputs
        or out=; where=, dtype=, casting=, order= and subok= as numpy takes them; a gufunc's
        axes= too."""
        if axes is not None:
            return self._gufunc_axes(args, axes, out=out, where=where, casting=casting,
                                     order=order, dtype=dtype, subok=subok,
                                     signature=signature)
        if (len(args) == self.nin and out is None and where is True and dtype is None
                and casting == "same_kind" and order == "K" and signature is None):
            return self._kernel(*args)
        return self._call(args, out, where, casting, order, dtype, subok, signature)

    def _gufunc_axes(self, args, axes, out, **kw):
        """numpy's axes= of a gufunc (matmul): one tuple of core-dimension positions per
        operand, inputs then output. The inputs' core dimensions are moved last (views), the
        gufunc runs, and the result's are moved to the output's positions (a view)."""
        name = self.__name__
        if self.signature is None:
            raise TypeError(f"[{name}] axes= is only for gufuncs; {name} is elementwise")
        if len(args) > self.nin:
            out, args = args[self.nin], args[:self.nin]
        axes = [tuple(a) if isinstance(a, (tuple, list)) else (a,) for a in axes]
        if len(axes) != self.nin + 1:
            raise ValueError(f"[{name}] axes should be a list with an entry for all "
                             f"{self.nin + 1} arguments")
        inputs = _operands(name, args)
        moved = [_vkarray.moveaxis(x, a, tuple(range(-len(a), 0)))
                 for x, a in zip(inputs, axes)]
        r = self._call(tuple(moved), None, **kw)
        k = len(axes[-1])
        r = _vkarray.moveaxis(r, tuple(range(-k, 0)), axes[-1])
        return r if out is None else _vkarray._finish(r, out, op=name)

    def _call(self, args, out, where, casting, order, dtype, subok, signature):
        name = self.__name__
        if not self.nin <= len(args) <= self.nargs:
            raise TypeError(f"[{name}] {name}() takes from {self.nin} to {self.nargs} "
                            f"positional arguments but {len(args)} were given")
        if len(args) > self.nin:
            if out is not None:
                raise TypeError(f"[{name}] cannot specify 'out' as both a positional and "
                                f"keyword argument")
            out = args[self.nin:] + (None,) * (self.nargs - len(args))
        outs = self._outs(out)
        self._check_keywords(casting, order, subok, signature)
        inputs = _operands(name, args[:self.nin])
        if dtype is not None:
            dtype = _np.dtype(dtype)
            inputs = [self._cast_input(i, x, dtype, casting) for i, x in enumerate(inputs)]
        elif casting in ("no", "equiv", "safe"):
            self._check_loop(inputs, casting)
        results = self._kernel(*inputs)
        results = results if isinstance(results, tuple) else (results,)
        to = None if self._predicate or dtype is None else dtype.char
        done = tuple(_vkarray._finish(r, o, to, op=name, ufunc=name, casting=casting,
                                      where=where)
                     for r, o in zip(results, outs))
        return done if self.nout > 1 else done[0]

    def _outs(self, out):
        """out= as one entry (None or an array) per output."""
        if out is None:
            return (None,) * self.nout
        if not isinstance(out, tuple):
            if self.nout > 1:
                raise TypeError(f"[{self.__name__}] out must be a tuple of {self.nout} arrays "
                                f"for a ufunc with {self.nout} outputs")
            out = (out,)
        if len(out) != self.nout:
            raise ValueError(f"[{self.__name__}] The 'out' tuple must have exactly "
                             f"{self.nout} entries: one per ufunc output")
        return out

    def _check_keywords(self, casting, order, subok, signature):
        name = self.__name__
        if casting not in _CASTINGS:
            raise ValueError(f"[{name}] casting must be one of 'no', 'equiv', 'safe', "
                             f"'same_kind', or 'unsafe' (got {casting!r})")
        if order not in ("K", "A", "C", "F", None):
            raise ValueError(f"[{name}] order must be one of 'C', 'F', 'A', or 'K' "
                             f"(got {order!r})")
        if order == "F":
            raise NotImplementedError(f"[{name}] order='F': vkarray arrays are C-ordered")
        if not isinstance(subok, bool):
            raise TypeError(f"[{name}] subok must be a bool, got {type(subok).__name__}")
        if signature is not None:
            raise NotImplementedError(f"[{name}] signature= is not supported by vkarray; "
                                      f"dtype= selects the loop")

    def _cast_input(self, i, x, dtype, casting):
        if not isinstance(x, _vkarray.ndarray) or x.dtype == dtype:
            return x
        if not _allows(casting, x.dtype, dtype):
            raise TypeError(f"[{self.__name__}] Cannot cast ufunc '{self.__name__}' input {i} "
                            f"from dtype('{x.dtype}') to dtype('{dtype}') with casting rule "
                            f"'{casting}'")
        return x.astype(dtype.char)  # the one-letter code converts fastest

    def _check_loop(self, inputs, casting):
        """casting='no'/'equiv'/'safe' without dtype=: each array input must cast to the input
        dtype of the loop numpy would pick (the first whose inputs all take them safely)."""
        arrays = [(i, x.dtype) for i, x in enumerate(inputs) if isinstance(x, _vkarray.ndarray)]
        for loop in self.types:
            ins = [_np.dtype(c) for c in loop.split("->")[0]]
            if all(_allows("safe", t, ins[i]) for i, t in arrays):
                for i, t in arrays:
                    if not _allows(casting, t, ins[i]):
                        raise TypeError(
                            f"[{self.__name__}] Cannot cast ufunc '{self.__name__}' input {i} "
                            f"from dtype('{t}') to dtype('{ins[i]}') with casting rule "
                            f"'{casting}'")
                return

    def outer(self, A, B, /, **kwargs):
        """op(a, b) for every element a of A and b of B: the result has shape A.shape +
        B.shape (A seen with B.ndim trailing axes of length 1), with __call__'s keywords."""
        self._elementwise_only("outer", TypeError)
        if self.nin != 2:
            raise ValueError(f"[{self.__name__}.outer] outer product only supported for binary "
                             f"functions")
        ctx = next((v.context for v in (A, B) if isinstance(v, _vkarray.ndarray)), None)
        a, b = asarray(A, context=ctx), asarray(B, context=ctx)
        return self(a.reshape(a.shape + (1,) * b.ndim), b, **kwargs)

    def reduce(self, array, axis=0, dtype=None, out=None, keepdims=False,
               initial=_ufunc_methods.NO_VALUE, where=True):
        """numpy's ufunc.reduce: op folded along the axes (several only for reorderable
        ufuncs), with numpy's dtypes (add and multiply widen small integers to 64 bits),
        initial= (else the identity), where= (needs an identity or initial) and keepdims."""
        self._elementwise_only("reduce")
        return _ufunc_methods.reduce(self, array, axis, dtype, out, keepdims, initial, where)

    def accumulate(self, array, axis=0, dtype=None, out=None):
        """numpy's ufunc.accumulate: the running results of reduce along one axis."""
        self._elementwise_only("accumulate")
        return _ufunc_methods.accumulate(self, array, axis, dtype, out)

    def reduceat(self, array, indices, axis=0, dtype=None, out=None):
        """numpy's ufunc.reduceat: reduce over array[indices[i]:indices[i+1]] along axis, or
        array[indices[i]] where indices[i] >= indices[i+1]; the last slice runs to the end."""
        self._elementwise_only("reduceat")
        return _ufunc_methods.reduceat(self, array, indices, axis, dtype, out)

    def at(self, a, indices, b=None, /):
        """numpy's ufunc.at: a[indices] = op(a[indices], b) in place, unbuffered: an index
        that repeats applies op once per occurrence, in order. Runs on the device; returns
        None."""
        self._elementwise_only("at", TypeError)
        _ufunc_at.at(self, a, indices, b)

    def _elementwise_only(self, method, error=RuntimeError):
        """numpy defines the methods for elementwise ufuncs only (not matmul's core dims)."""
        if self.signature is not None:
            raise error(f"[{self.__name__}.{method}] {method} is not defined on a ufunc with "
                        f"the non-trivial signature {self.signature}")
