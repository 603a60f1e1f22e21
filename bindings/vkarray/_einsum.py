"""numpy.einsum on vkarray: any subscripts numpy accepts (implicit and explicit output,
ellipses, repeated labels, size-1 broadcasting, the interleaved operand/sublist form),
rewritten to diagonals, transposes, reshapes, batched matmul and dtype-preserving sums. With
several operands, pairs are contracted in the order of least estimated work (multiply-adds):
greedy, or an exhaustive search over pair orders with optimize='optimal' (up to 6 operands)."""

import itertools
import operator

import numpy as _np

from . import _vkarray
from ._creation import asarray

_ELLIPSIS_BASE = 0x2000  # labels of ellipsis dimensions: chr(0x2000 + i), never letters


def _is_label(c):
    return c.isascii() and c.isalpha()


def _from_sublists(args):
    """The interleaved form einsum(op0, sub0, op1, sub1, ..., [subout]) as a string."""
    operands, terms = [], []
    args = list(args)
    out = None
    if len(args) % 2 == 1:
        out = args.pop()
    for i in range(0, len(args), 2):
        operands.append(args[i])
        terms.append(args[i + 1])

    def term(sub):
        s = ""
        for x in sub:
            if x is Ellipsis:
                s += "..."
            else:
                x = operator.index(x)
                if not 0 <= x < 52:
                    raise ValueError(f"[einsum] subscript {x} is not in range [0, 52)")
                s += chr(ord("A") + x) if x < 26 else chr(ord("a") + x - 26)
        return s

    subscripts = ",".join(term(t) for t in terms)
    if out is not None:
        subscripts += "->" + term(out)
    return subscripts, operands


def _split_term(term, ndim, index):
    """A term's labels for an operand of ndim dims: '...' becomes the trailing ones of the
    ellipsis labels (returned as a count, resolved later)."""
    if term.count("...") > 1 or "." in term.replace("...", ""):
        raise ValueError(f"[einsum] invalid ellipsis in subscripts for operand {index}: '{term}'")
    for c in term.replace("...", ""):
        if not _is_label(c):
            raise ValueError(f"[einsum] invalid subscript '{c}' in einstein sum subscripts "
                             "string, subscripts must be letters")
    if "..." in term:
        head, tail = term.split("...")
        ell = ndim - len(head) - len(tail)
        if ell < 0:
            raise ValueError("einstein sum subscripts string contains too many subscripts for "
                             f"operand {index}")
        return list(head), ell, list(tail)
    if len(term) != ndim:
        raise ValueError("einstein sum subscripts string contains too many subscripts for "
                         f"operand {index}" if len(term) > ndim else
                         f"operand has more dimensions than subscripts given in einstein sum "
                         f"for operand {index}")
    return list(term), None, []


def _parse(subscripts, operands):
    """(input label lists, output label list) with ellipsis dims as shared labels."""
    subscripts = subscripts.replace(" ", "")
    if "->" in subscripts:
        lhs, rhs = subscripts.split("->", 1)
        if "->" in rhs:
            raise ValueError("[einsum] subscripts string contains more than one '->'")
    else:
        lhs, rhs = subscripts, None
    terms = lhs.split(",")
    if len(terms) < len(operands):
        raise ValueError("more operands provided to einstein sum function than specified in "
                         "the subscripts string")
    if len(terms) > len(operands):
        raise ValueError("fewer operands provided to einstein sum function than specified in "
                         "the subscripts string")
    parts = [_split_term(t, x.ndim, i) for i, (t, x) in enumerate(zip(terms, operands))]
    n_ell = max([p[1] for p in parts if p[1] is not None], default=0)
    ell = [chr(_ELLIPSIS_BASE + i) for i in range(n_ell)]
    inputs = []
    for head, e, tail in parts:
        inputs.append(head + (ell[n_ell - e:] if e else []) + tail)
    counts = {}
    for labels in inputs:
        for c in labels:
            counts[c] = counts.get(c, 0) + 1
    if rhs is None:
        output = ell + sorted(c for c in counts if counts[c] == 1 and _is_label(c))
    else:
        if rhs.count("...") > 1 or "." in rhs.replace("...", ""):
            raise ValueError(f"[einsum] invalid ellipsis in output subscripts '{rhs}'")
        for c in rhs.replace("...", ""):
            if not _is_label(c):
                raise ValueError(f"[einsum] invalid subscript '{c}' in the output")
            if c not in counts:
                raise ValueError("einstein sum subscripts string included output subscript "
                                 f"'{c}' which never appeared in an input")
            if rhs.count(c) > 1:
                raise ValueError("einstein sum subscripts string includes output subscript "
                                 f"'{c}' multiple times")
        if "..." in rhs:
            head, tail = rhs.split("...")
            output = list(head) + ell + list(tail)
        else:
            if ell:
                raise ValueError("output has more dimensions than subscripts given in einstein "
                                 "sum, but no '...' ellipsis provided to broadcast the extra "
                                 "dimensions.")
            output = list(rhs)
    return inputs, output


def _sizes(inputs, operands):
    """Each label's extent: equal, or 1 broadcast to the other (numpy's rule)."""
    sizes = {}
    for i, (labels, x) in enumerate(zip(inputs, operands)):
        for c, n in zip(labels, x.shape):
            m = sizes.get(c)
            if m is None or m == 1:
                sizes[c] = n
                continue
            if n != 1 and n != m:
                shapes = " ".join(str(tuple(o.shape)) for o in operands)
                name = "..." if ord(c) >= _ELLIPSIS_BASE else c
                raise ValueError("operands could not be broadcast together: label "
                                 f"'{name}' has extents {m} and {n} (operand {i}; shapes "
                                 f"{shapes})")
    return sizes


def _sum(x, axes):
    if not axes:
        return x
    if x.dtype == _np.bool_:
        return _vkarray.any(x, axis=tuple(axes))
    return _vkarray.sum(x, axis=tuple(axes), dtype=x.dtype)


def _single(x, labels, keep):
    """Diagonals of repeated labels, then sums over labels not in keep."""
    labels = list(labels)
    while True:
        seen = {}
        pair = None
        for i, c in enumerate(labels):
            if c in seen:
                pair = (seen[c], i)
                break
            seen[c] = i
        if pair is None:
            break
        p, q = pair
        if x.shape[p] != x.shape[q]:
            name = "..." if ord(labels[p]) >= _ELLIPSIS_BASE else labels[p]
            raise ValueError(f"dimensions in operand for collapsing index '{name}' don't match "
                             f"({x.shape[p]} != {x.shape[q]})")
        c = labels[p]
        x = _vkarray.diagonal(x, 0, p, q)
        labels = [d for i, d in enumerate(labels) if i not in (p, q)] + [c]
    drop = [i for i, c in enumerate(labels) if c not in keep]
    x = _sum(x, drop)
    return x, [c for c in labels if c in keep]


def _prod(values):
    r = 1
    for v in values:
        r *= v
    return r


def _contract(x, lx, y, ly, keep):
    """The pair's product over shared labels not kept, as one batched matmul."""
    x, lx = _single(x, lx, keep | set(ly))
    y, ly = _single(y, ly, keep | set(lx))
    batch = [c for c in lx if c in ly and c in keep]
    summed = [c for c in lx if c in ly and c not in keep]
    left = [c for c in lx if c not in ly]
    right = [c for c in ly if c not in lx]
    sx = dict(zip(lx, x.shape))
    sy = dict(zip(ly, y.shape))
    # A summed label of extent 1 on one side is broadcast to the other's extent (0 too).
    for c in summed:
        if sx[c] != sy[c]:
            n = sy[c] if sx[c] == 1 else sx[c]
            if sx[c] == 1:
                shape = [n if d == c else sx[d] for d in lx]
                x, sx[c] = _vkarray.broadcast_to(x, tuple(shape)), n
            else:
                shape = [n if d == c else sy[d] for d in ly]
                y, sy[c] = _vkarray.broadcast_to(y, tuple(shape)), n
    xt = _vkarray.transpose(x, tuple(lx.index(c) for c in batch + left + summed))
    yt = _vkarray.transpose(y, tuple(ly.index(c) for c in batch + summed + right))
    k = _prod(sx[c] for c in summed)
    m = _prod(sx[c] for c in left)
    n = _prod(sy[c] for c in right)
    xb = tuple(sx[c] for c in batch)
    yb = tuple(sy[c] for c in batch)
    xt = _vkarray.reshape(xt, xb + (m, k))
    yt = _vkarray.reshape(yt, yb + (k, n))
    r = _vkarray._matmul(xt, yt)
    bshape = tuple(q if p == 1 else p for p, q in zip(xb, yb))  # 1 broadcasts, to 0 too
    r = _vkarray.reshape(r, bshape + tuple(sx[c] for c in left) + tuple(sy[c] for c in right))
    return r, batch + left + right


def _pair_cost(la, lb, sizes):
    return _prod(sizes[c] for c in set(la) | set(lb))


def _plan(inputs, output, sizes, optimal):
    """The pair order: a list of (i, j) positions in the shrinking operand list."""
    def kept(labels_list, i, j):
        rest = set(output)
        for t, ls in enumerate(labels_list):
            if t not in (i, j):
                rest |= set(ls)
        return rest

    def result_labels(labels_list, i, j):
        keep = kept(labels_list, i, j)
        return [c for c in dict.fromkeys(labels_list[i] + labels_list[j]) if c in keep]

    def step(labels_list, i, j):
        new = [ls for t, ls in enumerate(labels_list) if t not in (i, j)]
        return new + [result_labels(labels_list, i, j)]

    if optimal and len(inputs) <= 6:
        best = [None, None]

        def search(labels_list, cost, order):
            if best[0] is not None and cost >= best[0]:
                return
            if len(labels_list) == 1:
                best[0], best[1] = cost, order
                return
            for i, j in itertools.combinations(range(len(labels_list)), 2):
                c = _pair_cost(labels_list[i], labels_list[j], sizes)
                search(step(labels_list, i, j), cost + c, order + [(i, j)])

        search([list(x) for x in inputs], 0, [])
        return best[1]
    order, labels_list = [], [list(x) for x in inputs]
    while len(labels_list) > 1:
        i, j = min(itertools.combinations(range(len(labels_list)), 2),
                   key=lambda p: (_pair_cost(labels_list[p[0]], labels_list[p[1]], sizes),
                                  _prod(sizes[c] for c in result_labels(labels_list, *p)), p))
        order.append((i, j))
        labels_list = step(labels_list, i, j)
    return order


def einsum(*operands, out=None, dtype=None, order="K", casting="safe", optimize=False):
    """numpy.einsum: the Einstein summation of the operands, as diagonals, sums, transposes and
    batched matrix products on the device (see the module docstring)."""
    if not operands:
        raise ValueError("No input operands")
    if isinstance(operands[0], str):
        subscripts, ops = operands[0], list(operands[1:])
    else:
        subscripts, ops = _from_sublists(operands)
    ops = [asarray(x) for x in ops]
    inputs, output = _parse(subscripts, ops)
    # numpy answers one operand whose labels all stay (a transpose or diagonal) with a view,
    # in the operand's dtype whatever dtype= says.
    view_only = len(ops) == 1 and out is None and set(inputs[0]) <= set(output)
    if dtype is not None:
        for i, x in enumerate(ops):
            if not _np.can_cast(x.dtype, dtype, casting=casting):
                raise TypeError(f"Cannot cast array data from dtype('{x.dtype}') to "
                                f"dtype('{_np.dtype(dtype)}') according to the rule '{casting}'")
        if not view_only:
            ops = [x.astype(dtype) for x in ops]
    sizes = _sizes(inputs, ops)
    if len(ops) > 1:
        # one result dtype for every pair (numpy's result_type of all operands)
        t = _np.result_type(*[_np.empty(0, x.dtype) for x in ops])
        ops = [x if x.dtype == t else x.astype(t) for x in ops]
    plan = _plan(inputs, output, sizes, optimize == "optimal")
    terms = list(zip(ops, inputs))
    for i, j in plan:
        (x, lx), (y, ly) = terms[i], terms[j]
        keep = set(output)
        for t, (_, ls) in enumerate(terms):
            if t not in (i, j):
                keep |= set(ls)
        r = _contract(x, lx, y, ly, keep)
        terms = [p for t, p in enumerate(terms) if t not in (i, j)] + [r]
    x, labels = terms[0]
    x, labels = _single(x, labels, set(output))
    # labels kept at extent 1 where the output's extent is larger broadcast up
    x = _vkarray.transpose(x, tuple(labels.index(c) for c in output))
    shape = tuple(sizes[c] for c in output)
    if tuple(x.shape) != shape:
        x = _vkarray.broadcast_to(x, shape)
    if out is not None:
        return _vkarray._finish(x, out, op="einsum", exact_shape=True)
    return _vkarray.ascontiguousarray(x) if len(ops) == 1 else x
