"""The host reference of the vkarray.random tests: Philox-4x32-10 and the documented transforms
(docs/user_guide.md, "Random numbers") written in numpy."""

import numpy as np

MASK = np.uint64(0xFFFFFFFF)


def philox(c0, c1, k0, k1, c2=None):
    """Random123's philox4x32_R(10) of counters (c0, c1, c2, 0), as uint64 arrays of words."""
    c2 = np.zeros_like(c0) if c2 is None else c2
    c3 = np.zeros_like(c0)
    for r in range(10):
        if r:
            k0 = (k0 + 0x9E3779B9) & 0xFFFFFFFF
            k1 = (k1 + 0xBB67AE85) & 0xFFFFFFFF
        p0 = np.uint64(0xD2511F53) * c0
        p1 = np.uint64(0xCD9E8D57) * c2
        c0, c1, c2, c3 = ((p1 >> np.uint64(32)) ^ c1 ^ np.uint64(k0), p1 & MASK,
                          (p0 >> np.uint64(32)) ^ c3 ^ np.uint64(k1), p0 & MASK)
    return np.stack([c0, c1, c2, c3])


def blocks(key, counter, first, n):
    """Blocks counter + first .. counter + first + n - 1 of the stream, shape (4, n)."""
    b = np.uint64(counter) + np.arange(first, first + n, dtype=np.uint64)
    return philox(b & MASK, b >> np.uint64(32), key & 0xFFFFFFFF, key >> 32)


def words(key, counter, first, n):
    """32-bit words first .. first + n - 1 of the stream."""
    b0, b1 = first // 4, (first + n + 3) // 4
    return blocks(key, counter, b0, b1 - b0).T.ravel()[first - 4 * b0:][:n].astype(np.uint32)


def units(key, counter, first, n):
    """64-bit units: words 2j (low) and 2j + 1 (high)."""
    w = words(key, counter, 2 * first, 2 * n).astype(np.uint64)
    return w[0::2] | (w[1::2] << np.uint64(32))


def ref_random(key, counter, n, dtype):
    if dtype == np.float32:
        return ((words(key, counter, 0, n) >> 8).astype(np.float32) * np.float32(2.0**-24))
    return (units(key, counter, 0, n) >> np.uint64(11)).astype(np.float64) * 2.0**-53


def ref_normal(key, counter, n, dtype):
    if dtype == np.float32:
        # Both of a pair: elements 2j and 2j + 1 are r cos and r sin of unit j.
        m = (n + 1) // 2
        u = (words(key, counter, 0, 2 * m) >> 8).astype(np.float32) * np.float32(2.0**-24)
        u1, u2 = u[0::2], u[1::2]
        r = np.sqrt(np.float32(-2.0) * np.log1p(-u1))
        t = np.float32(2 * np.pi) * u2
        return np.stack([r * np.cos(t), r * np.sin(t)], axis=1).ravel()[:n]
    u = (units(key, counter, 0, 2 * n) >> np.uint64(11)).astype(np.float64) * 2.0**-53
    u1, u2 = u[0::2], u[1::2]
    return np.sqrt(-2.0 * np.log1p(-u1)) * np.cos(2 * np.pi * u2)


def ref_integers(key, counter, n, low, r):
    b = blocks(key, counter, 0, n)
    out = []
    for i in range(n):
        x = sum(int(b[k, i]) << (32 * k) for k in range(4))
        out.append(low + (x * r >> 128))
    return out


def element_uniforms(key, counter, n, rounds):
    """The float64 uniforms of the looping samplers' element streams (kernels/lib/random_draw.h):
    element i reads blocks (counter + i, j, 0), j = 0 .. rounds - 1, two uniforms a block (words
    x, y and z, w, low word first). Shape (n, 2 * rounds)."""
    pos = np.uint64(counter) + np.arange(n, dtype=np.uint64)
    out = []
    for j in range(rounds):
        b = philox(pos & MASK, pos >> np.uint64(32), key & 0xFFFFFFFF, key >> 32,
                   np.full(n, j, dtype=np.uint64))
        for lo, hi in ((0, 1), (2, 3)):
            u = (b[lo] | (b[hi] << np.uint64(32))) >> np.uint64(11)
            out.append(u.astype(np.float64) * 2.0**-53)
    return np.stack(out, axis=1)
