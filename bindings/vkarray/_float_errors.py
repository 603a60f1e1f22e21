"""numpy's floating-point error handling (seterr, geterr, errstate, seterrcall, geterrcall,
the error object and the ufunc buffer size) for numpy code that sets them. vkarray's kernels
raise no floating-point flags: results follow IEEE 754 (inf, nan, signed zeros), and no mode
makes a warning. So the state is kept and reported as numpy's API says, 'ignore' is what
vkarray does, 'warn', 'print' and 'log' are recorded without effect, and 'raise' and 'call',
which code relies on to catch errors, are refused."""

import contextlib as _contextlib
import contextvars as _contextvars

__all__ = ["seterr", "geterr", "errstate", "seterrcall", "geterrcall", "geterrobj",
           "seterrobj", "getbufsize", "setbufsize"]

_KINDS = ("divide", "over", "under", "invalid")
_MODES = ("ignore", "warn", "raise", "call", "print", "log")  # numpy's errmask codes 0..5
_SHIFTS = {"divide": 0, "over": 3, "under": 6, "invalid": 9}
_DEFAULT = ({k: "ignore" for k in _KINDS}, None, 8192)  # (modes, call, bufsize)
_UNSET = object()  # errstate without call=: the callback stays as it is
# Per thread and task, as numpy's error state.
_STATE = _contextvars.ContextVar("vkarray_float_errors", default=_DEFAULT)


def _set(modes=None, call=None, bufsize=None, keep_call=True):
    old_modes, old_call, old_bufsize = _STATE.get()
    _STATE.set((old_modes if modes is None else modes,
                old_call if keep_call else call,
                old_bufsize if bufsize is None else bufsize))


def seterr(all=None, divide=None, over=None, under=None, invalid=None):  # noqa: A002
    """numpy.seterr: sets how floating-point errors are treated and returns the previous
    settings. vkarray's kernels detect no floating-point errors: 'ignore' is what they do,
    'warn', 'print' and 'log' are recorded (no message is ever made), and 'raise' and 'call'
    raise NotImplementedError, since no FloatingPointError would ever reach the caller."""
    old = geterr()
    modes = dict(old)
    for kind, mode in (("divide", divide), ("over", over), ("under", under),
                       ("invalid", invalid)):
        mode = mode if mode is not None else all
        if mode is None:
            continue
        if mode not in _MODES:
            raise ValueError(f"[seterr] {kind}={mode!r} is not one of {', '.join(_MODES)}")
        if mode in ("raise", "call"):
            raise NotImplementedError(
                f"[seterr] {kind}={mode!r}: vkarray's device kernels raise no floating-point "
                f"flags, so no error could be raised or reported; results follow IEEE 754 "
                f"(inf, nan) as under 'ignore'")
        modes[kind] = mode
    _set(modes=modes)
    return old


def geterr():
    """numpy.geterr: the current settings, {'divide', 'over', 'under', 'invalid'} -> mode
    (vkarray's default: 'ignore' for all, which is what its kernels do)."""
    return dict(_STATE.get()[0])


class errstate(_contextlib.ContextDecorator):  # noqa: N801 — numpy's name
    """numpy.errstate: seterr's settings (and call=, seterrcall's) for a with block or a
    decorated function, restored after it. See seterr for what vkarray does with each mode."""

    def __init__(self, *, call=_UNSET, **kwargs):
        self.call = call
        self.kwargs = kwargs
        self._tokens = []

    def __enter__(self):
        token = _STATE.set(_STATE.get())
        try:
            seterr(**self.kwargs)
            if self.call is not _UNSET:
                seterrcall(self.call)
        except Exception:
            _STATE.reset(token)
            raise
        self._tokens.append(token)
        return self

    def __exit__(self, *exc):
        _STATE.reset(self._tokens.pop())
        return False


def seterrcall(func):
    """numpy.seterrcall: the function (or object with a write method) numpy's 'call' and
    'log' modes report to; returns the previous one. vkarray records it (it never reports)."""
    if func is not None and not callable(func) and not callable(getattr(func, "write", None)):
        raise ValueError("[seterrcall] Only callable can be used as callback")
    old = geterrcall()
    _set(call=func, keep_call=False)
    return old


def geterrcall():
    """numpy.geterrcall: the function set by seterrcall (None by default)."""
    return _STATE.get()[1]


def getbufsize():
    """numpy.getbufsize: the ufunc buffer size in elements (8192 by default). vkarray's
    kernels have no ufunc buffers; the value is kept for numpy code that reads it."""
    return _STATE.get()[2]


def setbufsize(size):
    """numpy.setbufsize: sets the ufunc buffer size with numpy's checks and returns the
    previous one (no effect on vkarray's kernels: see getbufsize)."""
    size = int(size)
    if size > 10e6:
        raise ValueError(f"[setbufsize] Buffer size, {size}, is too big.")
    if size < 5:
        raise ValueError(f"[setbufsize] Buffer size, {size}, is too small.")
    if size % 16 != 0:
        raise ValueError(f"[setbufsize] Buffer size, {size}, is not a multiple of 16.")
    old = getbufsize()
    _set(bufsize=size)
    return old


def geterrobj():
    """numpy.geterrobj: [bufsize, error mask, call], numpy's encoding of the state (3 bits a
    kind: divide at bit 0, over 3, under 6, invalid 9)."""
    modes, call, bufsize = _STATE.get()
    mask = sum(_MODES.index(modes[k]) << _SHIFTS[k] for k in _KINDS)
    return [bufsize, mask, call]


def seterrobj(errobj):
    """numpy.seterrobj: sets the state from geterrobj's encoding (seterr's rules apply)."""
    if not isinstance(errobj, list) or len(errobj) != 3:
        raise ValueError(f"[seterrobj] expected [bufsize, error mask, call], got {errobj!r}")
    bufsize, mask, call = errobj
    codes = {k: (int(mask) >> _SHIFTS[k]) & 7 for k in _KINDS}
    bad = {k: c for k, c in codes.items() if c >= len(_MODES)}
    if bad:
        raise ValueError(f"[seterrobj] invalid error mask {mask}: codes {bad}")
    token = _STATE.set(_STATE.get())
    try:
        seterr(**{k: _MODES[c] for k, c in codes.items()})
        setbufsize(bufsize)
        seterrcall(call)
    except Exception:
        _STATE.reset(token)
        raise
