# A GPU-free model of the pipelined cooperative-matrix float16 GEMM kernel
# (kernels/gen/gemm_coop.cc, emit_gemm_coop_pipelined): its index arithmetic, step by step as the
# GLSL does it (operand geometry, 8-element loads with the 16-byte fast path and the
# bounds-checked scalar path, double-buffered shared stages in 16-byte words, row- and
# column-major fragment loads, direct and staged fragment stores), run over small problems
# with every operand layout, strides, offsets, batches and edge sizes. Checks that every
# element of C is written exactly once with the product (exact: small integers), that every
# shared word a fragment load reads holds the current K slice, and that no load leaves the
# operand. lavapipe has no cooperative matrices, so this and the SPIR-V compile of
# tests/kernels/gen/gemm_codegen_test are what run without a GPU.
import itertools

import numpy as np
import pytest


class Kernel:
    def __init__(self, bm, bn, bk, fm, fn, subgroup, a_m_fast, b_n_fast):
        self.bm, self.bn, self.bk, self.fm, self.fn = bm, bn, bk, fm, fn
        self.sg_n = bn // (16 * fn)
        self.subgroups = (bm // (16 * fm)) * self.sg_n
        self.threads = self.subgroups * subgroup
        self.subgroup = subgroup
        self.a_m_fast, self.b_n_fast = a_m_fast, b_n_fast
        self.a_out, self.a_in = (bk, bm) if a_m_fast else (bm, bk)
        self.b_out, self.b_in = (bk, bn) if b_n_fast else (bn, bk)
        self.a_ld, self.b_ld = (self.a_in + 8) // 8, (self.b_in + 8) // 8
        self.a_stage, self.b_stage = self.a_out * self.a_ld, self.b_out * self.b_ld
        self.a_vecs, self.b_vecs = self.a_out * self.a_in // 8, self.b_out * self.b_in // 8
        self.a_per = -(-self.a_vecs // self.threads)
        self.b_per = -(-self.b_vecs // self.threads)


class Writes(np.ndarray):
    """How many times each element of the output buffer was written; `direct`: fragments
    stored straight from the accumulators."""
    direct = 0

    def __new__(cls, n):
        return np.zeros(n, dtype=int).view(cls)


class Reads(set):
    """The element indices an operand's loads read, and how many 16-byte loads there were."""
    vector_loads = 0


def load8(buf, fast, base, o, i0, so, si, lo, li, reads):
    """The GLSL load8_<x>: 8 values (zeros outside), recording the element indices read."""
    if fast and o < lo and i0 + 8 <= li:
        at = base + o * so + i0
        assert at % 8 == 0 and at >= 0 and at + 8 <= len(buf)
        w = at >> 3
        reads.update(range(w * 8, w * 8 + 8))
        reads.vector_loads += 1
        return buf[w * 8:w * 8 + 8].copy()
    r = np.zeros(8)
    if o >= lo:
        return r
    for j in range(8):
        i = i0 + j
        if i < li:
            at = base + o * so + i * si
            assert 0 <= at < len(buf)
            reads.add(at)
            r[j] = buf[at]
    return r


def frag_load(shared, stamps, start, stride, col_major, want):
    """coopMatLoadNV from a uvec4 array: element (i, j) at half start*8 + i*stride*8 + j
    (row-major) or start*8 + j*stride*8 + i (column-major)."""
    flat, st = shared.reshape(-1), stamps.reshape(-1)
    f = np.zeros((16, 16))
    for i in range(16):
        for j in range(16):
            h = start * 8 + (j * stride * 8 + i if col_major else i * stride * 8 + j)
            assert st[h] == want, "fragment reads a word of another K slice"
            f[i, j] = flat[h]
    return f


def run(k, M, N, K, batch, in0, in1, a, b, off2):
    """The kernel over the whole grid (one workgroup per tile, as the dispatch of
    launch_gemm when the grid fits). a, b: (offset, batch stride, row stride, col stride)."""
    a_off, a_sb, a_sm, a_sk = a
    b_off, b_sb, b_sk, b_sn = b
    out = np.full(off2 + batch * M * N + 5, np.nan)
    writes = Writes(len(out))
    a_so, a_si, a_lo, a_li = (a_sk, a_sm, K, M) if k.a_m_fast else (a_sm, a_sk, M, K)
    b_so, b_si, b_lo, b_li = (b_sk, b_sn, K, N) if k.b_n_fast else (b_sn, b_sk, N, K)
    a_fast = a_si == 1 and (a_so & 7) == 0 and (a_off & 7) == 0 and (a_sb & 7) == 0
    b_fast = b_si == 1 and (b_so & 7) == 0 and (b_off & 7) == 0 and (b_sb & 7) == 0
    tiles_m, tiles_n, nk = -(-M // k.bm), -(-N // k.bn), -(-K // k.bk)
    reads_a, reads_b = Reads(), Reads()
    for z, ty, tx in itertools.product(range(batch), range(tiles_m), range(tiles_n)):
        a_base, b_base = a_off + z * a_sb, b_off + z * b_sb
        c_base = off2 + z * M * N
        m0, n0 = ty * k.bm, tx * k.bn
        sa = np.zeros((2 * k.a_stage, 8))
        sb = np.zeros((2 * k.b_stage, 8))
        stamp_a = np.full((2 * k.a_stage, 8), -1)
        stamp_b = np.full((2 * k.b_stage, 8), -1)
        acc = np.zeros((k.subgroups, k.fm, k.fn, 16, 16))

        def fetch(k0):
            # p[tid][r] for both operands, origins as the GLSL's CoopOperand outer0/inner0
            ao0, ai0 = (k0, m0) if k.a_m_fast else (m0, k0)
            bo0, bi0 = (k0, n0) if k.b_n_fast else (n0, k0)
            pa, pb = {}, {}
            for tid in range(k.threads):
                for r in range(k.a_per):
                    e = tid + r * k.threads
                    if e < k.a_vecs:
                        pa[e] = load8(in0, a_fast, a_base, ao0 + e // (k.a_in // 8),
                                      ai0 + (e % (k.a_in // 8)) * 8, a_so, a_si, a_lo, a_li,
                                      reads_a)
                for r in range(k.b_per):
                    e = tid + r * k.threads
                    if e < k.b_vecs:
                        pb[e] = load8(in1, b_fast, b_base, bo0 + e // (k.b_in // 8),
                                      bi0 + (e % (k.b_in // 8)) * 8, b_so, b_si, b_lo, b_li,
                                      reads_b)
            return pa, pb

        def stash(p, st, kt):
            pa, pb = p
            for e, v in pa.items():
                w = st * k.a_stage + (e // (k.a_in // 8)) * k.a_ld + e % (k.a_in // 8)
                sa[w], stamp_a[w] = v, kt
            for e, v in pb.items():
                w = st * k.b_stage + (e // (k.b_in // 8)) * k.b_ld + e % (k.b_in // 8)
                sb[w], stamp_b[w] = v, kt

        stash(fetch(0), 0, 0)
        for kt in range(nk):
            st = kt & 1
            more = kt + 1 < nk
            p = fetch((kt + 1) * k.bk) if more else None
            for s in range(k.subgroups):
                sm, sn = s // k.sg_n, s % k.sg_n
                for kk in range(0, k.bk, 16):
                    fa, fb = [], []
                    for i in range(k.fm):
                        r = sm * 16 * k.fm + i * 16
                        start = (st * k.a_stage + kk * k.a_ld + r // 8 if k.a_m_fast else
                                 st * k.a_stage + r * k.a_ld + kk // 8)
                        fa.append(frag_load(sa, stamp_a, start, k.a_ld, k.a_m_fast, kt))
                    for j in range(k.fn):
                        c = sn * 16 * k.fn + j * 16
                        start = (st * k.b_stage + kk * k.b_ld + c // 8 if k.b_n_fast else
                                 st * k.b_stage + c * k.b_ld + kk // 8)
                        fb.append(frag_load(sb, stamp_b, start, k.b_ld, not k.b_n_fast, kt))
                    for i in range(k.fm):
                        for j in range(k.fn):
                            acc[s, i, j] += fa[i] @ fb[j]
            if more:
                stash(p, st ^ 1, kt + 1)
        for s in range(k.subgroups):
            sm, sn = s // k.sg_n, s % k.sg_n
            for i in range(k.fm):
                for j in range(k.fn):
                    r0, c0 = m0 + sm * 16 * k.fm + i * 16, n0 + sn * 16 * k.fn + j * 16
                    if r0 >= M or c0 >= N:
                        continue
                    h = acc[s, i, j]
                    at = c_base + r0 * N + c0
                    if r0 + 16 <= M and c0 + 16 <= N and (N & 7) == 0 and (at & 7) == 0:
                        writes.direct += 1
                        for x in range(16):
                            out[at + x * N:at + x * N + 16] = h[x]
                            writes[at + x * N:at + x * N + 16] += 1
                    else:
                        sc = h.reshape(-1)
                        for lane in range(k.subgroup):
                            for e in range(lane, 256, k.subgroup):
                                gm, gn = r0 + e // 16, c0 + e % 16
                                if gm < M and gn < N:
                                    out[c_base + gm * N + gn] = sc[e]
                                    writes[c_base + gm * N + gn] += 1
    return out, writes, reads_a, reads_b


def operand(rng, rows, cols, batch, transposed, aligned, off, flip):
    """A (batch, rows, cols) view into a flat buffer: row-major or transposed storage, `off`
    elements in, columns reversed when `flip`; rows of the storage a multiple of 8 elements
    apart when `aligned`, else padded by 3. Returns the buffer, the view's values, its
    (offset, batch, row, column strides) and the set of its elements' indices."""
    inner, outer = (rows, cols) if transposed else (cols, rows)
    ld = -(-inner // 8) * 8 + 8 if aligned else inner + 3
    sb = outer * ld
    buf = rng.integers(-3, 4, off + batch * sb + 3).astype(np.float64)
    s_row, s_col = (1, ld) if transposed else (ld, 1)
    off_v = off
    if flip:  # columns reversed: start at the last column, negative column stride
        off_v += (cols - 1) * s_col
        s_col = -s_col
    idx = (off_v + np.arange(batch)[:, None, None] * sb + np.arange(rows)[None, :, None] * s_row
           + np.arange(cols)[None, None, :] * s_col)
    return buf, buf[idx], (off_v, sb, s_row, s_col), set(idx.reshape(-1).tolist())


CASES = [
    # (M, N, K, batch), kernel (bm, bn, bk, fm, fn, subgroup)
    ((130, 140, 72, 1), (128, 128, 32, 4, 4, 32)),
    ((64, 64, 64, 2), (128, 128, 32, 4, 2, 32)),
    ((136, 200, 40, 1), (128, 128, 32, 4, 4, 32)),
    ((37, 21, 29, 2), (32, 32, 16, 1, 1, 32)),
    ((1, 1, 1, 1), (32, 32, 16, 1, 1, 32)),
    ((1, 50, 40, 1), (64, 48, 48, 2, 3, 32)),
    ((70, 1, 9, 1), (64, 48, 48, 2, 3, 64)),
    ((48, 96, 0, 1), (32, 32, 16, 1, 1, 32)),
]


@pytest.mark.parametrize("case", range(len(CASES)))
@pytest.mark.parametrize("a_t,b_t", [(False, False), (True, False), (False, True), (True, True)])
def test_every_element_once_and_exact(case, a_t, b_t):
    (M, N, K, batch), (bm, bn, bk, fm, fn, subgroup) = CASES[case]
    rng = np.random.default_rng(case * 4 + a_t * 2 + b_t)
    # aligned (16-byte fast paths) and misaligned (padding 3, offset 5, reversed columns)
    for aligned in (True, False):
        off = 16 if aligned else 5
        in0, av, a, a_elems = operand(rng, M, K, batch, a_t, aligned, off,
                                      flip=not aligned and not a_t)
        in1, bv, b, b_elems = operand(rng, K, N, batch, b_t, aligned, off + 2 * (not aligned),
                                      flip=False)
        # the kernel's load orders: A m-fast when stored transposed, B n-fast unless
        a_m_fast = a[3] != 1 and a[2] == 1
        b_n_fast = not (b[2] == 1 and b[3] != 1)
        k = Kernel(bm, bn, bk, fm, fn, subgroup, a_m_fast, b_n_fast)
        off2 = 8 if aligned else 3
        out, writes, reads_a, reads_b = run(k, M, N, K, batch, in0, in1, a, b, off2)
        want = av @ bv
        got = out[off2:off2 + batch * M * N].reshape(batch, M, N)
        assert (writes[off2:off2 + batch * M * N] == 1).all(), "C written once per element"
        assert writes.sum() == batch * M * N, "nothing written outside C"
        # whole fragments go straight to C when its rows are 16-byte aligned
        assert (writes.direct > 0) == (aligned and min(M, N) >= 16 and N % 8 == 0)
        assert reads_a <= a_elems and reads_b <= b_elems, "loads stay inside the operands"
        # the 16-byte loads ran where the operands allow them, and only there
        # (the stride-1 axis: A's m when stored transposed, else k; B's k when transposed)
        assert (reads_a.vector_loads > 0) == (aligned and K > 0 and (M if a_t else K) >= 8)
        assert (reads_b.vector_loads > 0) == (aligned and K > 0 and (K if b_t else N) >= 8)
        np.testing.assert_array_equal(got, want)
