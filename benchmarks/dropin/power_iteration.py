"""Power iteration for the dominant eigenvalue and eigenvector of a positive float32 matrix."""

SIZES = {"small": (50, 10), "medium": (2000, 20), "large": (8192, 20), "demo": (500, 20)}
# float32: matrix-vector products of up to 8192 terms (~sqrt(n) ulps, order-dependent) and a
# normalization per step; the Perron eigenvalue of a positive matrix is well separated, so the
# errors do not grow from step to step.
RTOL = 1e-4
ATOL = 1e-6


def initialize(size, np):
    n, iters = size
    rng = np.random.default_rng(13)
    return rng.random((n, n), dtype=np.float32), iters


def kernel(np, a, iters):
    v = np.ones(a.shape[0], dtype=a.dtype) / a.shape[0] ** 0.5
    for _ in range(iters):
        w = a @ v
        v = w / np.linalg.norm(w)
    return np.dot(v, a @ v), v
