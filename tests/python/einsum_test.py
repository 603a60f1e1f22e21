"""einsum (vkarray/_einsum.py) against numpy: a table of subscripts from numpy's einsum
documentation (traces, diagonals, sums, transposes, inner, outer, matrix and batched products,
ellipses, the interleaved sublist form) plus seeded random subscripts of 1-4 operands with
repeated labels and size-1 broadcasting; result dtypes; out=, dtype= and optimize=; numpy's
exception types. Integers exact; floats within the matrix-product bound
(products_testing.py), k taken as the product of the summed extents."""

import string

import numpy as np
import pytest

import vkarray as vk
from products_testing import UNIT, sample

# (subscripts, operand shapes) from numpy.einsum's documentation and its examples.
TABLE = [
    ("ii", [(5, 5)]), ("ii->i", [(5, 5)]), ("ij->i", [(5, 4)]), ("ji", [(2, 3)]),
    ("ij->ji", [(2, 3)]), ("i,i", [(5,), (5,)]), ("i", [(5,)]), ("ij,j", [(5, 5), (5,)]),
    ("...j,j", [(5, 5), (5,)]), ("i,j", [(2,), (5,)]), ("ij,jk", [(3, 4), (4, 2)]),
    ("ij,jk->ik", [(3, 4), (4, 2)]), ("ijk,ikl->ijl", [(2, 3, 4), (2, 4, 5)]),
    ("bij,bjk->bik", [(3, 2, 4), (3, 4, 2)]), ("ij,ij->", [(3, 4), (3, 4)]),
    ("ij,ij->ij", [(3, 4), (3, 4)]), ("ijk,jil->kl", [(3, 4, 5), (4, 3, 2)]),
    ("ki,...k->i...", [(3, 2), (4, 3)]), ("k...,jk", [(3, 2), (4, 3)]),
    ("...ii->...i", [(2, 3, 3)]), ("i...i", [(3, 2, 3)]), ("..., ...", [(), (2, 3)]),
    (",ij", [(), (2, 3)]), ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]),
    ("ea,fb,abcd,gc,hd->efgh", [(2, 3), (2, 4), (3, 4, 2, 3), (2, 2), (2, 3)]),
    ("i,i,i->i", [(4,), (4,), (4,)]), ("ij,jk", [(2, 1), (3, 4)]),
    ("i...,i...", [(2, 3), (2, 1)]), ("...j,j...->...", [(2, 3), (3, 2)]),
    ("iij,jk->ik", [(3, 3, 4), (4, 2)]), ("ab,ab,ab->b", [(2, 3), (2, 3), (1, 3)]),
    ("ij,kl->ijkl", [(2, 3), (2, 2)]), ("Aa,aB->AB", [(2, 3), (3, 4)]), ("Ba", [(2, 3)]),
    ("ij,jk", [(0, 3), (3, 2)]), ("ij,jk", [(2, 0), (0, 3)]),
]


def check_einsum(subscripts, arrays, **kw):
    got = np.asarray(vk.einsum(subscripts, *[vk.asarray(a) for a in arrays], **kw))
    want = np.einsum(subscripts, *arrays, **kw)
    assert got.shape == want.shape, (subscripts, got.shape, want.shape)
    assert got.dtype == want.dtype, (subscripts, got.dtype, want.dtype)
    dt = want.dtype
    if dt.kind in "biu":
        np.testing.assert_array_equal(got, want, err_msg=subscripts)
        return
    # Every result element is a sum of at most k terms, each a product of one element per
    # operand; the contractions round each term at most n - 1 times and each partial sum once
    # per addition: |err| <= gamma_(n k) sum |terms| (2 n k for complex components), u the
    # dtype's unit roundoff (float16: 2^-11, as intermediate results are rounded to it).
    k = int(np.max(np.einsum(subscripts, *[np.ones(a.shape) for a in arrays]), initial=1))
    n = len(arrays) * max(k, 1) * (2 if dt.kind == "c" else 1)
    u = 2.0 ** -11 if dt == np.float16 else UNIT[dt]
    big = np.complex128 if dt.kind == "c" else np.float64
    exact = np.einsum(subscripts, *[a.astype(big) for a in arrays])
    mags = [np.abs(a.real).astype(np.float64) + np.abs(a.imag) if dt.kind == "c"
            else np.abs(a).astype(np.float64) for a in arrays]
    bound = n * u / (1 - n * u) * np.einsum(subscripts, *mags)
    if dt == np.float16:
        bound = bound + 2.0 ** -11 * np.abs(exact) + 2.0 ** -24 * n  # result rounding, subnormals
    err = np.abs(got.astype(big) - exact)
    assert np.all(err <= bound * (np.sqrt(2) if dt.kind == "c" else 1)), subscripts


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.complex64, np.bool_,
                                   np.int8, np.float16, np.uint64, np.complex128])
def test_documented_subscripts(dtype):
    for i, (subscripts, shapes) in enumerate(TABLE):
        arrays = [sample(s, dtype, 10 * i + j) for j, s in enumerate(shapes)]
        check_einsum(subscripts, arrays)


def test_sublist_form_and_mixed_dtypes():
    a, b = sample((3, 4), np.float32, 1), sample((4, 5), np.float64, 2)
    got = vk.einsum(vk.asarray(a), [0, 1], vk.asarray(b), [1, 2], [0, 2])
    np.testing.assert_allclose(np.asarray(got), np.einsum(a, [0, 1], b, [1, 2], [0, 2]),
                               rtol=1e-6)
    assert np.asarray(got).dtype == np.float64
    c = sample((2, 3, 3), np.int16, 3)
    np.testing.assert_array_equal(np.asarray(vk.einsum(vk.asarray(c), [Ellipsis, 0, 0])),
                                  np.einsum(c, [Ellipsis, 0, 0]))
    i8, u8 = sample((3, 4), np.int8, 4), sample((4,), np.uint8, 5)
    check_einsum("ij,j->i", [i8, u8])


def test_random_subscripts():
    rng = np.random.default_rng(1234)
    letters = "abcdef"
    for trial in range(40):
        n_ops = int(rng.integers(1, 5))
        sizes = {c: int(rng.integers(1, 5)) for c in letters}
        terms = []
        for _ in range(n_ops):
            nd = int(rng.integers(0, 4))
            terms.append("".join(rng.choice(list(letters[:4]), nd)))
        used = sorted(set("".join(terms)))
        out = "".join(c for c in used if rng.random() < 0.5)
        subscripts = ",".join(terms) + "->" + "".join(rng.permutation(list(out)))
        shapes = []
        for t in terms:
            # some extents 1, broadcast against the others
            shapes.append(tuple(1 if rng.random() < 0.15 and t.count(c) == 1 else sizes[c]
                                for c in t))
        dtype = [np.float64, np.int64, np.float32][trial % 3]
        arrays = [sample(s, dtype, 100 * trial + j) for j, s in enumerate(shapes)]
        for optimize in (False, "greedy", "optimal"):
            check_einsum(subscripts, arrays, optimize=optimize)


def test_out_dtype_and_errors():
    a, b = sample((3, 4), np.float32, 1), sample((4, 2), np.float32, 2)
    out = vk.zeros((3, 2), dtype=np.float32)
    assert vk.einsum("ij,jk", a, b, out=out) is out
    np.testing.assert_allclose(np.asarray(out), a @ b, rtol=1e-5, atol=1e-6)
    check_einsum("ij,jk", [a, b], dtype=np.float64)
    with pytest.raises(TypeError):
        vk.einsum("ij,jk", a, b, dtype=np.int32)
    bad = [("ij,jk", [(2, 2), (3, 4)]), ("ijk", [(2, 2)]), ("ij->k", [(2, 2)]),
           ("ij,jk", [(2, 2)]), ("i", [(2,), (2,)]), ("ii", [(2, 3)]), ("i...->", [(2, 3)]),
           ("i->ii", [(2,)]), ("i$", [(2, 2)])]
    for subscripts, shapes in bad:
        arrays = [np.zeros(s) for s in shapes]
        with pytest.raises(ValueError):
            np.einsum(subscripts, *arrays)
        with pytest.raises(ValueError):
            vk.einsum(subscripts, *[vk.asarray(x) for x in arrays])


@pytest.mark.parametrize("subscripts", ["ij", "ji", "ii->i", "...->...", "ij->", "ii", "ij->i"])
def test_dtype_of_a_relabeled_operand(subscripts):
    """numpy answers one operand whose labels all stay with a view in the operand's dtype,
    whatever dtype= says; a sum converts to dtype= first."""
    x = np.arange(9, dtype=np.uint8).reshape(3, 3)
    check_einsum(subscripts, [x], dtype=np.float64)
    check_einsum(subscripts, [x.astype(bool)], dtype=np.int64)


@pytest.mark.parametrize("subscripts,shapes", [
    ("ij,i", [(0, 1), (1,)]), ("...,...k->k...", [(1, 2, 1), (2, 0, 1)]),
    ("ij...,ji...->i...", [(1, 2, 0), (2, 1, 1)]), ("ij,ki,i->jk", [(1, 1), (1, 0), (0,)]),
    ("ij,ij->i", [(2, 1), (2, 0)]), ("bij,bjk->bik", [(1, 2, 3), (0, 3, 2)])])
def test_extent_one_broadcasts_to_zero(subscripts, shapes):
    """A label of extent 1 broadcasts to the other operand's extent, 0 included."""
    check_einsum(subscripts, [np.arange(int(np.prod(s)), dtype=np.float32).reshape(s) + 1
                              for s in shapes])
