"""vkarray.ufunc against numpy.ufunc: every numpy ufunc vkarray has is a vkarray.ufunc with
numpy's nin, nout, nargs, identity and name, loops whose result dtypes numpy agrees with, and
numpy's __call__ keywords (out= positional and keyword, where=, dtype=, casting=), plus outer.
The methods reduce, accumulate, at and reduceat are in ufunc_methods_test.py."""

import numpy as np
import pytest

import vkarray as vk
from ufunc_testing import same

RNG = np.random.default_rng(11)
NUMPY_UFUNCS = sorted(n for n in dir(np) if isinstance(getattr(np, n), np.ufunc)
                      and hasattr(vk, n))


def test_every_numpy_ufunc_vkarray_has_is_a_ufunc():
    missing = [n for n in dir(np) if isinstance(getattr(np, n), np.ufunc) and not hasattr(vk, n)]
    # numpy's ufuncs vkarray lacks (datetime and bit-level float functions)
    assert set(missing) <= {"frexp", "isnat", "ldexp", "nextafter", "spacing"}, missing
    assert len(NUMPY_UFUNCS) >= 85
    for name in NUMPY_UFUNCS:
        assert isinstance(getattr(vk, name), vk.ufunc), name
    assert vk.ufunc.__module__ == "vkarray" and repr(vk.add) == "<ufunc 'add'>"


@pytest.mark.parametrize("name", NUMPY_UFUNCS)
def test_attributes_match_numpy(name):
    u, n = getattr(vk, name), getattr(np, name)
    assert (u.__name__, u.nin, u.nout, u.nargs) == (n.__name__, n.nin, n.nout, n.nargs)
    assert u.signature == n.signature
    if n.identity is None:
        assert u.identity is None
    else:
        assert u.identity == n.identity and type(u.identity) is type(n.identity)
    assert u.ntypes == len(u.types) > 0 and u.__doc__


@pytest.mark.parametrize("name", [n for n in NUMPY_UFUNCS if n != "matmul"])
def test_loops_give_numpys_result_dtypes(name):
    """For each loop vkarray lists, numpy computes the same output dtypes from arrays of the
    loop's input dtypes (arrays only: numpy 1.24's and numpy 2's rules agree)."""
    u, n = getattr(vk, name), getattr(np, name)
    for loop in u.types:
        ins, outs = loop.split("->")
        if name in ("floor", "ceil", "trunc") and ins in "?bBhHiIlL":
            continue  # numpy 2 keeps integers integers here; numpy 1.24 gives floats
        args = [np.ones(2, np.dtype(c)) for c in ins]
        with np.errstate(all="ignore"):
            want = n(*args)
        want = want if isinstance(want, tuple) else (want,)
        assert "".join(w.dtype.char for w in want) == outs, (name, loop)


def test_positional_and_keyword_out():
    a = RNG.standard_normal((4, 5)).astype(np.float32)
    z = vk.asarray(a)
    alias = z
    assert vk.multiply(z, z, z) is z and alias is z  # numpy's np.multiply(Z, Z, Z)
    same(z, a * a)
    o = vk.zeros((4, 5), np.float64)
    assert vk.add(vk.asarray(a), 1, o) is o
    same(o, (a + 1).astype(np.float64))
    assert vk.sqrt(vk.asarray(np.abs(a)), out=(o,)) is o
    same(o, np.sqrt(np.abs(a)).astype(np.float64))
    with pytest.raises(TypeError, match=r"\[add\] cannot specify 'out' as both"):
        vk.add(z, 1, o, out=o)
    with pytest.raises(TypeError, match=r"\[add\] add\(\) takes from 2 to 3 positional"):
        vk.add(z)
    x, y = RNG.integers(-9, 9, 6), RNG.integers(1, 5, 6)
    q, r = vk.zeros(6, np.int64), vk.zeros(6, np.int64)
    got = vk.divmod(vk.asarray(x), vk.asarray(y), q, r)
    assert got[0] is q and got[1] is r
    same(q, x // y)
    same(r, x % y)
    q2 = vk.zeros(6, np.int64)
    got = vk.divmod(vk.asarray(x), vk.asarray(y), out=(q2, None))
    assert got[0] is q2 and isinstance(got[1], vk.ndarray)
    same(got[1], x % y)


@pytest.mark.parametrize("dtype", [np.float32, np.int16, np.uint8])
def test_where_keeps_out_elsewhere(dtype):
    a = (RNG.standard_normal((3, 6)) * 10).astype(dtype)
    mask = RNG.random((3, 6)) > 0.5
    for name in ("add", "maximum", "negative", "sqrt"):
        n, u = getattr(np, name), getattr(vk, name)
        args = (a, a[::-1]) if n.nin == 2 else (np.abs(a),)
        with np.errstate(all="ignore"):
            want_dtype = n(*args).dtype
            want = np.full(a.shape, 7, want_dtype)
            n(*args, out=want, where=mask)
        out = vk.full(a.shape, 7, dtype=want_dtype)
        assert u(*[vk.asarray(x) for x in args], out=out, where=vk.asarray(mask)) is out
        same(out, want)
    out = vk.zeros(6, np.float32)
    vk.add(vk.asarray(a[0].astype(np.float32)), 1, out=out, where=[True, False] * 3)
    same(out, np.where([True, False] * 3, a[0].astype(np.float32) + 1, 0).astype(np.float32))


def test_dtype_and_casting():
    i = RNG.integers(-50, 50, (2, 5)).astype(np.int32)
    f = RNG.standard_normal((2, 5)).astype(np.float32)
    vi, vf = vk.asarray(i), vk.asarray(f)
    for dtype in (np.float32, np.float64, np.int64, np.complex64):
        same(vk.add(vi, vi, dtype=dtype), np.add(i, i, dtype=dtype))
    same(vk.sin(vi, dtype=np.float32), np.sin(i, dtype=np.float32))
    # unsafe allows what same_kind refuses: inputs and the output
    same(vk.add(vf, vf, dtype=np.int32, casting="unsafe"),
         np.add(f, f, dtype=np.int32, casting="unsafe"))
    out = vk.zeros((2, 5), np.int16)
    vk.multiply(vf, 3, out=out, casting="unsafe")
    want = np.zeros((2, 5), np.int16)
    np.multiply(f, 3, out=want, casting="unsafe")
    same(out, want)
    with pytest.raises(TypeError, match=r"\[multiply\] Cannot cast ufunc 'multiply' output from "
                                        r"dtype\('float32'\) to dtype\('int16'\) with casting "
                                        r"rule 'same_kind'"):
        vk.multiply(vf, 3, out=out)
    # 'no' and 'equiv': every input already in the loop's dtype; 'safe': safe casts only
    same(vk.add(vf, vf, casting="no"), f + f)
    for casting in ("no", "equiv"):
        with pytest.raises(TypeError, match=rf"input 0 from dtype\('int32'\) to "
                                            rf"dtype\('float64'\) with casting rule '{casting}'"):
            vk.add(vi, vk.asarray(f.astype(np.float64)), casting=casting)
        with pytest.raises(TypeError):
            np.add(i, f.astype(np.float64), casting=casting)
    same(vk.add(vi, vf, casting="safe"), np.add(i, f, casting="safe"))
    with pytest.raises(TypeError, match=r"input 0 from dtype\('float32'\) to dtype\('int32'\) "
                                        r"with casting rule 'safe'"):
        vk.add(vf, vf, dtype=np.int32, casting="safe")
    with pytest.raises(ValueError, match=r"\[add\] casting must be one of"):
        vk.add(vf, vf, casting="sideways")


def test_keywords_numpy_accepts_and_refusals():
    f = RNG.standard_normal(5)
    x = vk.asarray(f)
    same(vk.exp(x, order="C", subok=True), np.exp(f))
    with pytest.raises(NotImplementedError, match=r"\[exp\] order='F'"):
        vk.exp(x, order="F")
    with pytest.raises(NotImplementedError, match=r"signature="):
        vk.exp(x, signature="d->d")


@pytest.mark.parametrize("dtype", [np.int8, np.float32, np.complex64])
def test_outer(dtype):
    a = (RNG.standard_normal((2, 3)) * 5).astype(dtype)
    b = (RNG.standard_normal(4) * 5).astype(dtype)
    for name in ("add", "multiply", "subtract", "equal", "maximum", "not_equal"):
        same(getattr(vk, name).outer(vk.asarray(a), vk.asarray(b)), getattr(np, name).outer(a, b))
    wide = np.complex128 if a.dtype.kind == "c" else np.float64
    same(vk.add.outer(vk.asarray(a), b, dtype=wide), np.add.outer(a, b, dtype=wide))
    out = vk.zeros((2, 3, 4), np.complex128)
    assert vk.multiply.outer(vk.asarray(a), vk.asarray(b), out=out) is out
    same(out, np.multiply.outer(a, b).astype(np.complex128))
    q, r = vk.divmod.outer(vk.asarray([7, 8]), vk.asarray([3]))
    same(q, np.divmod.outer([7, 8], [3])[0])
    same(r, np.divmod.outer([7, 8], [3])[1])
    with pytest.raises(ValueError, match=r"\[sin\.outer\] outer product only supported for "
                                         r"binary functions"):
        vk.sin.outer(vk.asarray(a), vk.asarray(b))


@pytest.mark.parametrize("shapes,axes", [
    (((2, 3, 4), (4, 5)), [(-2, -1), (-2, -1), (-2, -1)]),
    (((3, 4, 2), (4, 5)), [(0, 1), (-2, -1), (-1, -2)]),
    (((3, 4), (4,)), [(0, 1), (0,), (0,)]),
    (((2, 3, 4), (2, 4, 3)), [(1, 2), (1, 2), (0, 1)])])
def test_matmul_axes(shapes, axes):
    """numpy's gufunc axes=: the core dimensions of each operand, inputs then output."""
    x, y = (np.arange(np.prod(s), dtype=np.float64).reshape(s) for s in shapes)
    want = np.matmul(x, y, axes=axes)
    same(vk.matmul(vk.asarray(x), vk.asarray(y), axes=axes), want)
    out = vk.zeros(want.shape)
    assert vk.matmul(vk.asarray(x), vk.asarray(y), axes=axes, out=out) is out
    same(out, want)
    with pytest.raises(TypeError, match="only for gufuncs"):
        vk.add(vk.asarray(x), 1, axes=[(0,), (0,)])


def test_matmul_is_a_gufunc_without_elementwise_methods():
    a = RNG.standard_normal((3, 3)).astype(np.float32)
    same(vk.matmul(vk.asarray(a), vk.asarray(a)), a @ a, rtol=1e-5)
    with pytest.raises(RuntimeError, match=r"\[matmul\.reduce\] reduce is not defined"):
        vk.matmul.reduce(vk.asarray(a))
    with pytest.raises(TypeError, match=r"\[matmul\.outer\]"):
        vk.matmul.outer(vk.asarray(a), vk.asarray(a))
    with pytest.raises(TypeError, match=r"\[matmul\.at\]"):
        vk.matmul.at(vk.asarray(a), [0], vk.asarray(a[0]))


def test_numpy_ufuncs_reach_vkarray_ufuncs_and_their_methods():
    a = RNG.integers(0, 5, 8)
    x = vk.asarray(a)
    same(np.add.outer(x, x), np.add.outer(a, a))
    same(np.minimum.reduce(x), np.minimum.reduce(a))
    same(np.maximum.accumulate(x), np.maximum.accumulate(a))
    same(np.add.reduceat(x, [0, 4, 2]), np.add.reduceat(a, [0, 4, 2]))
    want = a.copy()
    np.add.at(want, [0, 0, 1], 1)
    assert np.add.at(x, [0, 0, 1], 1) is None
    same(x, want)
    same(np.logaddexp(x, 1.0), np.logaddexp(want, 1.0))
