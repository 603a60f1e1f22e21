"""Logistic regression trained by full-batch gradient descent (float32): two matrix-vector
products and an elementwise sigmoid per iteration."""

# demo: the medium size. On a 2-core lavapipe machine numpy's time per point grows ~8x between
# 50_000 and 100_000 points (Debian's numpy has the reference BLAS), so a smaller demo size
# would understate vkarray.
SIZES = {"small": (1000, 7, 5), "medium": (200_000, 32, 10), "large": (1_000_000, 64, 10),
         "demo": (200_000, 32, 10)}
# float32: the gradient sums n terms of both signs (n up to 1e6), so its small components are
# compared absolutely; the weights are O(0.1).
RTOL = 1e-3
ATOL = 1e-4

LEARNING_RATE = 0.5


def initialize(size, np):
    n, d, iters = size
    rng = np.random.default_rng(14)
    x = rng.standard_normal((n, d)).astype(np.float32)
    true_w = rng.standard_normal(d)
    y = (rng.random(n) < 1.0 / (1.0 + np.exp(-(x @ true_w)))).astype(np.float32)
    return x, y, iters


def kernel(np, x, y, iters):
    n = x.shape[0]
    w = np.zeros(x.shape[1], dtype=np.float32)
    for _ in range(iters):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        w = w - LEARNING_RATE * (x.T @ (p - y)) / n
    return w
