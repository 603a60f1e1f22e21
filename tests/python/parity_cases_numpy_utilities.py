"""Parity cases of numpy's utilities on vkarray: text formatting, floating-point error
handling, file input and output, memory overlap, help functions and the iteration classes."""

import contextlib
import io
import os
import tempfile
import warnings

import numpy as np
import pytest

import vkarray as vk
from parity_registry import case, check

RNG = np.random.default_rng(2201)
F = RNG.standard_normal((4, 6))
c = case


def _printed(fn, *args, **kwargs):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        fn(*args, **kwargs)
    return out.getvalue()


# text formatting
c("binary_repr", lambda xp, to: [xp.binary_repr(v, width=w) for v, w in
                                 ((5, None), (-5, 8), (0, 4), (np.int16(300), None))])
c("base_repr", lambda xp, to: [xp.base_repr(v, b, p) for v, b, p in
                               ((255, 16, 0), (-35, 36, 2), (7, 2, 3))])
c("format_float_positional", lambda xp, to: [
    xp.format_float_positional(v, precision=p) for v, p in
    ((np.float32(0.1), None), (np.float64(1 / 3), 5), (to(np.array(2.5)), None))])
c("format_float_scientific", lambda xp, to: [
    xp.format_float_scientific(v, precision=p, exp_digits=2) for v, p in
    ((np.float64(12345.678), 3), (np.float16(0.1), None), (to(np.array(-1e-9)), 2))])


def _string_function():
    a = vk.asarray(np.arange(3.0))
    default_repr, default_str = repr(a), str(a)
    try:
        vk.set_string_function(lambda x: f"vk{x.shape}")
        assert repr(a) == "vk(3,)" and str(a) == default_str
        vk.set_string_function(lambda x: "s", repr=False)
        assert str(a) == "s"
    finally:
        vk.set_string_function(None)
        vk.set_string_function(None, repr=False)
    assert repr(a) == default_repr and str(a) == default_str
    with pytest.raises(TypeError, match=r"\[set_string_function\] f must be callable"):
        vk.set_string_function(3)


check("set_string_function", _string_function)


# floating-point error handling: numpy's state API; no mode makes a device kernel report
def _seterr_geterr():
    default = vk.geterr()
    assert default == dict.fromkeys(["divide", "over", "under", "invalid"], "ignore")
    old = vk.seterr(divide="warn", under="log")
    try:
        assert old == default
        assert vk.geterr() == {"divide": "warn", "over": "ignore", "under": "log",
                               "invalid": "ignore"}
        assert vk.seterr(all="print") == {"divide": "warn", "over": "ignore", "under": "log",
                                          "invalid": "ignore"}
        assert set(vk.geterr().values()) == {"print"}
    finally:
        vk.seterr(**default)
    assert vk.geterr() == default
    for mode in ("raise", "call"):
        with pytest.raises(NotImplementedError, match=rf"\[seterr\] over='{mode}': .*no "
                                                      rf"floating-point flags"):
            vk.seterr(over=mode)
    with pytest.raises(ValueError, match=r"\[seterr\] divide='loud' is not one of"):
        vk.seterr(divide="loud")
    assert vk.geterr() == default  # refused settings leave the state as it was
    # numpy's results where it reports instead: inf and nan, no exception
    with np.errstate(all="ignore"):
        want = np.array([1.0, -1.0, 0.0]) / np.array([0.0, 0.0, 0.0])
    np.testing.assert_array_equal((vk.asarray([1.0, -1.0, 0.0]) / 0.0).get(), want)


check("seterr", _seterr_geterr)
check("geterr", _seterr_geterr)


def _errstate():
    before = vk.geterr()
    with vk.errstate(divide="warn", invalid="print") as state:
        assert isinstance(state, vk.errstate)
        assert vk.geterr()["divide"] == "warn" and vk.geterr()["invalid"] == "print"
        with vk.errstate(all="ignore"):
            assert set(vk.geterr().values()) == {"ignore"}
        assert vk.geterr()["divide"] == "warn"
    assert vk.geterr() == before

    @vk.errstate(over="log", call=print)
    def inside():
        return vk.geterr()["over"], vk.geterrcall()

    assert inside() == ("log", print)
    assert vk.geterr() == before and vk.geterrcall() is None
    vk.seterrcall(print)
    try:
        with vk.errstate(call=None):  # numpy's: an explicit None clears the callback
            assert vk.geterrcall() is None
        with vk.errstate(divide="warn"):  # no call=: the callback stays
            assert vk.geterrcall() is print
    finally:
        vk.seterrcall(None)
    with pytest.raises(NotImplementedError, match=r"\[seterr\] invalid='raise'"):
        with vk.errstate(invalid="raise"):
            pass
    assert vk.geterr() == before


check("errstate", _errstate)


def _errcall():
    class Log:
        def write(self, text):
            pass

    log = Log()
    assert vk.seterrcall(log) is None
    try:
        assert vk.geterrcall() is log
        assert vk.seterrcall(print) is log
    finally:
        vk.seterrcall(None)
    assert vk.geterrcall() is None
    with pytest.raises(ValueError, match=r"\[seterrcall\] Only callable"):
        vk.seterrcall(3)


check("seterrcall", _errcall)
check("geterrcall", _errcall)


def _errobj_bufsize():
    # numpy's encoding: 3 bits a kind (divide 0, over 3, under 6, invalid 9)
    with np.errstate(divide="warn", over="ignore", under="log", invalid="print"):
        want = list(np.geterrobj())  # numpy mutates its list on exit
    with vk.errstate(divide="warn", over="ignore", under="log", invalid="print"):
        assert vk.geterrobj() == want
    before = vk.geterrobj()
    vk.seterrobj([4096, want[1], None])
    try:
        assert vk.getbufsize() == 4096
        assert vk.geterr() == {"divide": "warn", "over": "ignore", "under": "log",
                               "invalid": "print"}
    finally:
        vk.seterrobj(before)
    assert vk.geterrobj() == before == [8192, 0, None]
    with pytest.raises(NotImplementedError, match=r"\[seterr\] divide='raise'"):
        vk.seterrobj([8192, 2, None])  # numpy's code 2 is 'raise'
    assert vk.setbufsize(16 * 100) == 8192
    try:
        assert vk.getbufsize() == 1600
    finally:
        vk.setbufsize(8192)
    for size in (100, 3, 10**8):  # numpy's checks, numpy's messages
        with pytest.raises(ValueError) as numpy_err:
            np.setbufsize(size)
        with pytest.raises(ValueError, match=r"\[setbufsize\] ") as err:
            vk.setbufsize(size)
        assert str(numpy_err.value) in str(err.value)
    assert np.getbufsize() == vk.getbufsize() == 8192


check("geterrobj", _errobj_bufsize)
check("seterrobj", _errobj_bufsize)
check("getbufsize", _errobj_bufsize)
check("setbufsize", _errobj_bufsize)


# files: numpy writes and reads them; the values cross once, explicitly
def _save_load():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "a.npy")
        vk.save(path, vk.asarray(F))
        np.testing.assert_array_equal(np.load(path), F)
        got = vk.load(path)
        assert isinstance(got, vk.ndarray)
        np.testing.assert_array_equal(got.get(), F)
        np.save(path, np.arange(5, dtype=np.int16))
        assert vk.load(path).dtype == np.int16
        with pytest.raises(ValueError, match=r"\[load\] mmap_mode='r' maps the file"):
            vk.load(path, mmap_mode="r")
        np.save(path, np.array(["a", "b"]))
        with pytest.raises(TypeError, match=r"\[load\] .*dtype <U1.*vkarray does not have"):
            vk.load(path)


check("save", _save_load)
check("load", _save_load)


def _savez():
    with tempfile.TemporaryDirectory() as d:
        for fn, name in ((vk.savez, "z.npz"), (vk.savez_compressed, "zc.npz")):
            path = os.path.join(d, name)
            fn(path, vk.asarray(F), b=vk.asarray(np.arange(3)), c=np.ones(2))
            with np.load(path) as want, vk.load(path) as got:
                assert sorted(got.files) == sorted(want.files) == ["arr_0", "b", "c"]
                for k in want.files:
                    assert isinstance(got[k], vk.ndarray)
                    np.testing.assert_array_equal(got[k].get(), want[k])


check("savez", _savez)
check("savez_compressed", _savez)


def _text_files():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "a.txt")
        vk.savetxt(path, vk.asarray(F), fmt="%.6f", delimiter=",")
        with open(path) as f:
            text = f.read()
        out = io.StringIO()
        np.savetxt(out, F, fmt="%.6f", delimiter=",")
        assert text == out.getvalue()
        for fn, name in ((vk.loadtxt, "loadtxt"), (vk.genfromtxt, "genfromtxt")):
            got = fn(path, delimiter=",")
            assert isinstance(got, vk.ndarray), name
            np.testing.assert_array_equal(got.get(), getattr(np, name)(path, delimiter=","))
        x, y = vk.loadtxt(path, delimiter=",", usecols=(0, 1), unpack=True)
        np.testing.assert_array_equal(y.get(), np.loadtxt(path, delimiter=",", usecols=1))
        with open(path, "w") as f:
            f.write("1,2\n3,\n")
        got = vk.genfromtxt(path, delimiter=",", filling_values=-1)
        np.testing.assert_array_equal(got.get(), [[1, 2], [3, -1]])
        with pytest.raises(TypeError, match=r"\[genfromtxt\] masked arrays"):
            vk.genfromtxt(path, delimiter=",", usemask=True)
        with pytest.raises(TypeError, match=r"\[loadtxt\] .*structured"):
            vk.loadtxt(path, delimiter=",", dtype="i4,i4", max_rows=1)


check("savetxt", _text_files)
check("loadtxt", _text_files)
check("genfromtxt", _text_files)


def _fromfile():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "a.bin")
        F.astype(np.float32).tofile(path)
        for kwargs in ({"dtype": np.float32}, {"dtype": np.float32, "count": 5, "offset": 8}):
            got = vk.fromfile(path, **kwargs)
            assert isinstance(got, vk.ndarray)
            np.testing.assert_array_equal(got.get(), np.fromfile(path, **kwargs))


check("fromfile", _fromfile)
c("fromstring", lambda xp, to: xp.fromstring("1 2 3.5 -4", sep=" "))
c("fromstring", lambda xp, to: xp.fromstring("1,2,3", dtype=np.int32, sep=","))


def _datasource():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "a.txt")
        with open(path, "w") as f:
            f.write("1 2\n")
        assert vk.DataSource(d).open(path).read() == "1 2\n"


check("DataSource", _datasource)


# memory overlap of views of one device buffer, by numpy's solver on the layouts
def _overlaps(xp, to):
    a = to(np.arange(24.0))
    m = a.reshape(4, 6)
    pairs = [(a[::2], a[1::2]), (a, a[3:5]), (a[:12], a[12:]), (m[:, 1], m[1, :]),
             (m[:, ::3], m[:, 1::3]), (a[::-1], a[5:7]), (m.T, a), (a, a + 1),
             (a, to(np.arange(3.0)))]
    return [[xp.shares_memory(x, y), xp.may_share_memory(x, y)] for x, y in pairs]


c("shares_memory", _overlaps)
c("may_share_memory", _overlaps)


def _overlap_views_of_other_dtypes():
    a = vk.asarray(np.arange(8.0))
    b = a.view(np.int32)
    assert vk.shares_memory(a[2:3], b[4:6]) and not vk.shares_memory(a[2:3], b[6:8])
    assert not vk.shares_memory(a, F) and not vk.may_share_memory(F, a)


check("shares_memory", _overlap_views_of_other_dtypes)

c("iterable", lambda xp, to: [xp.iterable(to(F)), xp.iterable(to(np.array(1.0))),
                              xp.iterable(3), xp.iterable([1]), xp.iterable("ab")])


# help and configuration
def _info():
    a = vk.asarray(F)
    for host, arr in ((F, a), (F.T, a.T), (F[:, ::2].astype(np.float32),
                                          a[:, ::2].astype(np.float32))):
        want = _printed(np.info, host).splitlines()
        got = _printed(vk.info, arr).splitlines()
        pointer = next(i for i, line in enumerate(want) if line.startswith("data pointer"))
        assert got[:pointer] == want[:pointer] and got[pointer + 1:] == want[pointer + 1:]
        assert got[pointer] == f"device: {arr.device}"
    assert "packbits" in _printed(vk.info, vk.packbits)


check("info", _info)


def _lookfor():
    text = _printed(vk.lookfor, "unpackbits")
    assert "vkarray.unpackbits" in text


check("lookfor", _lookfor)
check("source", lambda: ("def packbits" in _printed(vk.source, vk.packbits)) or
      pytest.fail("no source printed"))


def _who():
    arrays = {"a": vk.asarray(F), "b": vk.asarray(np.arange(5, dtype=np.int16)), "n": 3}
    arrays["c"] = arrays["a"]
    want = _printed(np.who, {"a": F, "b": np.arange(5, dtype=np.int16), "c": F})
    assert _printed(vk.who, arrays) == want


check("who", _who)


def _show():
    text = _printed(vk.show_config)
    assert f"numpy: {np.__version__}" in text
    for d in vk.list_devices():
        assert d["name"] in text
    assert "context: vkarray.Context(replica 0" in _printed(vk.show_runtime)


check("show_config", _show)
check("show_runtime", _show)
c("safe_eval", lambda xp, to: [xp.safe_eval("[1, 2.5, (3, 'a')]"), xp.safe_eval("{'k': 4}")])
check("disp", lambda: _printed(vk.disp, vk.asarray([1.0, 2.0])) == "[1. 2.]\n" or
      pytest.fail("disp"))


def _deprecate():
    def old(x):
        """Doubles."""
        return 2 * x

    for dep in (vk.deprecate(old, message="use new"), vk.deprecate_with_doc("use new")(old)):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            assert dep(vk.asarray(3)).get() == 6
        assert any(issubclass(w.category, DeprecationWarning) for w in seen)


check("deprecate", _deprecate)
check("deprecate_with_doc", _deprecate)

# iteration classes
c("ndindex", lambda xp, to: list(xp.ndindex(2, 3, 1)))
c("ndenumerate", lambda xp, to: list(xp.ndenumerate(to(F[:2, :3]))))
c("ndenumerate", lambda xp, to: list(xp.ndenumerate(to(np.arange(6).reshape(2, 3)).T)))


def _broadcast_of(xp, to):
    b = xp.broadcast(to(F[:, :1]), to(F[0]), 2.0)
    first = [next(b) for _ in range(3)]
    index = b.index
    b.reset()
    return [b.shape, b.ndim, b.nd, b.size, b.numiter, first, index, b.index, list(b)[-2:],
            [list(it)[:3] for it in b.iters]]


c("broadcast", _broadcast_of)


def _broadcast_errors():
    with pytest.raises(ValueError, match=r"\[broadcast\] shape mismatch.*\(4, 6\), \(5,\)"):
        vk.broadcast(vk.asarray(F), vk.zeros(5))


check("broadcast", _broadcast_errors)
