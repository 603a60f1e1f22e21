"""Seeded random expression DAGs (ops, dtypes, broadcast shapes, shared subexpressions, weak
scalars) evaluated lazily by vkarray and eagerly by numpy. Integer results must match exactly;
float results must lie within a bound derived by forward error analysis from each op's
documented accuracy (docs/accuracy.md), computed alongside a float64 reference.

VKA_FUZZ_CASES (default 2000) sets the number of cases, VKA_FUZZ_SEED the first seed; a
failure names the seed that reproduces it alone (VKA_FUZZ_SEED=<seed> VKA_FUZZ_CASES=1)."""

import os

import numpy as np
import pytest

import vkarray as vk

CASES = int(os.environ.get("VKA_FUZZ_CASES", "2000"))
FIRST_SEED = int(os.environ.get("VKA_FUZZ_SEED", "1000"))
BATCH = 10  # cases evaluated together (one vk.eval), each checked on its own

FLOAT_ULPS = {"add": 1, "subtract": 1, "multiply": 1, "negative": 0, "abs": 0, "maximum": 0,
              "minimum": 0, "where": 0, "tanh": 4, "sin": 4, "cos": 4, "exp": 4, "sqrt": 2}


class Node:
    """One value of a case: the vkarray array, the numpy value in the case dtype, the float64
    value, and an absolute error bound (float64) for the numpy value vs. the exact result."""

    def __init__(self, vk_value, np_value, wide, err):
        self.vk, self.np, self.wide, self.err = vk_value, np_value, wide, err


def unbounded_stays_infinite(err):
    """inf * 0 is NaN in the bound arithmetic; an unbounded error is still unbounded."""
    return np.where(np.isnan(err), np.inf, err)


def leaf_shapes(rng, out_shape, n):
    shapes = []
    for _ in range(n):
        rank = rng.integers(0, len(out_shape) + 1)
        s = list(out_shape[len(out_shape) - rank:])
        for i in range(len(s)):
            if rng.random() < 0.3:
                s[i] = 1
        shapes.append(tuple(s))
    return shapes


def build_case(seed):
    """A random DAG; returns (description, vk result, numpy result, float64 result, bound)."""
    rng = np.random.default_rng(seed)
    dtype = [np.float32, np.float64, np.int32, np.int64][rng.integers(0, 4)]
    is_float = np.dtype(dtype).kind == "f"
    eps = float(np.finfo(dtype).eps) if is_float else 0.0
    out_shape = tuple(int(d) for d in rng.choice([1, 2, 3, 5, 7], size=rng.integers(0, 4)))
    nodes, text = [], []
    for shape in leaf_shapes(rng, out_shape, rng.integers(1, 5)):
        if is_float:
            v = rng.uniform(-2, 2, size=shape).astype(dtype)
        else:
            v = rng.integers(-1000, 1000, size=shape).astype(dtype)
        nodes.append(Node(vk.asarray(v), v, v.astype(np.float64), np.zeros(shape)))
        text.append(f"x{len(nodes) - 1}: {np.dtype(dtype).name}{list(shape)}")
    unary = ["negative", "abs"] + (["tanh", "sin", "cos", "exp", "sqrt"] if is_float else [])
    binary = ["add", "subtract", "multiply", "maximum", "minimum"] + (
        [] if is_float else ["bitwise_and", "bitwise_xor"])
    for _ in range(rng.integers(1, 9)):
        r = rng.random()
        if r < 0.35:
            op = unary[rng.integers(0, len(unary))]
            a = nodes[rng.integers(0, len(nodes))]
            nodes.append(apply_unary(op, a, eps))
            text.append(f"{op}(#{nodes.index(a)})")
        elif r < 0.85:
            op = binary[rng.integers(0, len(binary))]
            a = nodes[rng.integers(0, len(nodes))]
            if rng.random() < 0.25:  # a weak Python scalar operand
                c = float(rng.integers(-3, 4)) / 2 if is_float else int(rng.integers(-3, 4))
                b = Node(c, dtype(c), np.float64(c), np.float64(0))
                text.append(f"{op}(#{nodes.index(a)}, {c!r})")
            else:
                b = nodes[rng.integers(0, len(nodes))]
                text.append(f"{op}(#{nodes.index(a)}, #{nodes.index(b)})")
            nodes.append(apply_binary(op, a, b, eps))
        else:
            a, b, c, d = (nodes[rng.integers(0, len(nodes))] for _ in range(4))
            nodes.append(apply_where(a, b, c, d))
            text.append(f"where(#{nodes.index(a)} > #{nodes.index(b)}, #{nodes.index(c)}, "
                        f"#{nodes.index(d)})")
    out = nodes[-1]
    return "; ".join(f"#{i} = {t}" for i, t in enumerate(text)), out


def apply_unary(op, a, eps):
    with np.errstate(all="ignore"):
        v = getattr(vk, op)(a.vk)
        n = getattr(np, op)(a.np)
        if op == "sqrt":  # keep the domain: sqrt(abs(x))
            v, n, w = vk.sqrt(vk.abs(a.vk)), np.sqrt(np.abs(a.np)), np.sqrt(np.abs(a.wide))
            deriv = 0.5 / np.maximum(w, 1e-300)
        elif op == "exp":
            w = np.exp(a.wide)
            deriv = w
        else:
            w = getattr(np, op)(a.wide)
            deriv = {"negative": 1.0, "abs": 1.0, "tanh": 1 - w * w, "sin": np.cos(a.wide),
                     "cos": np.sin(a.wide)}[op]
            deriv = np.abs(deriv)
        if a.np.dtype.kind != "f":
            return Node(v, n, w, a.err)
        err = np.abs(deriv) * a.err * (1 + 4 * eps) + FLOAT_ULPS[op] * eps * np.abs(w)
        return Node(v, n, w, unbounded_stays_infinite(err))


def apply_binary(op, a, b, eps):
    with np.errstate(all="ignore"):
        v = getattr(vk, op)(a.vk, b.vk)
        n = getattr(np, op)(a.np, b.np)
        if n.dtype.kind == "i":
            w = n.astype(np.float64)  # wrapping integer arithmetic: exact in both
        else:
            w = getattr(np, op)(a.wide, b.wide)
        if op in ("add", "subtract"):
            err = a.err + b.err
        elif op == "multiply":
            err = np.abs(b.wide) * a.err + np.abs(a.wide) * b.err + a.err * b.err
        else:
            err = np.maximum(a.err, b.err)
        err = err * (1 + 4 * eps) + FLOAT_ULPS.get(op, 0) * eps * np.abs(w)
        return Node(v, n, w, unbounded_stays_infinite(err))


def apply_where(a, b, c, d):
    with np.errstate(all="ignore"):
        v = vk.where(a.vk > b.vk, c.vk, d.vk)
        n = np.where(a.np > b.np, c.np, d.np)
        w = np.where(a.np > b.np, c.wide, d.wide)
        err = np.where(a.np > b.np, c.err, d.err)
        # Where the condition is within the error of its operands, either branch is right.
        close = np.abs(a.wide - b.wide) <= (a.err + b.err)
        err = np.where(close, np.inf, err)
        return Node(v, n, w, err * np.ones(np.broadcast(a.np, b.np, c.np, d.np).shape))


def check(seed, description, out):
    got = np.asarray(out.vk)
    assert got.shape == out.np.shape, f"seed {seed}: shape {got.shape} vs {out.np.shape}"
    assert got.dtype == out.np.dtype, f"seed {seed}: dtype {got.dtype} vs {out.np.dtype}"
    if got.dtype.kind != "f":
        bad = np.nonzero(np.ravel(got != out.np))[0]
    else:
        with np.errstate(all="ignore"):
            diff = np.abs(got.astype(np.float64) - out.wide)
            bound = out.err + 0.5 * np.finfo(got.dtype).eps * np.abs(out.wide)
            ok = (diff <= bound) | (np.isnan(got) & np.isnan(out.wide)) | (got == out.wide)
        bad = np.nonzero(np.ravel(~ok))[0]
    assert bad.size == 0, (
        f"seed {seed} (reproduce: VKA_FUZZ_SEED={seed} VKA_FUZZ_CASES=1): {description}\n"
        f"first bad element: got {np.ravel(got)[bad[0]]!r}, numpy {np.ravel(out.np)[bad[0]]!r}, "
        f"float64 {np.ravel(out.wide)[bad[0]]!r}")


@pytest.mark.parametrize("batch", range((CASES + BATCH - 1) // BATCH))
def test_random_expressions(batch):
    seeds = range(FIRST_SEED + batch * BATCH, FIRST_SEED + min(CASES, (batch + 1) * BATCH))
    cases = [(s, *build_case(s)) for s in seeds]
    vk.eval(*[c[2].vk for c in cases if isinstance(c[2].vk, vk.ndarray)])
    for seed, description, out in cases:
        check(seed, description, out)
